// test/bench/feed/requests.ts — records every HBase request a client sends (through its
// onRequest hook) so an operation can be charged with its request count and its number of
// SEQUENTIAL round trips: requests that overlap in time (Promise.all) share a round trip
// (sequentialDepth, the definition the API's Server-Timing header uses too).
import { performance } from 'node:perf_hooks';
import type { HBaseRequestEvent } from '../../../shared/hbase/index.js';
import { sequentialDepth, type Span as Timed } from '../../../shared/observability/round-trips.js';

export interface Span extends Timed {
  method: string;
  path: string;
}

export class RequestRecorder {
  private spans: Span[] = [];
  private recording = false;

  readonly onRequest = (e: HBaseRequestEvent): void => {
    if (!this.recording) return;
    const end = performance.now();
    this.spans.push({ start: end - e.durationMs, end, method: e.method, path: e.path });
  };

  /** Runs `op` and returns what it sent. Not reentrant: one recorded operation at a time. */
  async record<T>(op: () => Promise<T>): Promise<{ result: T; requests: number; sequential: number; spans: Span[] }> {
    this.spans = [];
    this.recording = true;
    try {
      const result = await op();
      const spans = this.spans;
      return { result, requests: spans.length, sequential: sequentialDepth(spans), spans };
    } finally {
      this.recording = false;
    }
  }
}

export interface RequestKind {
  kind: string;
  requests: number;
  /** Sum of the requests' durations (overlapping requests both count). */
  totalMs: number;
}

/** Requests grouped as "<METHOD> <table> <scanner|multiget|row>", slowest total first. */
export function breakdown(spans: Span[]): RequestKind[] {
  const by = new Map<string, RequestKind>();
  for (const s of spans) {
    const path = s.path.split('?')[0]!;
    const table = decodeURIComponent(path.split('/')[1] ?? '').replace(/^[^:]*:/, '');
    const what = path.includes('/scanner') ? 'scanner' : path.includes('/multiget') ? 'multiget' : 'row';
    const kind = `${s.method} ${table} ${what}`;
    const k = by.get(kind) ?? { kind, requests: 0, totalMs: 0 };
    k.requests++;
    k.totalMs += s.end - s.start;
    by.set(kind, k);
  }
  return [...by.values()]
    .map((k) => ({ ...k, totalMs: Math.round(k.totalMs * 10) / 10 }))
    .sort((a, b) => b.totalMs - a.totalMs);
}
