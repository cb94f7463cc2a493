// test/support/check-markers.ts — invariant D over a namespace's stored state, for a pressure
// run's kept namespace (E2E_KEEP_NAMESPACE=1; docs/testing.md, "Pressure"): every follower
// (followers-side row) of an author flagged a celebrity must carry that author's marker, and
// every followers-side row its following-side twin. Each breach is printed with the cell
// timestamps to set beside the logs (then test/support/inspect-edge.ts for the pair). Reads only;
// meant for a settled namespace (a run that ended), not one still being written.
//
//   npx tsx test/support/check-markers.ts <namespace>…   (HBASE_REST_URL or HBASE_REST_PORT)
import { HBaseRestClient, bytesToString } from '../../shared/hbase/index.js';
import { prefixEnd } from '../../shared/hbase/codec.js';
import { handleFromKey, relationKey, relationPrefix, userKey } from '../../shared/schema/row-keys.js';
import { qualifiedTableName } from '../../shared/schema/tables.js';

const ALL = { startRow: new Uint8Array(0), stopRow: new Uint8Array(64).fill(0xff) };

export async function checkMarkers(hbase: HBaseRestClient, ns: string, log: (line: string) => void): Promise<number> {
  if (!(await hbase.namespaceExists(ns))) {
    log(`${ns}: no such namespace`);
    return 0;
  }
  let celebrities = 0;
  let followers = 0;
  let breaches = 0;
  for await (const row of hbase.scan(qualifiedTableName(ns, 'users'), {
    ...ALL,
    limit: 1_000_000,
    columns: ['p:celeb'],
  })) {
    const flag = row.cells.find((c) => bytesToString(c.column) === 'p:celeb');
    if (!flag || bytesToString(flag.value) !== '1') continue;
    const author = handleFromKey(row.key).handle;
    celebrities++;
    const prefix = relationPrefix(author, 'R');
    for await (const r of hbase.scan(qualifiedTableName(ns, 'relations'), {
      startRow: prefix,
      stopRow: prefixEnd(prefix)!,
      limit: 1_000_000,
    })) {
      const reader = handleFromKey(r.key, prefix.length).handle;
      followers++;
      const [follows, inbox] = await Promise.all([
        hbase.getRow(qualifiedTableName(ns, 'relations'), relationKey(reader, 'F', author)),
        hbase.getRow(qualifiedTableName(ns, 'inbox'), userKey(reader), { columns: [`c:${author}`] }),
      ]);
      if (!follows) {
        breaches++;
        log(`${ns}: ${author} R ${reader} (@${r.cells[0]?.timestamp}) without ${reader} F ${author}`);
      } else if (!inbox || inbox.cells.length === 0) {
        breaches++;
        log(
          `${ns}: ${reader} follows celebrity ${author} (F @${follows.cells[0]?.timestamp}) without c:${author}; the flag @${flag.timestamp}`,
        );
      }
    }
  }
  log(
    `${ns}: ${celebrities} flagged celebrit${celebrities === 1 ? 'y' : 'ies'}, ${followers} follower(s), ${breaches} breach(es)`,
  );
  return breaches;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const namespaces = process.argv.slice(2);
  if (namespaces.length === 0) {
    console.error('usage: npx tsx test/support/check-markers.ts <namespace>…');
    process.exit(2);
  }
  const hbase = new HBaseRestClient({
    baseUrl: process.env.HBASE_REST_URL ?? `http://127.0.0.1:${process.env.HBASE_REST_PORT ?? '18080'}`,
    timeoutMs: 60_000,
  });
  let breaches = 0;
  try {
    for (const ns of namespaces) breaches += await checkMarkers(hbase, ns, (line) => console.log(line));
  } finally {
    await hbase.close();
  }
  process.exitCode = breaches > 0 ? 1 : 0;
}
