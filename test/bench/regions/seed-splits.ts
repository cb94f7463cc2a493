// test/bench/regions/seed-splits.ts — how an operator would split the seeds' UNSALTED tables
// (seed 000: inbox row = uid, content row = uid_timestamp; uids are decimal strings) into the
// same number of regions as ours. Two honest choices, both measured:
//
//  space — at creation, before any data exists (the only time a table is pre-split), the operator
//          can only split the uid's declared space evenly. That is HBase's own tool for decimal
//          keys, RegionSplitter's DecimalStringSplit (`hbase org.apache.hadoop.hbase.util.RegionSplitter
//          <table> DecimalStringSplit -c <n> -f cf`): "00000000" … "99999999" cut into n equal
//          ranges, compared as bytes. Sequential uids fill the low end of that space first.
//  data  — the best case, after the fact: split at the quantiles of the uids that exist now (an
//          operator who sampled the loaded table). Even today; every uid registered later sorts
//          after the last point, so all new users' rows land in the last region.

const utf8 = new TextEncoder();

/** RegionSplitter.DecimalStringSplit.split(n) of HBase 2.6.1: i × ⌊10^8 / n⌋, 8 digits (compared with the class for n = 2…100). */
export function decimalStringSplit(regions: number): Uint8Array[] {
  const size = Math.floor(100_000_000 / regions);
  return Array.from({ length: regions - 1 }, (_, i) => utf8.encode(String((i + 1) * size).padStart(8, '0')));
}

/** The uids at the i/n quantiles of the sorted uids (i = 1 … n−1). */
export function quantileSplit(uids: string[], regions: number): Uint8Array[] {
  const sorted = [...uids].sort();
  return Array.from({ length: regions - 1 }, (_, i) =>
    utf8.encode(sorted[Math.floor(((i + 1) * sorted.length) / regions)]!),
  );
}
