// shared/adapters/hbase/hbase-user-store.ts — UserStore and LoginThrottle on HBase (secondary
// adapters). Layout and access patterns: shared/schema/tables.ts (users, throttle).
import type { HBaseRestClient } from '../../hbase/index.js';
import type { LoginThrottle, NewUser, ThrottleState, UserProfile, UserStore } from '../../ports/user-store.js';
import { userKey } from '../../schema/row-keys.js';
import { qualifiedTableName } from '../../schema/tables.js';
import { cellText as text, counter } from './cells.js';

export class HBaseUserStore implements UserStore {
  private readonly table: string;
  constructor(private readonly client: HBaseRestClient, namespace: string) {
    this.table = qualifiedTableName(namespace, 'users');
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
      ],
      { column: 'p:h', value: null },
    );
  }

  async passwordHash(handle: string): Promise<string | null> {
    const row = await this.client.getRow(this.table, userKey(handle), { columns: ['a:pw'] });
    return text(row, 'a:pw') ?? null;
  }

  async existing(handles: string[]): Promise<Set<string>> {
    if (handles.length === 0) return new Set();
    const rows = await this.client.multiGet(this.table, handles.map((h) => userKey(h)), { columns: ['p:h'] });
    return new Set(rows.flatMap((row) => text(row, 'p:h') ?? []));
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
    };
  }

  async updateDisplayName(handle: string, displayName: string): Promise<boolean> {
    // Conditional on p:h so an update can never create a half-formed user row.
    return this.client.checkAndPut(
      this.table,
      userKey(handle),
      [
        { column: 'p:n', value: displayName },
        { column: 'p:h', value: handle },
      ],
      { column: 'p:h', value: handle },
    );
  }
}

export class HBaseLoginThrottle implements LoginThrottle {
  private readonly table: string;
  constructor(private readonly client: HBaseRestClient, namespace: string) {
    this.table = qualifiedTableName(namespace, 'throttle');
  }

  async read(handle: string): Promise<ThrottleState> {
    const row = await this.client.getRow(this.table, userKey(handle));
    return { failures: counter(row, 't:f'), lockedUntil: Number(text(row, 't:l') ?? 0) };
  }

  async recordFailure(handle: string, lockUntil: number | null): Promise<void> {
    // The increment is atomic, so parallel guesses are all counted.
    await this.client.increment(this.table, userKey(handle), 't:f', 1);
    if (lockUntil !== null) {
      await this.client.put(this.table, [{ key: userKey(handle), cells: [{ column: 't:l', value: String(lockUntil) }] }]);
    }
  }

  async reset(handle: string): Promise<void> {
    await this.client.deleteRow(this.table, userKey(handle));
  }
}
