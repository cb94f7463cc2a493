// shared/adapters/hbase/hbase-media-store.ts — MediaStore on HBase (secondary adapter): one row
// per media id, every state move a check-and-put on m:s. Layout, requests and interleavings:
// shared/schema/tables.ts (media).
import type { HBaseRestClient, HBaseRow } from '../../hbase/index.js';
import type { MediaPurpose } from '../../domain/media-id.js';
import type { MediaDescriptor, MediaRecord, MediaState, MediaStore, NewMedia } from '../../ports/media-store.js';
import { mediaKey } from '../../schema/row-keys.js';
import { qualifiedTableName } from '../../schema/tables.js';
import { cellText as text } from './cells.js';

const OWNER = 'm:o';
const PURPOSE = 'm:p';
const CREATED = 'm:c';
const TYPE = 'm:t';
const BYTES = 'm:n';
const STATE = 'm:s';
const REASON = 'm:r';
const DESCRIPTOR = 'm:d';
const ATTACHED = 'm:a';

export class HBaseMediaStore implements MediaStore {
  private readonly table: string;
  constructor(private readonly client: HBaseRestClient, namespace: string) {
    this.table = qualifiedTableName(namespace, 'media');
  }

  async create(m: NewMedia): Promise<void> {
    await this.client.put(this.table, [
      {
        key: mediaKey(m.id),
        cells: [
          { column: OWNER, value: m.owner },
          { column: PURPOSE, value: m.purpose },
          { column: CREATED, value: String(m.createdAt) },
          { column: TYPE, value: m.declaredType },
          { column: BYTES, value: String(m.declaredBytes) },
          { column: STATE, value: 'uploading' },
        ],
      },
    ]);
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

  async attach(id: string, postId: string): Promise<boolean> {
    if (await this.client.checkAndPut(this.table, mediaKey(id), [{ column: ATTACHED, value: postId }], { column: ATTACHED, value: null })) return true;
    return (await this.get(id))?.attachedTo === postId;
  }

  async detach(id: string, postId: string): Promise<void> {
    await this.client.checkAndDelete(this.table, mediaKey(id), { column: ATTACHED, value: postId }, { deleteColumns: [ATTACHED] });
  }

  move(id: string, from: MediaState, to: 'processing'): Promise<boolean> {
    return this.client.checkAndPut(this.table, mediaKey(id), [{ column: STATE, value: to }], { column: STATE, value: from });
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
  const attachedTo = text(row, ATTACHED);
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
    ...(attachedTo !== undefined ? { attachedTo } : {}),
  };
}
