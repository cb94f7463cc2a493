// test/bench/drop-namespace.ts — drops a bench's throwaway namespace: its tables, then the
// namespace, asked again until the master no longer lists it (the gateway refuses to drop a
// namespace while a table in it is still listed). Says so, never throws: a bench's figures stand.
import type { HBaseRestClient } from '../../shared/hbase/index.js';

export async function dropBenchNamespace(
  hb: HBaseRestClient,
  restUrl: string,
  headers: Record<string, string>,
  ns: string,
  log: (line: string) => void,
): Promise<void> {
  try {
    const res = await fetch(`${restUrl}/namespaces/${ns}/tables`, {
      headers: { ...headers, Accept: 'application/json' },
      signal: AbortSignal.timeout(10_000),
    });
    const names =
      res.status === 200
        ? (((await res.json()) as { table?: { name: string }[] }).table?.map((t) => t.name) ?? [])
        : [];
    for (const name of names) await hb.deleteTable(`${ns}:${name}`).catch(() => {});
    let lastError: unknown;
    for (let attempt = 0; attempt < 10; attempt++) {
      try {
        await hb.deleteNamespace(ns);
        if (!(await hb.namespaceExists(ns))) return;
      } catch (err) {
        lastError = err;
      }
      await new Promise((r) => setTimeout(r, 500));
    }
    log(`could not drop namespace ${ns} (${String(lastError)}); drop it by hand`);
  } catch (err) {
    log(`cleanup of namespace ${ns} failed: ${String(err)}`);
  }
}
