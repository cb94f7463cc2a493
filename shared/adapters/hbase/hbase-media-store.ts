// shared/adapters/hbase/hbase-media-store.ts — MediaStore on HBase (secondary adapter): one row
// per media id, every state move a check-and-put on m:s, every claim a check-and-put on m:a.
// Layout, requests and interleavings: shared/schema/tables.ts (media).
import type { HBaseRestClient, HBaseRow } from '../../hbase/index.js';
import type { MediaPurpose } from '../../domain/media-id.js';
import type {
  MediaClaim,
  MediaDescriptor,
  MediaRecord,
  MediaState,
  MediaStore,
  MediaWalkPage,
  NewMedia,
} from '../../ports/media-store.js';
import { mediaKey } from '../../schema/row-keys.js';
import { qualifiedTableName } from '../../schema/tables.js';
import { cellText as text } from './cells.js';
import { decodeCursor, encodeCursor } from './cursor.js';

const OWNER = 'm:o';
const PURPOSE = 'm:p';
const CREATED = 'm:c';
const TYPE = 'm:t';
const BYTES = 'm:n';
const STATE = 'm:s';
const REASON = 'm:r';
const DESCRIPTOR = 'm:d';
const ATTACHED = 'm:a';
const CLAIMED_AT = 'm:w';
/**
 * m:a of a picture no post holds. Written by create, so every claim checks a value that exists:
 * a check on an ABSENT cell passes on a missing row too, and would write a stub record back
 * after a discard removed it.
 */
const FREE = '-';
/** m:a of a record being discarded: neither free nor a post id, so no claim can take it. */
const DISCARDING = '!discard';
/** Above every media key (16 bytes): the walk's exclusive stop row. */
const MEDIA_TABLE_END = new Uint8Array(17).fill(0xff);

export class HBaseMediaStore implements MediaStore {
  private readonly table: string;
  constructor(
    private readonly client: HBaseRestClient,
    namespace: string,
  ) {
    this.table = qualifiedTableName(namespace, 'media');
  }

  async create(m: NewMedia): Promise<boolean> {
    // Put-if-absent on m:o, written only here: of two requests making one claimed id, one wins,
    // and a late one never moves a record back to uploading.
    return this.client.checkAndPut(
      this.table,
      mediaKey(m.id),
      [
        { column: OWNER, value: m.owner },
        { column: PURPOSE, value: m.purpose },
        { column: CREATED, value: String(m.createdAt) },
        { column: TYPE, value: m.declaredType },
        { column: BYTES, value: String(m.declaredBytes) },
        { column: STATE, value: 'uploading' },
        { column: ATTACHED, value: FREE },
      ],
      { column: OWNER, value: null },
    );
  }

  async get(id: string): Promise<MediaRecord | null> {
    return recordOf(id, await this.client.getRow(this.table, mediaKey(id), { columns: ['m'] }));
  }

  async getMany(ids: string[]): Promise<Map<string, MediaRecord>> {
    const byKey = new Map(ids.map((id) => [Buffer.from(mediaKey(id)).toString('hex'), id]));
    const rows = byKey.size === 0 ? [] : await this.client.multiGet(this.table, ids.map(mediaKey), { columns: ['m'] });
    const out = new Map<string, MediaRecord>();
    for (const row of rows) {
      const id = byKey.get(Buffer.from(row.key).toString('hex'));
      const record = id === undefined ? null : recordOf(id, row);
      if (record) out.set(record.id, record);
    }
    return out;
  }

  async attach(id: string, postId: string, at: number): Promise<boolean> {
    const claim = [
      { column: ATTACHED, value: postId },
      { column: CLAIMED_AT, value: String(at) },
    ];
    if (await this.client.checkAndPut(this.table, mediaKey(id), claim, { column: ATTACHED, value: FREE })) return true;
    // Ours already (a retry): claimed again, at `at` — a discard that read the older claim loses.
    return this.client.checkAndPut(this.table, mediaKey(id), claim, { column: ATTACHED, value: postId });
  }

  async detach(id: string, postId: string): Promise<void> {
    await this.client.checkAndPut(this.table, mediaKey(id), [{ column: ATTACHED, value: FREE }], {
      column: ATTACHED,
      value: postId,
    });
  }

  markDiscarding(id: string, claim: MediaClaim, at: number): Promise<boolean> {
    const mark = [
      { column: ATTACHED, value: DISCARDING },
      { column: CLAIMED_AT, value: String(at) },
    ];
    // Unclaimed: m:a still free. Claimed: the claim time as read (every claim, a retry's too,
    // rewrites it), so a claim made since the read wins over this mark.
    const check =
      claim === null
        ? { column: ATTACHED, value: FREE }
        : { column: CLAIMED_AT, value: claim.at === undefined ? null : String(claim.at) };
    return this.client.checkAndPut(this.table, mediaKey(id), mark, check);
  }

  async remove(id: string): Promise<void> {
    await this.client.deleteRow(this.table, mediaKey(id));
  }

  async walk(opts: { start?: string; limit: number }): Promise<MediaWalkPage> {
    const records: MediaRecord[] = [];
    let last: Uint8Array | undefined;
    let read = 0;
    const rows = this.client.scan(this.table, {
      startRow: opts.start === undefined ? new Uint8Array(0) : decodeCursor(opts.start),
      stopRow: MEDIA_TABLE_END,
      limit: opts.limit,
      columns: ['m'],
      pageSize: Math.min(100, opts.limit),
    });
    for await (const row of rows) {
      read++;
      last = row.key;
      const record = recordOf(Buffer.from(row.key).toString('base64url'), row);
      if (record) records.push(record);
    }
    return { records, ...(last && read === opts.limit ? { next: encodeCursor(Uint8Array.from([...last, 0])) } : {}) };
  }

  move(id: string, from: MediaState, to: 'processing'): Promise<boolean> {
    return this.client.checkAndPut(this.table, mediaKey(id), [{ column: STATE, value: to }], {
      column: STATE,
      value: from,
    });
  }

  finish(id: string, descriptor: MediaDescriptor): Promise<boolean> {
    return this.client.checkAndPut(
      this.table,
      mediaKey(id),
      [
        { column: STATE, value: 'ready' },
        { column: DESCRIPTOR, value: JSON.stringify(descriptor) },
      ],
      { column: STATE, value: 'processing' },
    );
  }

  fail(id: string, from: 'uploading' | 'processing', reason: string): Promise<boolean> {
    return this.client.checkAndPut(
      this.table,
      mediaKey(id),
      [
        { column: STATE, value: 'failed' },
        { column: REASON, value: reason },
      ],
      { column: STATE, value: from },
    );
  }
}

/** A media row as a record; null when there is none. */
function recordOf(id: string, row: HBaseRow | null): MediaRecord | null {
  const owner = text(row, OWNER);
  if (owner === undefined) return null;
  const reason = text(row, REASON);
  const descriptor = text(row, DESCRIPTOR);
  const holder = text(row, ATTACHED);
  const claimedAt = text(row, CLAIMED_AT);
  const attachedTo = holder === FREE || holder === DISCARDING ? undefined : holder;
  return {
    id,
    owner,
    purpose: text(row, PURPOSE) as MediaPurpose,
    createdAt: Number(text(row, CREATED)),
    declaredType: text(row, TYPE) ?? '',
    declaredBytes: Number(text(row, BYTES)),
    state: text(row, STATE) as MediaState,
    ...(reason !== undefined ? { reason } : {}),
    ...(descriptor !== undefined ? { descriptor: JSON.parse(descriptor) as MediaDescriptor } : {}),
    ...(attachedTo !== undefined
      ? { attachedTo, ...(claimedAt !== undefined ? { attachedAt: Number(claimedAt) } : {}) }
      : {}),
    ...(holder === DISCARDING ? { discarding: true as const } : {}),
  };
}
