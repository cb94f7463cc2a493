// test/integration/audience-packs.test.ts — the packed audience (tables.ts, relations 'P' rows;
// invariant N in docs/consistency.md) on the real HBase adapters: a fan-out's read of a
// followers list through its packs equals a scan of the followers side at that moment, after
// every kind of followers-side write, and under the two races forced inside the writer (held
// between its pack version and its row; cut right after its row).
import { randomBytes } from 'node:crypto';
import { describe, expect, inject, it } from 'vitest';
import { cellValue } from '../../shared/adapters/hbase/cells.js';
import { HBaseMaintenanceStore } from '../../shared/adapters/hbase/hbase-maintenance-store.js';
import { HBaseRelationStore } from '../../shared/adapters/hbase/hbase-relation-store.js';
import { bytesEqual } from '../../shared/hbase/index.js';
import type { AudienceMember } from '../../shared/ports/feed-store.js';
import { handleFromKey, relationKey, relationPrefix, segmentOf } from '../../shared/schema/row-keys.js';
import { qualifiedTableName } from '../../shared/schema/tables.js';
import { GatedClient } from '../support/gated-client.js';
import { useNamespace } from '../support/namespace.js';

const ns = `it_packs_${Date.now().toString(36)}_${randomBytes(3).toString('hex')}`;
const hb = new GatedClient({ baseUrl: inject('hbaseRestUrl'), timeoutMs: 60_000 });
useNamespace(hb, ns);

/** Added to the store's clock: a minute on, every version is quiet and packs get built. */
let ahead = 0;
const relations = new HBaseRelationStore(hb, ns, { settleMs: 5_000, now: () => Date.now() + ahead });
const maintenance = new HBaseMaintenanceStore(hb, ns);
const T0 = 1_700_000_000_000;

/** The followers side as a scan reads it now (no packs): every row, its away mark, in key order. */
async function scanned(author: string): Promise<AudienceMember[]> {
  const prefix = relationPrefix(author, 'R');
  const out: AudienceMember[] = [];
  for await (const row of hb.scan(qualifiedTableName(ns, 'relations'), { prefix, columns: ['e'], limit: 10_000 })) {
    const away = cellValue(row, 'e:away');
    out.push({ handle: handleFromKey(row.key, prefix.length).handle, away: away !== undefined && away.byteLength > 0 });
  }
  return out;
}

/** The whole audience as the fan-out reads it, and the HBase requests that took. */
async function read(author: string): Promise<{ members: AudienceMember[]; requests: number }> {
  const before = hb.requestCount;
  const members = (await relations.audience(author, 10_000)).items;
  return { members, requests: hb.requestCount - before };
}

const followersRow = (author: string, reader: string) => (keys: Uint8Array[]) =>
  keys.some((k) => bytesEqual(k, relationKey(author, 'R', reader)));

async function followAll(author: string, n: number): Promise<string[]> {
  const readers = Array.from({ length: n }, (_, i) => `${author}_r${i}`);
  for (const r of readers) await relations.follow(r, author, T0);
  return readers;
}

describe('the packed audience (invariant N)', () => {
  it('reads as a scan would after every kind of followers-side write; a built pack answers in one request', async () => {
    ahead = 60_000;
    const author = 'pk_star';
    const readers = await followAll(author, 40);
    const first = await read(author);
    expect(first.members).toEqual(await scanned(author));
    expect(first.members).toHaveLength(40);
    const again = await read(author);
    expect(again).toEqual({ members: first.members, requests: 1 }); // the packs, one multi-get

    const writes: [string, () => Promise<unknown>][] = [
      ['a follow', () => relations.follow('pk_new', author, T0 + 1)],
      ['an unfollow', () => relations.unfollow(readers[3]!, author)],
      ['an away mark', () => relations.markAway(readers[4]!, [author], T0 - 1)],
      ['an away mark cleared', () => relations.clearAway(readers[4]!, [author])],
      ['a settle removing a followers side', () => relations.removeFollowerSide(readers[5]!, author, T0)],
      ['a settle restoring it', () => relations.restoreFollowerSide(readers[5]!, author, T0)],
      [
        'the repair job dropping a followers side',
        () => maintenance.dropFollowerSideIf({ follower: readers[6]!, followee: author, since: String(T0) }),
      ],
      [
        'the repair job copying it back',
        () => maintenance.copyFollowerSides([{ follower: readers[6]!, followee: author, since: String(T0) }]),
      ],
    ];
    for (const [what, write] of writes) {
      const before = await scanned(author);
      await write();
      const after = await scanned(author);
      expect(after, `${what} changes the followers side`).not.toEqual(before);
      expect((await read(author)).members, `after ${what}`).toEqual(after);
      expect((await read(author)).requests, `after ${what}, rebuilt`).toBe(1);
    }

    // Segments and cursors walk the packs as they walked the scan: every follower once, in its segment.
    const all = await scanned(author);
    for (const of of [1, 3, 16]) {
      const seen: string[] = [];
      for (let index = 0; index < of; index++) {
        let cursor: string | undefined;
        do {
          const page = await relations.audience(author, 4, { ...(cursor ? { cursor } : {}), segment: { index, of } });
          for (const m of page.items) expect(segmentOf(m.handle, of)).toBe(index);
          seen.push(...page.items.map((m) => m.handle));
          cursor = page.nextCursor;
        } while (cursor);
      }
      expect(seen, `${of} segments`).toEqual(all.map((m) => m.handle));
    }
    // A message's last page takes up to a quarter page more where that ends the list.
    const n = all.length;
    expect(await relations.audience(author, n - n / 5)).toEqual({ items: all }); // n ≤ 1.25 × (n − n/5)
    const short = await relations.audience(author, n / 2);
    expect(short).toEqual({ items: all.slice(0, n / 2), nextCursor: all[n / 2 - 1]!.handle });
  });

  it('a walk stopped at its message bound mid-scan still packs the blocks it began, and the next message reads them in one request', async () => {
    ahead = 60_000;
    const author = 'pk_bound';
    // 2,500 followers side rows, written as a seed (no versions yet): more than one scan page, so
    // the first message (1,000) stops with the scan under way.
    const readers = Array.from({ length: 2_500 }, (_, i) => `pk_b${i}`);
    for (let at = 0; at < readers.length; at += 500) {
      await hb.put(
        qualifiedTableName(ns, 'relations'),
        readers
          .slice(at, at + 500)
          .map((r) => ({ key: relationKey(author, 'R', r), cells: [{ column: 'e:t', value: String(T0) }] })),
      );
    }
    const firstPage = await relations.audience(author, 1_000);
    expect(firstPage.items).toHaveLength(1_000);
    expect(firstPage.nextCursor).toBe(firstPage.items.at(-1)!.handle);
    const before = hb.requestCount;
    const rest = await relations.audience(author, 2_000, { cursor: firstPage.nextCursor! });
    expect(hb.requestCount - before).toBe(1);
    expect([...firstPage.items, ...rest.items]).toEqual(await scanned(author));
  });

  it('forced: a follow held between its pack version and its followers row: a read meanwhile builds no pack, and the next read has the follower', async () => {
    ahead = 60_000;
    const author = 'pk_quiet';
    await followAll(author, 10);
    await read(author); // packs built
    ahead = 0; // the real clock: the newcomer's version is seconds old, not quiet
    const held = hb.hold('put', 'relations', 'before', followersRow(author, 'pk_late'));
    const following = relations.follow('pk_late', author, T0);
    await held.reached; // its block's version has landed, its row has not
    const meanwhile = await read(author);
    expect(meanwhile.members.map((m) => m.handle)).not.toContain('pk_late');
    held.release();
    await following;
    const next = await read(author);
    expect(next.members.map((m) => m.handle)).toContain('pk_late');
    expect(next.members).toEqual(await scanned(author));
  });

  it('forced: a follow cut right after its followers row: the next read has the follower (its version landed first)', async () => {
    ahead = 60_000;
    const author = 'pk_cut';
    await followAll(author, 10);
    await read(author); // packs built
    const held = hb.hold('put', 'relations', 'after', followersRow(author, 'pk_dead'));
    const following = relations.follow('pk_dead', author, T0);
    await held.reached;
    held.stop();
    await expect(following).rejects.toThrow(/stopped/);
    const next = await read(author);
    expect(next.members.map((m) => m.handle)).toContain('pk_dead');
    expect(next.members).toEqual(await scanned(author));
  });
});
