// shared/adapters/hbase/audience-packs.ts — the packed audience (tables.ts, relations 'P' rows;
// invariant N in shared/schema/consistency.md): a user's followers side kept a second time as one
// cell per block of followers, so a fan-out reads thousands of followers in one small multi-get
// instead of a scan that costs the gateway and the region server a row per follower.
//
// A pack is a cache that can never be stale where it is used:
// - every writer of a followers-side row (follow, unfollow, settle, away marks, the repair job)
//   first puts a fresh version into that follower's block row (`invalidate`), and only once it
//   has landed writes the row;
// - a pack carries the version it was built under, and is used only while the block row still
//   holds that version (both cells come from one row, read atomically);
// - a pack is built from a scan only when the block's version landed more than the quiet window
//   ago (at least the settle window W, which bounds how long a writer takes from its version to
//   its row): so every writer whose version the pack carries has written its row before the scan.
// Hence a pack in use holds every followers-side write that landed before the read: it reads as
// a scan at that moment would.
import { randomBytes } from 'node:crypto';
import { bytesToString, type HBaseRestClient, type RowInput } from '../../hbase/index.js';
import {
  audienceBlockOf,
  audienceBlockRows,
  audiencePackKey,
  handleFromKey,
  relationPrefix,
  saltOfKey,
  userKey,
} from '../../schema/row-keys.js';
import { cellOf } from './cells.js';

const VERSION = 'e:v';
const PACK = 'e:p';
/** On a followers-side row: the reader is away (non-empty), as the fan-out's scan reads it. */
const AWAY = 'e:away';
/** The tag of a pack built while its block had no version yet (no writer since the layout). */
const NO_VERSION = '-';
/**
 * At most this many followers per block are read into memory, and packed (a cell below ~0.5 MB);
 * an audience past it (far above the celebrity threshold) is walked by scan instead.
 */
const PACK_MAX_MEMBERS = 20_000;
/** Clocks of the region server and of the function may differ by this much. */
export const CLOCK_SKEW_MS = 2_000;

/** One follower as the fan-out needs it, with its salt: the position in the followers' key order. */
export interface PackedMember {
  salt: number;
  handle: string;
  away: boolean;
}

/** A position in the followers' key order: (salt, handle) sorts as the 'R' rows do. */
export interface AudiencePosition {
  salt: number;
  handle: string;
}

const after = (m: AudiencePosition, p: AudiencePosition): boolean => m.salt > p.salt || (m.salt === p.salt && m.handle > p.handle);

const hex = (b: Uint8Array) => Buffer.from(b).toString('hex');

/** A pack's value: its version's tag on the first line, then one follower per line: salt (4 hex), '~' away or '.', handle. */
function encodePack(tag: string, members: PackedMember[]): string {
  let out = tag;
  for (const m of members) out += `\n${m.salt.toString(16).padStart(4, '0')}${m.away ? '~' : '.'}${m.handle}`;
  return out;
}

function decodePack(value: string): { tag: string; members: () => PackedMember[] } {
  const nl = value.indexOf('\n');
  const tag = nl < 0 ? value : value.slice(0, nl);
  return {
    tag,
    members: () =>
      nl < 0
        ? []
        : value
            .slice(nl + 1)
            .split('\n')
            .map((line) => ({ salt: parseInt(line.slice(0, 4), 16), away: line[4] === '~', handle: line.slice(5) })),
  };
}

/**
 * Gives the block of each (followee, follower) a new version. Call it, and let it land, BEFORE
 * writing those followers-side rows: a pack built from a scan that missed the row then no longer
 * matches its block. One multi-row put.
 */
export async function invalidateAudience(client: HBaseRestClient, relations: string, pairs: { followee: string; follower: string }[]): Promise<void> {
  const rows = new Map<string, RowInput>();
  for (const { followee, follower } of pairs) {
    const key = audiencePackKey(followee, audienceBlockOf(saltOfKey(userKey(follower))));
    rows.set(hex(key), { key, cells: [{ column: VERSION, value: randomBytes(8).toString('hex') }] });
  }
  if (rows.size > 0) await client.put(relations, [...rows.values()]);
}

/** Reads a user's followers through their packs (and builds them). */
export class AudiencePacks {
  constructor(
    private readonly client: HBaseRestClient,
    private readonly table: string,
    /** A block's version must be this old before a pack is built under it: ≥ W plus CLOCK_SKEW_MS. */
    private readonly quietMs: number,
    private readonly now: () => number = Date.now,
  ) {}

  /**
   * `author`'s followers whose salt is in [lo, hi), strictly after `from`, in key order: the
   * blocks' packs where they hold, a scan of the followers side where not (one scan per run of
   * such blocks, side by side). Packs are built for the blocks scanned whose version is quiet;
   * `written` settles when that put has (a pack is a cache: its failure changes no answer).
   * Null when the blocks to scan hold more than PACK_MAX_MEMBERS each: walk them by scan.
   */
  async read(author: string, salts: { lo: number; hi: number }, from?: AudiencePosition): Promise<{ members: PackedMember[]; written: Promise<void> } | null> {
    const lo = from ? Math.max(salts.lo, from.salt) : salts.lo;
    if (lo >= salts.hi) return { members: [], written: Promise.resolve() };
    const blocks: number[] = [];
    for (let b = audienceBlockOf(lo); b <= audienceBlockOf(salts.hi - 1); b++) blocks.push(b);
    const rows = new Map((await this.client.multiGet(this.table, blocks.map((b) => audiencePackKey(author, b)), { columns: [VERSION, PACK] })).map((r) => [hex(r.key), r]));
    // Before the scans: a version that landed more than the quiet window before this instant
    // belongs to a writer whose row landed before the scan starts.
    const startedAt = this.now();
    const state = blocks.map((block) => {
      const row = rows.get(hex(audiencePackKey(author, block)));
      const version = cellOf(row, VERSION);
      const tag = version ? bytesToString(version.value) : NO_VERSION;
      const pack = cellOf(row, PACK);
      const decoded = pack ? decodePack(bytesToString(pack.value)) : undefined;
      return {
        block,
        tag,
        quiet: !version || version.timestamp + this.quietMs < startedAt,
        members: decoded?.tag === tag ? decoded.members() : undefined,
      };
    });

    // The blocks without a valid pack, in runs of neighbours: one scan each.
    const runs: (typeof state)[] = [];
    for (const s of state) {
      if (s.members) continue;
      const run = runs.at(-1);
      if (run && run.at(-1)!.block === s.block - 1) run.push(s);
      else runs.push([s]);
    }
    const scans = await Promise.all(runs.map((run) => this.scanBlocks(author, run[0]!.block, run.at(-1)!.block)));
    if (scans.includes(null)) return null;
    runs.forEach((run, i) => {
      for (const s of run) s.members = scans[i]!.get(s.block) ?? [];
    });
    const built = runs.flat().filter((s) => s.quiet);
    const written =
      built.length === 0
        ? Promise.resolve()
        : this.client
            .put(this.table, built.map((s) => ({ key: audiencePackKey(author, s.block), cells: [{ column: PACK, value: encodePack(s.tag, s.members!) }] })))
            .catch(() => {}); // the old pack (or none) stays, and does not match: the next read scans again

    const members: PackedMember[] = [];
    for (const s of state) {
      for (const m of s.members!) if (m.salt >= lo && m.salt < salts.hi && (!from || after(m, from))) members.push(m);
    }
    return { members, written };
  }

  /** The followers-side rows of blocks first..last, grouped by block, in key order (one cell per row: e:away if present, else e:t); null past the bound. */
  private async scanBlocks(author: string, first: number, last: number): Promise<Map<number, PackedMember[]> | null> {
    const limit = PACK_MAX_MEMBERS * (last - first + 1);
    let read = 0;
    const prefix = relationPrefix(author, 'R');
    const { startRow } = audienceBlockRows(author, first);
    const { stopRow } = audienceBlockRows(author, last);
    const out = new Map<number, PackedMember[]>();
    const rows = this.client.scan(this.table, {
      prefix,
      startRow,
      ...(stopRow ? { stopRow } : {}),
      // One cell per row, not two: a row's first cell is e:away when it has one ('away' < 't').
      columns: ['e'],
      filter: { type: 'FirstKeyOnlyFilter' },
      limit: limit + 1,
      pageSize: 1_000,
    });
    for await (const row of rows) {
      if (++read > limit) return null;
      const salt = saltOfKey(row.key, prefix.length);
      const away = cellOf(row, AWAY);
      const member = { salt, handle: handleFromKey(row.key, prefix.length).handle, away: away !== undefined && away.value.byteLength > 0 };
      const block = audienceBlockOf(salt);
      const list = out.get(block);
      if (list) list.push(member);
      else out.set(block, [member]);
    }
    return out;
  }
}
