// shared/adapters/hbase/hbase-notification-store.ts — NotificationStore on HBase (secondary
// adapter). Layout and access patterns: shared/schema/tables.ts (notifications).
import {
  EMPTY_GROUP,
  type GroupState,
  type LatestMembers,
  type MemberInstances,
  type NotificationType,
} from '../../domain/notification.js';
import { bytesToString, filters, type HBaseRestClient, type HBaseRow } from '../../hbase/index.js';
import type { NotificationEntry, NotificationStore, Versioned } from '../../ports/social-store.js';
import {
  notificationEntryKey,
  notificationEntryPrefix,
  notificationGroupKey,
  notificationMarkerKey,
  notificationMemberKey,
  parseNotificationEntryKey,
} from '../../schema/row-keys.js';
import { qualifiedTableName } from '../../schema/tables.js';
import { cellText, counter } from './cells.js';

const STATE = 'n:s';
// Written before a group's state was one cell; read (never written) so such groups carry on.
const OLD_COUNT = 'n:c';
const OLD_LATEST_AT = 'n:t';
const OLD_LATEST = 'n:l';
const MEMBER = 'm:t';
/** On the group row: n:m.<handle> = '1' while the group's count includes that member, '0' once it does not. */
const countedColumn = (member: string) => `n:m.${member}`;
const ENTRY_LATEST = 'e:l';
const ENTRY_EXCERPT = 'e:x';
const READ_UP_TO = 'r:t';

const hex = (b: Uint8Array) => Buffer.from(b).toString('hex');
const int = (text: string | undefined): number | null => {
  const n = text === undefined ? NaN : Number(text);
  return Number.isSafeInteger(n) ? n : null;
};

function parseLatest(text: string | undefined): LatestMembers {
  if (!text) return [];
  try {
    return latestOf(JSON.parse(text));
  } catch {
    return [];
  }
}

const latestOf = (value: unknown): LatestMembers =>
  Array.isArray(value)
    ? value.filter(
        (e): e is [string, number] => Array.isArray(e) && typeof e[0] === 'string' && typeof e[1] === 'number',
      )
    : [];

/** A group row's state: the one cell, or (a group written before it) the separate old cells. */
function groupState(row: HBaseRow | null): GroupState {
  const text = cellText(row, STATE);
  if (text === undefined) {
    // No row: a group begun now, which records its members from its first write.
    if (!row) return { ...EMPTY_GROUP, recorded: true };
    return {
      count: counter(row, OLD_COUNT),
      at: int(cellText(row, OLD_LATEST_AT)),
      latest: parseLatest(cellText(row, OLD_LATEST)),
      clock: 0,
    };
  }
  try {
    const v = JSON.parse(text) as { c?: unknown; t?: unknown; l?: unknown; k?: unknown; r?: unknown };
    return {
      count: typeof v.c === 'number' ? v.c : 0,
      at: typeof v.t === 'number' ? v.t : null,
      latest: latestOf(v.l),
      clock: typeof v.k === 'number' ? v.k : 0,
      ...(v.r === 1 ? { recorded: true as const } : {}),
    };
  } catch {
    return EMPTY_GROUP;
  }
}

/** A member's instances: a JSON array, or (written before) the one since as a number. */
function instancesOf(text: string | undefined): MemberInstances {
  if (text === undefined || text === '') return [];
  if (/^\d+$/.test(text)) return [text];
  try {
    const v: unknown = JSON.parse(text);
    return Array.isArray(v) ? v.filter((i): i is string => typeof i === 'string') : [];
  } catch {
    return [];
  }
}

export class HBaseNotificationStore implements NotificationStore {
  private readonly table: string;
  constructor(
    private readonly client: HBaseRestClient,
    namespace: string,
  ) {
    this.table = qualifiedTableName(namespace, 'notifications');
  }

  async member(recipient: string, groupKey: string, member: string): Promise<Versioned<MemberInstances>> {
    const text = cellText(
      await this.client.getRow(this.table, notificationMemberKey(recipient, groupKey, member), { columns: [MEMBER] }),
      MEMBER,
    );
    return { value: instancesOf(text), version: text ?? null };
  }

  swapMember(
    recipient: string,
    groupKey: string,
    member: string,
    next: MemberInstances,
    seen: Versioned<MemberInstances>,
  ): Promise<boolean> {
    // Never deleted, only swapped ([] = not a member): a Delete would mask a later put of the
    // same millisecond (HBASE-3300), and the check on the value read makes one racer win.
    return this.client.checkAndPut(
      this.table,
      notificationMemberKey(recipient, groupKey, member),
      [{ column: MEMBER, value: JSON.stringify(next) }],
      {
        column: MEMBER,
        value: seen.version,
      },
    );
  }

  async group(
    recipient: string,
    groupKey: string,
    member: string,
  ): Promise<Versioned<GroupState> & { counts?: boolean }> {
    const counted = countedColumn(member);
    const row = await this.client.getRow(this.table, notificationGroupKey(recipient, groupKey), {
      columns: [STATE, OLD_COUNT, OLD_LATEST_AT, OLD_LATEST, counted],
    });
    const flag = cellText(row, counted);
    return {
      value: groupState(row),
      version: cellText(row, STATE) ?? null,
      ...(flag === undefined ? {} : { counts: flag === '1' }),
    };
  }

  swapGroup(
    recipient: string,
    groupKey: string,
    next: GroupState,
    seen: Versioned<GroupState>,
    member: { handle: string; counts: boolean },
  ): Promise<boolean> {
    const value = JSON.stringify({
      c: next.count,
      t: next.at,
      l: next.latest,
      k: next.clock,
      ...(next.recorded ? { r: 1 } : {}),
    });
    // The member's flag rides in the same check-and-put as the count: one row, so they move together.
    return this.client.checkAndPut(
      this.table,
      notificationGroupKey(recipient, groupKey),
      [
        { column: STATE, value },
        { column: countedColumn(member.handle), value: member.counts ? '1' : '0' },
      ],
      { column: STATE, value: seen.version },
    );
  }

  async list(
    recipient: string,
    groupKey: string,
    state: GroupState,
    previousAt: number | null,
    excerpt?: string,
  ): Promise<void> {
    if (state.at === null) return;
    // Cell timestamp = the state's clock: HBase keeps the newest state's names whatever order
    // racing writers land in. The new entry first, then the old one goes: listed throughout.
    await this.client.put(this.table, [
      {
        key: notificationEntryKey(recipient, state.at, groupKey),
        cells: [
          { column: ENTRY_LATEST, value: JSON.stringify(state.latest), timestamp: state.clock },
          ...(excerpt === undefined ? [] : [{ column: ENTRY_EXCERPT, value: excerpt, timestamp: state.clock }]),
        ],
      },
    ]);
    if (previousAt !== null && previousAt < state.at)
      await this.client.deleteRow(this.table, notificationEntryKey(recipient, previousAt, groupKey));
  }

  async entries(
    recipient: string,
    limit: number,
    after?: { at: number; groupKey: string },
    types?: readonly NotificationType[],
  ): Promise<{ items: NotificationEntry[]; more: boolean }> {
    const prefix = notificationEntryPrefix(recipient);
    // ONE request: the stateless scan in reverse, from the top of the recipient's range ('~'
    // sorts above every digit) or from the cursor's row, which a reversed start includes — one
    // row more is asked for and the cursor's row dropped.
    const startRow = after ? notificationEntryKey(recipient, after.at, after.groupKey) : `${prefix}~`;
    const found = await this.client.scanText(this.table, {
      prefix,
      startRow,
      reversed: true,
      limit: limit + 2,
      columns: ['e'],
      // A tab's types: a row filter on the group key's type, right after the entry's 13-digit time.
      ...(types ? { filter: filters.rowMatching(`^[^/]*/T/[0-9]{13}/(${types.join('|')})/`) } : {}),
    });
    const rows = found.filter((r) => bytesToString(r.key) !== startRow).slice(0, limit + 1);
    const items = rows.slice(0, limit).map((row): NotificationEntry => {
      const { at, groupKey } = parseNotificationEntryKey(recipient, bytesToString(row.key));
      const excerpt = cellText(row, ENTRY_EXCERPT);
      return {
        groupKey,
        at,
        latest: parseLatest(cellText(row, ENTRY_LATEST)),
        ...(excerpt === undefined ? {} : { excerpt }),
      };
    });
    return { items, more: rows.length > limit };
  }

  async states(recipient: string, groupKeys: string[]): Promise<Map<string, GroupState>> {
    const groupByKey = new Map([...new Set(groupKeys)].map((g) => [hex(notificationGroupKey(recipient, g)), g]));
    const keys = [...groupByKey.keys()].map((k) => Uint8Array.from(Buffer.from(k, 'hex')));
    const groups = new Map<string, GroupState>();
    for (const row of keys.length === 0
      ? []
      : await this.client.multiGet(this.table, keys, { columns: [STATE, OLD_COUNT, OLD_LATEST_AT, OLD_LATEST] })) {
      const group = groupByKey.get(hex(row.key));
      if (group !== undefined) groups.set(group, groupState(row));
    }
    return groups;
  }

  async readUpTo(recipient: string): Promise<number> {
    return (
      int(
        cellText(
          await this.client.getRow(this.table, notificationMarkerKey(recipient), { columns: [READ_UP_TO] }),
          READ_UP_TO,
        ),
      ) ?? 0
    );
  }

  async markRead(recipient: string, at: number): Promise<void> {
    // Cell timestamp = the millis marked: HBase keeps the largest, so a late, older mark-read
    // never moves the marker back.
    await this.client.put(this.table, [
      { key: notificationMarkerKey(recipient), cells: [{ column: READ_UP_TO, value: String(at), timestamp: at }] },
    ]);
  }
}
