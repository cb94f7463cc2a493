// shared/adapters/hbase/hbase-user-store.ts — UserStore and LoginThrottle on HBase (secondary
// adapters). Layout and access patterns: shared/schema/tables.ts (users, throttle).
import type { HBaseRestClient } from '../../hbase/index.js';
import type {
  Credentials,
  ExportState,
  FindableUser,
  LoginAttempt,
  LoginThrottle,
  NewUser,
  ProfileText,
  UserFace,
  UserProfile,
  UserStore,
} from '../../ports/user-store.js';
import { ACTIVE, erasableFrom, type Standing } from '../../domain/leaving.js';
import {
  ALL_NOTIFICATIONS,
  DEFAULT_MESSAGES_FROM,
  MESSAGES_FROM,
  NOTIFICATION_KINDS,
  type MessagesFrom,
  type NotificationChoices,
  type NotificationKind,
  type SettingsChange,
  type UserSettings,
} from '../../domain/settings.js';
import type { HBaseRow } from '../../hbase/index.js';
import { departureRowKey, throttleGlobalKey, throttleSourceKey, userKey } from '../../schema/row-keys.js';
import { qualifiedTableName } from '../../schema/tables.js';
import { cellText as text, counter } from './cells.js';

/** p:sv holds the naming version: which people index rows are the user's (tables.ts users, people). */
const NAMING = 'p:sv';
/** p:av holds the avatar's media id; '' once removed (overwritten, never deleted: tables.ts users). */
const AVATAR = 'p:av';
const avatarOf = (row: Parameters<typeof text>[0]): { avatar?: string } => {
  const id = text(row, AVATAR);
  return id ? { avatar: id } : {};
};

/** p:bi the bio, p:lo the location, as written; '' once cleared (overwritten, never deleted: tables.ts users). */
const BIO = 'p:bi';
const LOCATION = 'p:lo';
/** p:cv holds the cover picture's media id; '' once removed (as p:av). */
const COVER = 'p:cv';
const profileTextOf = (row: HBaseRow | null): { bio?: string; location?: string; cover?: string } => {
  const [bio, location, cover] = [text(row, BIO), text(row, LOCATION), text(row, COVER)];
  return { ...(bio ? { bio } : {}), ...(location ? { location } : {}), ...(cover ? { cover } : {}) };
};
const profileTextCells = (t: ProfileText) => [
  ...(t.bio === undefined ? [] : [{ column: BIO, value: t.bio }]),
  ...(t.location === undefined ? [] : [{ column: LOCATION, value: t.location }]),
];

/**
 * The user's own settings, in family a (never read by a profile): a:dm who may message them
 * ('everyone' | 'following' | 'nobody'; absent = the default); a:n<kind> one cell per kind of
 * notification, '0' = switched off, '1' or absent = on. A cell per kind, so two changes of
 * different kinds never overwrite each other.
 */
const MESSAGES = 'a:dm';
const NOTIFY_PREFIX = 'a:n';
const notifyColumn = (kind: NotificationKind) => `${NOTIFY_PREFIX}${kind}`;
const SETTINGS_COLUMNS = [MESSAGES, ...NOTIFICATION_KINDS.map(notifyColumn)];
const choicesOf = (row: HBaseRow | null): NotificationChoices => {
  const choices = { ...ALL_NOTIFICATIONS };
  for (const kind of NOTIFICATION_KINDS) choices[kind] = text(row, notifyColumn(kind)) !== '0';
  return choices;
};
const messagesFromOf = (row: HBaseRow | null): MessagesFrom => {
  const v = text(row, MESSAGES);
  return (MESSAGES_FROM as readonly string[]).includes(v ?? '') ? (v as MessagesFrom) : DEFAULT_MESSAGES_FROM;
};

/**
 * p:x holds the standing (tables.ts users): '' or absent = active, 'd<millis>' deactivated then,
 * 'e<millis>' erasure begun then. Overwritten, never deleted (a delete marker could mask a
 * later write of the same millisecond).
 */
const STANDING = 'p:x';
/** a:se holds the session epoch: a session started under another one is over. */
const EPOCH = 'a:se';
export const standingCell = (s: Standing): string =>
  s.state === 'active' ? '' : `${s.state === 'deactivated' ? 'd' : 'e'}${s.at}`;
export function standingOf(row: HBaseRow | null): Standing {
  const v = text(row, STANDING) ?? '';
  const at = Number(v.slice(1));
  if (v[0] === 'd') return { state: 'deactivated', at };
  if (v[0] === 'e') return { state: 'erased', at };
  return ACTIVE;
}
/**
 * The data export (use-cases/export-data.ts): a:er the latest build asked for (millis, its id);
 * a:ed the latest done, '<asked millis> <file key> <built millis>'. Overwritten, never deleted.
 */
const EXPORT_ASKED = 'a:er';
const EXPORT_DONE = 'a:ed';
/** The rows of active users among `rows` (a missing row has no p:h). */
const activeRows = (rows: HBaseRow[]) =>
  rows.filter((row) => text(row, 'p:h') !== undefined && standingOf(row).state === 'active');

export class HBaseUserStore implements UserStore {
  private readonly table: string;
  private readonly lists: string;
  constructor(
    private readonly client: HBaseRestClient,
    namespace: string,
  ) {
    this.table = qualifiedTableName(namespace, 'users');
    this.lists = qualifiedTableName(namespace, 'lists');
  }

  async create(user: NewUser): Promise<boolean> {
    // check p:h == "" means "p:h absent": one atomic put-if-absent, so two racing
    // registrations of one handle produce exactly one winner.
    return this.client.checkAndPut(
      this.table,
      userKey(user.handle),
      [
        { column: 'p:h', value: user.handle },
        { column: 'p:n', value: user.displayName },
        { column: 'p:t', value: String(user.createdAt) },
        { column: 'a:pw', value: user.passwordHash },
        ...(user.naming ? [{ column: NAMING, value: user.naming }] : []),
      ],
      { column: 'p:h', value: null },
    );
  }

  async credentials(handle: string): Promise<Credentials | null> {
    const row = await this.client.getRow(this.table, userKey(handle), { columns: ['a:pw', EPOCH, STANDING] });
    const hash = text(row, 'a:pw');
    return hash === undefined ? null : { hash, standing: standingOf(row), epoch: text(row, EPOCH) ?? '' };
  }

  async sessionGate(handle: string): Promise<Omit<Credentials, 'hash'> | null> {
    const row = await this.client.getRow(this.table, userKey(handle), { columns: ['p:h', EPOCH, STANDING] });
    return text(row, 'p:h') === undefined ? null : { standing: standingOf(row), epoch: text(row, EPOCH) ?? '' };
  }

  async deactivate(handle: string, at: number, epoch: string): Promise<boolean> {
    // Standing and epoch in ONE row write: no session outlives the deactivation's answer, and of a
    // deactivation and a restore or erasure racing, the standing each checked decides (Q).
    const cells = [
      { column: STANDING, value: standingCell({ state: 'deactivated', at }) },
      { column: EPOCH, value: epoch },
    ];
    // Its departure entry first (the erasure job finds the account by it): a deactivation never
    // lacks one. An entry whose deactivation lost, or was restored, is dropped by the job (Q).
    await this.client.put(this.lists, [
      { key: departureRowKey('erase', erasableFrom(at), handle), cells: [{ column: 'e:t', value: '' }] },
    ]);
    return this.client.checkAndPut(this.table, userKey(handle), cells, { column: STANDING, value: '' });
  }

  async restore(handle: string, from: Standing): Promise<boolean> {
    return this.client.checkAndPut(this.table, userKey(handle), [{ column: STANDING, value: '' }], {
      column: STANDING,
      value: standingCell(from),
    });
  }

  async replacePasswordHash(handle: string, from: string, to: string): Promise<boolean> {
    return this.client.checkAndPut(this.table, userKey(handle), [{ column: 'a:pw', value: to }], {
      column: 'a:pw',
      value: from,
    });
  }

  async exportState(handle: string): Promise<ExportState> {
    const row = await this.client.getRow(this.table, userKey(handle), { columns: [EXPORT_ASKED, EXPORT_DONE] });
    const asked = text(row, EXPORT_ASKED);
    const [doneAsked, key, builtAt] = (text(row, EXPORT_DONE) ?? '').split(' ');
    return {
      ...(asked ? { requestedAt: Number(asked) } : {}),
      ...(doneAsked && key && builtAt
        ? { done: { requestedAt: Number(doneAsked), key, builtAt: Number(builtAt) } }
        : {}),
    };
  }

  async askExport(handle: string, from: number | null, at: number): Promise<boolean> {
    // '' matches an absent cell: the first ask. The row exists (the caller is its signed-in user).
    return this.client.checkAndPut(this.table, userKey(handle), [{ column: EXPORT_ASKED, value: String(at) }], {
      column: EXPORT_ASKED,
      value: from === null ? '' : String(from),
    });
  }

  async exportDone(handle: string, requestedAt: number, key: string, builtAt: number): Promise<boolean> {
    // The gateway wants the checked cell in the put: a:er is written again with the value it holds.
    const cells = [
      { column: EXPORT_ASKED, value: String(requestedAt) },
      { column: EXPORT_DONE, value: `${requestedAt} ${key} ${builtAt}` },
    ];
    return this.client.checkAndPut(this.table, userKey(handle), cells, {
      column: EXPORT_ASKED,
      value: String(requestedAt),
    });
  }

  async existing(handles: string[]): Promise<Set<string>> {
    if (handles.length === 0) return new Set();
    const rows = await this.client.multiGet(
      this.table,
      handles.map((h) => userKey(h)),
      { columns: ['p:h', STANDING] },
    );
    return new Set(activeRows(rows).flatMap((row) => text(row, 'p:h') ?? []));
  }

  async profile(handle: string): Promise<UserProfile | null> {
    const row = await this.client.getRow(this.table, userKey(handle), { columns: ['p', 'c'] });
    const storedHandle = text(row, 'p:h');
    if (!row || storedHandle === undefined) return null;
    return {
      handle: storedHandle,
      displayName: text(row, 'p:n') ?? '',
      createdAt: Number(text(row, 'p:t') ?? 0),
      followers: counter(row, 'c:followers'),
      following: counter(row, 'c:following'),
      posts: counter(row, 'c:posts'),
      ...avatarOf(row),
      ...profileTextOf(row),
      standing: standingOf(row),
    };
  }

  async faces(handles: string[]): Promise<Map<string, UserFace>> {
    const unique = [...new Set(handles)];
    if (unique.length === 0) return new Map();
    const rows = await this.client.multiGet(
      this.table,
      unique.map((h) => userKey(h)),
      { columns: ['p:h', 'p:n', AVATAR, STANDING] },
    );
    return new Map(
      activeRows(rows).flatMap((row) => {
        const handle = text(row, 'p:h');
        return handle === undefined
          ? []
          : [[handle, { handle, displayName: text(row, 'p:n') ?? handle, ...avatarOf(row) }] as const];
      }),
    );
  }

  async replaceAvatar(handle: string, from: string | null, to: string | null): Promise<boolean> {
    // An empty check value matches an absent cell too (never set) — and '' is how "none" is
    // stored once removed. The row is known to exist: the caller read the profile first, and a
    // users row is never deleted, so this cannot make a row that has only p:av.
    return this.client.checkAndPut(this.table, userKey(handle), [{ column: AVATAR, value: to ?? '' }], {
      column: AVATAR,
      value: from ?? '',
    });
  }

  async naming(handle: string): Promise<{ displayName: string; naming: string | null } | null> {
    const row = await this.client.getRow(this.table, userKey(handle), { columns: ['p:h', 'p:n', NAMING] });
    if (text(row, 'p:h') === undefined) return null;
    return { displayName: text(row, 'p:n') ?? '', naming: text(row, NAMING) ?? null };
  }

  async describe(handle: string, t: ProfileText): Promise<void> {
    const cells = profileTextCells(t);
    // The caller read the row, and a users row is never deleted: this cannot make a row of its own.
    if (cells.length > 0) await this.client.put(this.table, [{ key: userKey(handle), cells }]);
  }

  async replaceCover(handle: string, from: string | null, to: string | null): Promise<boolean> {
    // As replaceAvatar: '' matches an absent cell, and is how "none" is stored once removed.
    return this.client.checkAndPut(this.table, userKey(handle), [{ column: COVER, value: to ?? '' }], {
      column: COVER,
      value: from ?? '',
    });
  }

  async settings(handle: string): Promise<UserSettings | null> {
    const row = await this.client.getRow(this.table, userKey(handle), { columns: ['p:h', ...SETTINGS_COLUMNS] });
    if (text(row, 'p:h') === undefined) return null;
    return { messagesFrom: messagesFromOf(row), notifications: choicesOf(row) };
  }

  async changeSettings(handle: string, change: SettingsChange): Promise<void> {
    const cells = [
      ...(change.messagesFrom === undefined ? [] : [{ column: MESSAGES, value: change.messagesFrom }]),
      ...NOTIFICATION_KINDS.flatMap((kind) => {
        const on = change.notifications?.[kind];
        return on === undefined ? [] : [{ column: notifyColumn(kind), value: on ? '1' : '0' }];
      }),
    ];
    if (cells.length > 0) await this.client.put(this.table, [{ key: userKey(handle), cells }]);
  }

  async notificationChoices(handles: string[]): Promise<Map<string, NotificationChoices>> {
    const unique = [...new Set(handles)];
    const out = new Map(unique.map((h) => [h, { ...ALL_NOTIFICATIONS }]));
    if (unique.length === 0) return out;
    const rows = await this.client.multiGet(
      this.table,
      unique.map((h) => userKey(h)),
      { columns: ['p:h', ...NOTIFICATION_KINDS.map(notifyColumn)] },
    );
    for (const row of rows) {
      const handle = text(row, 'p:h');
      if (handle !== undefined) out.set(handle, choicesOf(row));
    }
    return out;
  }

  async rename(
    handle: string,
    displayName: string,
    from: string | null,
    to: string,
    t: ProfileText = {},
  ): Promise<boolean> {
    // The name and its naming version in ONE check-and-put on the version: of two racing renames
    // exactly one wins, and the loser knows it (invariant P). The caller read the row, and a users
    // row is never deleted, so this cannot make a row that has only p:n.
    return this.client.checkAndPut(
      this.table,
      userKey(handle),
      [{ column: 'p:n', value: displayName }, { column: NAMING, value: to }, ...profileTextCells(t)],
      { column: NAMING, value: from },
    );
  }

  async findable(handles: string[]): Promise<Map<string, FindableUser>> {
    const unique = [...new Set(handles)];
    if (unique.length === 0) return new Map();
    const rows = await this.client.multiGet(
      this.table,
      unique.map((h) => userKey(h)),
      { columns: ['p:h', 'p:n', AVATAR, NAMING, STANDING, 'c:followers'] },
    );
    return new Map(
      activeRows(rows).flatMap((row) => {
        const handle = text(row, 'p:h');
        if (handle === undefined) return [];
        const user = {
          handle,
          displayName: text(row, 'p:n') ?? handle,
          ...avatarOf(row),
          followers: counter(row, 'c:followers'),
          naming: text(row, NAMING) ?? null,
        };
        return [[handle, user] as const];
      }),
    );
  }
}

const ATTEMPTS = 't:f';
const LOCK = 't:l';

export class HBaseLoginThrottle implements LoginThrottle {
  private readonly table: string;
  constructor(
    private readonly client: HBaseRestClient,
    namespace: string,
  ) {
    this.table = qualifiedTableName(namespace, 'throttle');
  }

  async count(handle: string, source: string, window: number): Promise<LoginAttempt> {
    const sourceKey = throttleSourceKey(handle, source);
    const globalKey = throttleGlobalKey(handle, window);
    // Increment first, then read: the value read includes this attempt (the REST increment
    // cannot return the new value: with rr=true 2.6 echoes the delta).
    await Promise.all([
      this.client.increment(this.table, sourceKey, ATTEMPTS, 1),
      this.client.increment(this.table, globalKey, ATTEMPTS, 1),
    ]);
    const rows = await this.client.multiGet(this.table, [sourceKey, globalKey]);
    const row = (key: Uint8Array) => rows.find((r) => Buffer.compare(r.key, key) === 0) ?? null;
    return {
      sourceAttempts: counter(row(sourceKey), ATTEMPTS),
      lockedUntil: Number(text(row(sourceKey), LOCK) ?? 0),
      globalAttempts: counter(row(globalKey), ATTEMPTS),
    };
  }

  async lock(handle: string, source: string, seen: number, until: number): Promise<boolean> {
    return this.client.checkAndPut(
      this.table,
      throttleSourceKey(handle, source),
      [{ column: LOCK, value: String(until) }],
      {
        column: LOCK,
        value: seen === 0 ? null : String(seen),
      },
    );
  }

  async succeeded(handle: string, source: string, window: number): Promise<void> {
    await Promise.all([
      this.client.deleteRow(this.table, throttleSourceKey(handle, source)),
      this.client.increment(this.table, throttleGlobalKey(handle, window), ATTEMPTS, -1),
    ]);
  }
}
