// test/support/inspect-edge.ts — the stored state behind one reader's view of one author, for
// reading a model check's lost posts (docs/testing.md, "Pressure"): both sides of the edge, the
// reader's celebrity marker and the author's entries in the reader's inbox, the author's
// celebrity flag, counters and audience pack versions — each cell with its timestamp, so the
// order of the writes that landed can be set beside the API's log. Reads only.
//
//   npx tsx test/support/inspect-edge.ts <namespace> <reader> <author>   (HBASE_REST_URL or HBASE_REST_PORT)
import { HBaseRestClient, bytesToString, decodeLong, type HBaseRow } from '../../shared/hbase/index.js';
import {
  audiencePackKey,
  postKeyFromInboxQualifier,
  relationKey,
  userKey,
  parsePostKey,
  postIdFromKey,
} from '../../shared/schema/row-keys.js';
import { qualifiedTableName, type TableName } from '../../shared/schema/tables.js';

const iso = (ms: number) => new Date(ms).toISOString();

function cells(row: HBaseRow | null, keep: (column: string) => boolean = () => true, table?: TableName): string[] {
  if (!row) return ['(no row)'];
  const out = row.cells
    .filter((c) => keep(bytesToString(c.column)))
    .map((c) => {
      // Counters are 8-byte longs; everything else here is text.
      const value =
        c.family === 'c' && c.value.length === 8 && table !== 'inbox'
          ? String(decodeLong(c.value))
          : bytesToString(c.value);
      return `${bytesToString(c.column)} @${c.timestamp} (${iso(c.timestamp)}) = ${JSON.stringify(value.length > 80 ? `${value.slice(0, 80)}…` : value)}`;
    });
  return out.length ? out : ['(no such cells)'];
}

/** The pack's lines after its tag: salt (4 hex) + '~' (away) or '.' + handle. */
const packText = (pack: HBaseRow | null) => {
  const cell = pack?.cells.find((c) => bytesToString(c.column) === 'e:p');
  return cell ? bytesToString(cell.value).split('\n') : undefined;
};
const packTag = (pack: HBaseRow | null) => packText(pack)?.[0] ?? 'no pack';
const packLists = (pack: HBaseRow | null, reader: string) => {
  const lines = packText(pack);
  return lines ? lines.slice(1).some((l) => l.slice(5) === reader) : 'no pack';
};

export async function inspectEdge(hbase: HBaseRestClient, ns: string, reader: string, author: string): Promise<string> {
  const t = (name: TableName) => qualifiedTableName(ns, name);
  const get = (table: TableName, key: Uint8Array, versions = 5) => hbase.getRow(t(table), key, { versions });
  const [follows, followedBy, inbox, outbox, authorUser, readerUser, reverseF] = await Promise.all([
    get('relations', relationKey(reader, 'F', author)),
    get('relations', relationKey(author, 'R', reader)),
    get('inbox', userKey(reader)),
    get('outbox', userKey(author)),
    get('users', userKey(author)),
    get('users', userKey(reader)),
    get('relations', relationKey(author, 'F', reader)),
  ]);
  const salt = userKey(reader);
  const block = ((salt[0]! << 8) | salt[1]!) >> 12;
  const pack = await get('relations', audiencePackKey(author, block));
  const authorEntries = (inbox?.cells ?? [])
    .filter((c) => c.family === 'i')
    .flatMap((c) => {
      const { author: a, millis } = parsePostKey(postKeyFromInboxQualifier(c.qualifier));
      return a === author
        ? [
            `${postIdFromKey(postKeyFromInboxQualifier(c.qualifier))} (post ${iso(millis)}) written @${c.timestamp} (${iso(c.timestamp)})`,
          ]
        : [];
    });
  const outboxPosts = (outbox?.cells ?? []).filter((c) => c.family === 'o').length;
  const lines = [
    `== ${reader} → ${author} in ${ns}`,
    `relations ${reader} F ${author} (the truth):`,
    ...cells(follows).map((l) => `  ${l}`),
    `relations ${author} R ${reader} (followers side):`,
    ...cells(followedBy).map((l) => `  ${l}`),
    `relations ${author} F ${reader} (the other way):`,
    ...cells(reverseF).map((l) => `  ${l}`),
    `audience pack block ${block} of ${author}:`,
    ...cells(pack, (c) => c === 'e:v').map((l) => `  ${l}`),
    `  e:p (built under ${packTag(pack)}) lists ${reader}: ${packLists(pack, reader)}`,
    `inbox ${reader}: celebrity markers (c:) and meta (m:):`,
    ...cells(inbox, (c) => c.startsWith('c:') || c.startsWith('m:')).map((l) => `  ${l}`),
    `inbox ${reader}: ${authorEntries.length} entr${authorEntries.length === 1 ? 'y' : 'ies'} of ${author}'s posts (of ${(inbox?.cells ?? []).filter((c) => c.family === 'i').length}):`,
    ...authorEntries.map((l) => `  ${l}`),
    `outbox ${author}: ${outboxPosts} post(s)`,
    `users ${author}: the celebrity flag and counters`,
    ...cells(authorUser, (c) => c === 'p:celeb' || c.startsWith('c:'), 'users').map((l) => `  ${l}`),
    `users ${reader}: counters`,
    ...cells(readerUser, (c) => c.startsWith('c:'), 'users').map((l) => `  ${l}`),
  ];
  return lines.join('\n');
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const [ns, reader, author] = process.argv.slice(2);
  if (!ns || !reader || !author) {
    console.error('usage: npx tsx test/support/inspect-edge.ts <namespace> <reader> <author>');
    process.exit(2);
  }
  const baseUrl = process.env.HBASE_REST_URL ?? `http://127.0.0.1:${process.env.HBASE_REST_PORT ?? '18080'}`;
  const hbase = new HBaseRestClient({ baseUrl, timeoutMs: 30_000 });
  try {
    console.log(await inspectEdge(hbase, ns, reader, author));
  } finally {
    await hbase.close();
  }
}
