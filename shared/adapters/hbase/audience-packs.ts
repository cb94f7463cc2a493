// shared/adapters/hbase/audience-packs.ts — the packed audience (tables.ts, relations 'P' rows;
// invariant N in docs/consistency.md): a user's followers side kept a second time as one
// cell per block of followers, so a fan-out reads thousands of followers in one small multi-get
// instead of a scan that costs the gateway and the region server a row per follower.
//
// A pack is a cache that can never be stale where it is used:
// - every writer of a followers-side row (follow, unfollow, settle, away marks, the repair job)
//   first puts a fresh version into that follower's block row (`invalidateAudience`), and only
//   once it has landed writes the row;
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
  keyAfter,
  relationKey,
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
 * A block of more followers is not packed (a pack stays below ~0.5 MB, and so does what a read
 * holds for it): far above the celebrity threshold, such a block is streamed by scan every time.
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

const after = (m: AudiencePosition, p: AudiencePosition): boolean =>
  m.salt > p.salt || (m.salt === p.salt && m.handle > p.handle);

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
export async function invalidateAudience(
  client: HBaseRestClient,
  relations: string,
  pairs: { followee: string; follower: string }[],
): Promise<void> {
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
   * `author`'s followers whose salt is in [lo, hi), strictly after `from`, in key order, in
   * batches: the blocks' packs where they hold, and where not a scan of the followers side (one
   * per run of neighbouring blocks), streamed as it is read, so the caller's writes overlap it.
   * The scanned blocks whose version is quiet are packed: a caller that stops early still has the
   * rest of such a block read (for its pack) when it ends the walk, and the packs written.
   */
  async *members(
    author: string,
    salts: { lo: number; hi: number },
    from?: AudiencePosition,
  ): AsyncGenerator<PackedMember[], void, undefined> {
    const lo = from ? Math.max(salts.lo, from.salt) : salts.lo;
    if (lo >= salts.hi) return;
    const keep = (m: PackedMember) => m.salt >= lo && m.salt < salts.hi && (!from || after(m, from));
    const state = await this.blocks(author, audienceBlockOf(lo), audienceBlockOf(salts.hi - 1));
    const puts: Promise<void>[] = [];
    let open: Run | undefined;
    try {
      for (let i = 0; i < state.length; ) {
        const s = state[i]!;
        if (s.packed) {
          const kept = s.packed.filter(keep);
          if (kept.length > 0) yield kept;
          i++;
          continue;
        }
        let j = i;
        while (j + 1 < state.length && !state[j + 1]!.packed) j++;
        open = this.scanRun(author, state.slice(i, j + 1), i === 0 ? from : undefined);
        let batch: PackedMember[] = [];
        for (let m = await open.next(); m; m = await open.next()) {
          if (!keep(m)) continue;
          batch.push(m);
          if (batch.length === BATCH) {
            yield batch;
            batch = [];
          }
        }
        puts.push(this.store(author, open.blocks));
        open = undefined;
        if (batch.length > 0) yield batch;
        i = j + 1;
      }
    } finally {
      // Stopped mid-run (the message's bound): the run is read on only if a pack will come of it.
      if (open) puts.push(open.finish().then(() => this.store(author, open!.blocks)));
      await Promise.all(puts);
    }
  }

  /** The block rows first..last (one multi-get), each with its version, and its pack's members where the pack holds. */
  private async blocks(author: string, first: number, last: number): Promise<BlockState[]> {
    const keys: Uint8Array[] = [];
    for (let b = first; b <= last; b++) keys.push(audiencePackKey(author, b));
    const rows = new Map(
      (await this.client.multiGet(this.table, keys, { columns: [VERSION, PACK] })).map((r) => [hex(r.key), r]),
    );
    // Before any scan: a version that landed more than the quiet window before this instant
    // belongs to a writer whose row landed before the scan starts.
    const startedAt = this.now();
    return keys.map((key, i) => {
      const row = rows.get(hex(key));
      const version = cellOf(row, VERSION);
      const tag = version ? bytesToString(version.value) : NO_VERSION;
      const pack = cellOf(row, PACK);
      const decoded = pack ? decodePack(bytesToString(pack.value)) : undefined;
      const packed = decoded?.tag === tag ? decoded.members() : undefined;
      return {
        block: first + i,
        tag,
        quiet: !version || version.timestamp + this.quietMs < startedAt,
        ...(packed ? { packed } : {}),
      };
    });
  }

  /**
   * One scan over the followers-side rows of a run of blocks (one cell per row: e:away if
   * present, else e:t), collecting each quiet block's members for its pack (up to
   * PACK_MAX_MEMBERS: a bigger block is not packed). With no quiet block it starts after `from`.
   */
  private scanRun(author: string, blocks: BlockState[], from?: AudiencePosition): Run {
    const prefix = relationPrefix(author, 'R');
    const collecting = blocks.some((b) => b.quiet);
    let { startRow } = audienceBlockRows(author, blocks[0]!.block);
    if (!collecting && from) startRow = keyAfter(relationKey(author, 'R', from.handle));
    const { stopRow } = audienceBlockRows(author, blocks.at(-1)!.block);
    const byBlock = new Map(blocks.map((b) => [b.block, b]));
    for (const b of blocks) if (b.quiet) b.collected = [];
    const rows = this.client
      .scan(this.table, {
        prefix,
        startRow,
        ...(stopRow ? { stopRow } : {}),
        columns: ['e'],
        filter: { type: 'FirstKeyOnlyFilter' },
        // Read only as far as the walk and the packs ask: pages come one by one.
        limit: Number.MAX_SAFE_INTEGER,
        pageSize: BATCH,
      })
      [Symbol.asyncIterator]();
    let done = false;
    const next = async (): Promise<PackedMember | undefined> => {
      if (done) return undefined;
      const r = await rows.next();
      if (r.done) {
        done = true;
        return undefined;
      }
      const salt = saltOfKey(r.value.key, prefix.length);
      const away = cellOf(r.value, AWAY);
      const member = {
        salt,
        handle: handleFromKey(r.value.key, prefix.length).handle,
        away: away !== undefined && away.value.byteLength > 0,
      };
      const block = byBlock.get(audienceBlockOf(salt))!;
      if (block.collected && block.collected.push(member) > PACK_MAX_MEMBERS) delete block.collected; // too big to pack
      return member;
    };
    return {
      blocks,
      next,
      finish: async () => {
        // Read on while a block still to come could be packed; else close the scanner.
        while (!done && blocks.some((b) => b.collected)) if (!(await next())) break;
        if (!done) await rows.return?.();
      },
    };
  }

  /** Writes the packs of the quiet blocks of a finished run (a cache: a failed put changes no answer). */
  private async store(author: string, blocks: BlockState[]): Promise<void> {
    const built = blocks.filter((b) => b.collected);
    if (built.length === 0) return;
    await this.client
      .put(
        this.table,
        built.map((b) => ({
          key: audiencePackKey(author, b.block),
          cells: [{ column: PACK, value: encodePack(b.tag, b.collected!) }],
        })),
      )
      .catch(() => {}); // the old pack (or none) stays, and does not match: the next read scans again
  }
}

/** Members are handed on in batches of this many (a scan page). */
const BATCH = 1_000;

interface BlockState {
  block: number;
  tag: string;
  /** Its version is old enough to build a pack under (or it has none). */
  quiet: boolean;
  /** The pack's members, where the pack holds (matches the version). */
  packed?: PackedMember[];
  /** Scanned under a quiet version: the members read so far, for its pack (dropped past PACK_MAX_MEMBERS). */
  collected?: PackedMember[];
}

interface Run {
  blocks: BlockState[];
  /** The next member of the run's scan, or undefined at its end. */
  next(): Promise<PackedMember | undefined>;
  /** Reads the run to its end if a quiet block still waits for its pack, then closes it. */
  finish(): Promise<void>;
}
