// shared/adapters/hbase/hbase-group-store.ts — GroupStore on HBase (secondary adapter).
// Layout and access patterns: shared/schema/tables.ts (groups).
import { randomBytes } from 'node:crypto';
import * as z from 'zod';
import { bytesToString, filters, type CellInput, type HBaseRestClient, type HBaseRow } from '../../hbase/index.js';
import { withSpecial, type Group, type GroupBook } from '../../domain/groups.js';
import type { GroupStore, Holding, ReadBook } from '../../ports/group-store.js';
import { groupBookKey, groupHoldersKey, groupToldKey } from '../../schema/row-keys.js';
import { qualifiedTableName } from '../../schema/tables.js';

const VERSION = 'g:v';
/** A group's cell as stored (it crossed storage: checked, never trusted). */
const StoredGroup = z.object({ name: z.string(), at: z.number() });

export class HBaseGroupStore implements GroupStore {
  private readonly table: string;
  constructor(
    private readonly client: HBaseRestClient,
    namespace: string,
  ) {
    this.table = qualifiedTableName(namespace, 'groups');
  }

  async read(owner: string): Promise<ReadBook> {
    const row = await this.client.getRow(this.table, groupBookKey(owner));
    const version = row?.cells.find((c) => c.family === 'g' && bytesToString(c.qualifier) === 'v');
    return {
      book: bookOf(row),
      version: version && version.value.byteLength > 0 ? bytesToString(version.value) : null,
    };
  }

  async members(owner: string, groupId: string): Promise<string[] | null> {
    // ONE get of the group's own cells: its g: cell and its m:<id>/ range, whatever else the row holds.
    const row = await this.client.getRow(this.table, groupBookKey(owner), {
      filter: filters.or(
        filters.and(filters.family('g'), filters.columnRange(groupId, true, groupId, true)),
        filters.and(filters.family('m'), filters.columnRange(`${groupId}/`, true, `${groupId}0`, false)),
      ),
    });
    const group = bookOf(row).groups.find((g) => g.id === groupId);
    return group ? [...group.members.keys()] : null;
  }

  async commit(owner: string, seen: ReadBook, next: GroupBook): Promise<boolean> {
    // Every cell that changed: a group or member that went is written empty (a check-and-put
    // cannot delete), and the read ignores empty cells.
    const cells: CellInput[] = [{ column: VERSION, value: randomBytes(8).toString('hex') }];
    const before = new Map(seen.book.groups.map((g) => [g.id, g]));
    const after = new Map(next.groups.map((g) => [g.id, g]));
    for (const id of new Set([...before.keys(), ...after.keys()])) {
      const was = before.get(id);
      const is = after.get(id);
      if (is && (!was || was.name !== is.name || was.createdAt !== is.createdAt))
        cells.push({ column: `g:${id}`, value: JSON.stringify({ name: is.name, at: is.createdAt }) });
      if (!is && was && id !== 'special') cells.push({ column: `g:${id}`, value: '' });
      for (const member of new Set([...(was?.members.keys() ?? []), ...(is?.members.keys() ?? [])])) {
        const since = is?.members.get(member);
        if (since !== was?.members.get(member))
          cells.push({ column: `m:${id}/${member}`, value: since === undefined ? '' : String(since) });
      }
    }
    return this.client.checkAndPut(this.table, groupBookKey(owner), cells, { column: VERSION, value: seen.version });
  }

  async holders(member: string): Promise<Holding[]> {
    const row = await this.client.getRow(this.table, groupHoldersKey(member), { columns: ['h'] });
    return (row?.cells ?? []).flatMap((c) => {
      const [owner, groupId] = bytesToString(c.qualifier).split('/');
      return owner && groupId ? [{ owner, groupId }] : [];
    });
  }

  async addHoldings(member: string, holdings: Holding[]): Promise<void> {
    if (holdings.length === 0) return;
    await this.client.put(this.table, [
      {
        key: groupHoldersKey(member),
        cells: holdings.map((h) => ({ column: `h:${h.owner}/${h.groupId}`, value: '' })),
      },
    ]);
  }

  async removeHoldings(member: string, holdings: Holding[]): Promise<void> {
    await this.client.deleteColumns(
      this.table,
      groupHoldersKey(member),
      holdings.map((h) => `h:${h.owner}/${h.groupId}`),
    );
  }

  async told(author: string, postId: string, fans: string[]): Promise<void> {
    if (fans.length === 0) return;
    await this.client.put(this.table, [
      { key: groupToldKey(author), cells: fans.map((f) => ({ column: `n:${postId}/${f}`, value: '' })) },
    ]);
  }

  async toldOf(author: string): Promise<{ postId: string; fan: string }[]> {
    const row = await this.client.getRow(this.table, groupToldKey(author), { columns: ['n'] });
    return (row?.cells ?? []).flatMap((c) => {
      const [postId, fan] = bytesToString(c.qualifier).split('/');
      return postId && fan ? [{ postId, fan }] : [];
    });
  }

  async forgetMember(owner: string, member: string): Promise<void> {
    const row = await this.client.getRow(this.table, groupBookKey(owner), { columns: ['m'] });
    const columns = (row?.cells ?? [])
      .map((c) => bytesToString(c.qualifier))
      .filter((q) => q.endsWith(`/${member}`))
      .map((q) => `m:${q}`);
    await this.client.deleteColumns(this.table, groupBookKey(owner), columns);
  }

  async eraseBook(owner: string): Promise<void> {
    await Promise.all([
      this.client.deleteRow(this.table, groupBookKey(owner)),
      this.client.deleteRow(this.table, groupHoldersKey(owner)),
      this.client.deleteRow(this.table, groupToldKey(owner)),
    ]);
  }
}

/** The book a row holds: groups with a non-empty g: cell, members with a non-empty m: cell. */
function bookOf(row: HBaseRow | null): GroupBook {
  const groups = new Map<string, Group>();
  const members = new Map<string, Map<string, number>>();
  for (const cell of row?.cells ?? []) {
    if (cell.value.byteLength === 0) continue;
    const qualifier = bytesToString(cell.qualifier);
    if (cell.family === 'g' && qualifier !== 'v') {
      const parsed = StoredGroup.safeParse(safeJson(bytesToString(cell.value)));
      if (parsed.success)
        groups.set(qualifier, { id: qualifier, name: parsed.data.name, createdAt: parsed.data.at, members: new Map() });
    } else if (cell.family === 'm') {
      const slash = qualifier.indexOf('/');
      const since = Number(bytesToString(cell.value));
      if (slash < 1 || !Number.isFinite(since)) continue;
      const id = qualifier.slice(0, slash);
      if (!members.has(id)) members.set(id, new Map());
      members.get(id)!.set(qualifier.slice(slash + 1), since);
    }
  }
  // 特别关注 exists before its first cell; a custom group's members count only while it exists.
  const book = withSpecial([...groups.values()]);
  return { groups: book.groups.map((g) => ({ ...g, members: members.get(g.id) ?? new Map() })) };
}

function safeJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}
