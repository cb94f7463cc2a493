// infra/docs/data-model-document.ts — renders docs/data-model.md from the schema as code
// (shared/schema/tables.ts): every table's families, attributes, split scheme, and its `design`
// text (row-key layout and the REST requests of each access path). The design is kept next to
// the code; this page is how people read it. test/unit/data-model-doc.test.ts holds the
// committed page to what this renders.
import type { ColumnFamilySchema } from '../../shared/hbase/index.js';
import { SPLITS, TABLES, type TableName } from '../../shared/schema/tables.js';
import {
  NOTIFICATION_TTL_SECONDS,
  SESSION_TTL_SECONDS,
  TALLY_TTL_SECONDS,
  TOPIC_TTL_SECONDS,
} from '../../shared/domain/limits.js';

const HEADER = `<!-- docs/data-model.md — written by npm run docs:data-model (infra/docs/write-data-model.ts) from shared/schema/tables.ts; do not edit. -->
# Data model

The HBase schema is code: \`shared/schema/tables.ts\` declares every table, its column families
and their attributes, and beside each table its row-key layout and the exact HBase REST
requests each access pattern makes. Row keys are built only in \`shared/schema/row-keys.ts\`.
\`npm run schema\` creates what is missing (never drops anything) and reports drift. This page is
rendered from those declarations: edit \`tables.ts\`, then run \`npm run docs:data-model\`.

## Design rules

- **Every access path is ONE get, ONE multi-get, or ONE scan bounded by a row-key prefix and a
  limit.** No full-table scans and no filter scans over other users' rows in the request path;
  the scheduled jobs' walks are the only whole-table reads, and they are bounded per step.
- **A user's key component** is \`salt2(md5(handle)) + handle + 0x00\`. The salt spreads users
  (and hot users) over regions; the 0x00 terminator, never part of a handle, means user \`1\`'s
  key range can never contain user \`10\`'s.
- **Newest first** comes from reversed time: 8 bytes big-endian of (2⁶³ − 1 − millis).
- **Post keys** are \`userKey(author) + revTs8 + 6 random bytes\`, and a post row is created with
  put-if-absent, so two posts by one author in the same millisecond never collide. A deleted post
  keeps a tombstone row, so put-if-absent can never create that id again.
- **Families are one letter** (HBase stores the family name in every cell), with
  \`DATA_BLOCK_ENCODING FAST_DIFF\` (keys inside a block share long prefixes) and a row Bloom
  filter.
- **\`NEW_VERSION_BEHAVIOR\`** on the families where a cell is deleted and later written again
  (edges: unfollow → refollow; inbox markers: unfollow → refollow, demote → promote). Without it
  a Delete masks every Put with an equal or older timestamp (HBASE-3300), so a refollow in the
  same server millisecond as the unfollow "succeeds" and stays invisible
  (\`test/integration/hbase-delete-put-race.test.ts\` forces it). Entries and posts keep the
  cheaper default. An existing namespace gets the attribute with
  \`npm run schema -- --fix-drift\`. Why: [adr/0002-new-version-behavior.md](adr/0002-new-version-behavior.md).
- **Text keys where a list must be read newest first in one request.** The gateway's stateless
  scan (\`GET /<table>/<prefix>*\`, one request, no scanner) is the only REST scan that runs in
  reverse, and it takes text rows: comments, notification lists and the newest-first lists use
  ASCII keys starting with \`hex4(md5(…))\`.
- **Counts live on the row they count** (\`c:\` families, REST increments), read in the request
  that reads the row anyway; each change carries a tally mark in the same increment
  (invariant M).
- The invariants every multi-row operation keeps, and why each interleaving keeps them:
  [consistency.md](consistency.md).

## The HBase REST client

\`shared/hbase/\` always addresses rows and columns as \`?e=b64\` base64url, so no key byte is
ever read by the gateway as \`/ , + * %\` or a glob, and non-UTF-8 keys work. Scanner pages and
batch puts go as protobuf (\`application/x-protobuf\`). Behaviours of the real gateway it
handles: a failed check-and-put answers \`304\` with a \`Content-Length\` but no body (read as
empty); a row GET answers the same bare 404 for a missing row and a missing table (so a row get
is sent as a one-row multi-get, whose 404 means only "no row"); \`PUT /<table>/schema\` on an
existing table replaces it and drops unlisted families (so tables are created with POST after
an existence check). Why an own client: [adr/0005-own-hbase-rest-client.md](adr/0005-own-hbase-rest-client.md).

## Reading a table's design

Each table below gives its families, then its layout: \`row =\` the row key, then each family and
qualifier, then each access path as \`name : the REST requests it makes\`. \`∥\` means sent side by
side; "round trip" is one request, or several sent at once, waited for together.`;

const SPLITS_TEXT = `## Splits

Every table is pre-split on its row keys' leading bytes when \`npm run schema\` creates it with
more than one region (\`REGIONS_PER_TABLE\`, or \`--regions N\`; the stage param
\`regionsPerTable\`: 1 by default and for \`local\`, 16 for \`prod\`). The schemes:

| scheme | keys start with | split points |
|---|---|---|
| \`salt\` | \`userKey\`'s 2-byte MD5 salt (or a post key, which starts with one) | 2-byte points \`\\x10\\x00\`, \`\\x20\\x00\`, … |
| \`hex\` | \`hex4(md5(…))\` text (comments, lists) | \`"1000"\`, \`"2000"\`, … |
| \`random\` | 16 random bytes (session ids, picture ids) | 1-byte points |
| \`shard\` | a trend shard byte | one region per shard at most |
| \`salt+hex\` | both: binary group rows and text list entries (notifications) | the union, each scheme for about half the regions |
| \`term\` | a name's first character (the people index, unsalted for prefix search) | by first character |

The REST gateway cannot create a table with split keys: on a real cluster
\`npm run schema -- --shell --regions 16\` prints the \`hbase shell\` script to run first
([deploy.md](deploy.md#1-the-hbase-side)); on the local stack the command pre-splits itself
([local-stack.md](local-stack.md#pre-split-tables-locally)). How the salt spreads load over
RegionServers is measured by \`npm run bench:regions\` ([benchmarks.md](benchmarks.md)).`;

/** A TTL in the largest whole unit: "90 days", "1 hour", "5 minutes". */
function duration(seconds: number): string {
  const units: [number, string][] = [
    [86_400, 'day'],
    [3_600, 'hour'],
    [60, 'minute'],
    [1, 'second'],
  ];
  const [size, unit] = units.find(([size]) => seconds % size === 0) ?? [1, 'second'];
  const n = seconds / size;
  return `${n} ${unit}${n === 1 ? '' : 's'}`;
}

function familyText(f: ColumnFamilySchema): string {
  const attrs: string[] = [];
  const a = f as ColumnFamilySchema & Record<string, unknown>;
  if (a.VERSIONS !== undefined && a.VERSIONS !== 1) attrs.push(`${String(a.VERSIONS)} versions`);
  if (a.TTL !== undefined) attrs.push(`TTL ${duration(Number(a.TTL))}`);
  if (a.NEW_VERSION_BEHAVIOR === 'true') attrs.push('NEW_VERSION_BEHAVIOR');
  return attrs.length ? `\`${f.name}\` (${attrs.join(', ')})` : `\`${f.name}\``;
}

/** The whole page, exactly as docs/data-model.md must hold it. */
export function renderDataModel(): string {
  const names = Object.keys(TABLES) as TableName[];
  const index = [
    '## Tables',
    '',
    '| table | families | split |',
    '|---|---|---|',
    ...names.map((n) => `| [\`${n}\`](#${n}) | ${TABLES[n].families.map(familyText).join(', ')} | \`${SPLITS[n]}\` |`),
    '',
    `Lifetimes: notifications listed ${duration(NOTIFICATION_TTL_SECONDS)}, sessions ${duration(SESSION_TTL_SECONDS)}, ` +
      `topic index ${duration(TOPIC_TTL_SECONDS)}, tally marks ${duration(TALLY_TTL_SECONDS)}.`,
  ].join('\n');
  const sections = names.map((n) => {
    const t = TABLES[n];
    return [
      `### ${n}`,
      '',
      `Families ${t.families.map(familyText).join(', ')}; split \`${SPLITS[n]}\`.`,
      '',
      '```text',
      t.design.trim(),
      '```',
    ].join('\n');
  });
  return `${[HEADER, index, ...sections, SPLITS_TEXT].join('\n\n')}\n`;
}
