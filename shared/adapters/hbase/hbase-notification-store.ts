// shared/adapters/hbase/hbase-notification-store.ts — NotificationStore on HBase (secondary
// adapter). Layout and access patterns: shared/schema/tables.ts (notifications).
import { bytesToString, type HBaseRestClient } from '../../hbase/index.js';
import { memberRef, type GroupHead, type GroupState, type NotificationEntry, type NotificationStore } from '../../ports/social-store.js';
import { notificationEntryKey, notificationEntryPrefix, notificationGroupKey, notificationMarkerKey, notificationMemberKey, parseNotificationEntryKey } from '../../schema/row-keys.js';
import { qualifiedTableName } from '../../schema/tables.js';
import { cellText, counter } from './cells.js';

const COUNT = 'n:c';
const LATEST_AT = 'n:t';
const LATEST = 'n:l';
const MEMBER_SINCE = 'm:t';
const ENTRY_LATEST = 'e:l';
const ENTRY_EXCERPT = 'e:x';
const READ_UP_TO = 'r:t';

const hex = (b: Uint8Array) => Buffer.from(b).toString('hex');
const int = (text: string | undefined): number | null => {
  const n = text === undefined ? NaN : Number(text);
  return Number.isSafeInteger(n) ? n : null;
};

function parseLatest(text: string | undefined): [string, number][] {
  if (!text) return [];
  try {
    const value: unknown = JSON.parse(text);
    return Array.isArray(value) ? value.filter((e): e is [string, number] => Array.isArray(e) && typeof e[0] === 'string' && typeof e[1] === 'number') : [];
  } catch {
    return [];
  }
}

export class HBaseNotificationStore implements NotificationStore {
  private readonly table: string;
  constructor(private readonly client: HBaseRestClient, namespace: string) {
    this.table = qualifiedTableName(namespace, 'notifications');
  }

  async member(recipient: string, groupKey: string, member: string): Promise<number | null> {
    const row = await this.client.getRow(this.table, notificationMemberKey(recipient, groupKey, member), { columns: [MEMBER_SINCE] });
    return int(cellText(row, MEMBER_SINCE));
  }

  putMember(recipient: string, groupKey: string, member: string, since: number, replacing?: number): Promise<boolean> {
    return this.client.checkAndPut(this.table, notificationMemberKey(recipient, groupKey, member), [{ column: MEMBER_SINCE, value: String(since) }], {
      column: MEMBER_SINCE,
      value: replacing === undefined ? null : String(replacing),
    });
  }

  removeMember(recipient: string, groupKey: string, member: string, since: number): Promise<boolean> {
    return this.client.checkAndDelete(this.table, notificationMemberKey(recipient, groupKey, member), { column: MEMBER_SINCE, value: String(since) });
  }

  async count(recipient: string, groupKey: string, delta: number): Promise<void> {
    await this.client.increment(this.table, notificationGroupKey(recipient, groupKey), COUNT, delta);
  }

  async head(recipient: string, groupKey: string): Promise<GroupHead> {
    const row = await this.client.getRow(this.table, notificationGroupKey(recipient, groupKey), { columns: [LATEST_AT, LATEST] });
    const text = cellText(row, LATEST);
    // The version is the latest-actors cell as read: `place` swaps it only while it holds that.
    return { latestAt: int(cellText(row, LATEST_AT)), latest: parseLatest(text), version: text ?? null };
  }

  async place(recipient: string, groupKey: string, next: { at: number; latest: [string, number][]; excerpt?: string }, seen: GroupHead): Promise<boolean> {
    const group = notificationGroupKey(recipient, groupKey);
    const swapped = await this.client.checkAndPut(this.table, group, [{ column: LATEST, value: JSON.stringify(next.latest) }], {
      column: LATEST,
      value: seen.version,
    });
    if (!swapped) return false;
    // The new entry first, then the position, then the old entry goes: the group is listed
    // throughout. n:t is written with cell timestamp = its value, so HBase keeps the largest.
    await this.client.put(this.table, [
      {
        key: notificationEntryKey(recipient, next.at, groupKey),
        cells: [
          { column: ENTRY_LATEST, value: JSON.stringify(next.latest) },
          ...(next.excerpt === undefined ? [] : [{ column: ENTRY_EXCERPT, value: next.excerpt }]),
        ],
      },
      { key: group, cells: [{ column: LATEST_AT, value: String(next.at), timestamp: next.at }] },
    ]);
    if (seen.latestAt !== null && seen.latestAt < next.at) await this.client.deleteRow(this.table, notificationEntryKey(recipient, seen.latestAt, groupKey));
    return true;
  }

  async entries(recipient: string, limit: number, after?: { at: number; groupKey: string }): Promise<{ items: NotificationEntry[]; more: boolean }> {
    const prefix = notificationEntryPrefix(recipient);
    // ONE request: the stateless scan in reverse, from the top of the recipient's range ('~'
    // sorts above every digit) or from the cursor's row, which a reversed start includes — one
    // row more is asked for and the cursor's row dropped.
    const startRow = after ? notificationEntryKey(recipient, after.at, after.groupKey) : `${prefix}~`;
    const found = await this.client.scanText(this.table, { prefix, startRow, reversed: true, limit: limit + 2, columns: ['e'] });
    const rows = found.filter((r) => bytesToString(r.key) !== startRow).slice(0, limit + 1);
    const items = rows.slice(0, limit).map((row): NotificationEntry => {
      const { at, groupKey } = parseNotificationEntryKey(recipient, bytesToString(row.key));
      const excerpt = cellText(row, ENTRY_EXCERPT);
      return { groupKey, at, latest: parseLatest(cellText(row, ENTRY_LATEST)), ...(excerpt === undefined ? {} : { excerpt }) };
    });
    return { items, more: rows.length > limit };
  }

  async states(
    recipient: string,
    groupKeys: string[],
    members: { groupKey: string; member: string }[],
  ): Promise<{ groups: Map<string, GroupState>; live: Set<string> }> {
    const groupByKey = new Map([...new Set(groupKeys)].map((g) => [hex(notificationGroupKey(recipient, g)), g]));
    const memberByKey = new Map(members.map((m) => [hex(notificationMemberKey(recipient, m.groupKey, m.member)), memberRef(m.groupKey, m.member)]));
    const keys = [...groupByKey.keys(), ...memberByKey.keys()].map((k) => Uint8Array.from(Buffer.from(k, 'hex')));
    const groups = new Map<string, GroupState>();
    const live = new Set<string>();
    // Group rows and member rows live in one table: ONE multi-get answers both.
    for (const row of keys.length === 0 ? [] : await this.client.multiGet(this.table, keys, { columns: [COUNT, LATEST_AT, MEMBER_SINCE] })) {
      const k = hex(row.key);
      const group = groupByKey.get(k);
      if (group !== undefined) groups.set(group, { count: counter(row, COUNT), latestAt: int(cellText(row, LATEST_AT)) ?? 0 });
      const member = memberByKey.get(k);
      if (member !== undefined && row.cells.length > 0) live.add(member);
    }
    return { groups, live };
  }

  async readUpTo(recipient: string): Promise<number> {
    return int(cellText(await this.client.getRow(this.table, notificationMarkerKey(recipient), { columns: [READ_UP_TO] }), READ_UP_TO)) ?? 0;
  }

  async markRead(recipient: string, at: number): Promise<void> {
    // Cell timestamp = the millis marked: HBase keeps the largest, so a late, older mark-read
    // never moves the marker back.
    await this.client.put(this.table, [{ key: notificationMarkerKey(recipient), cells: [{ column: READ_UP_TO, value: String(at), timestamp: at }] }]);
  }
}
