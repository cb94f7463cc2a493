// test/bench/feed/memory.ts — fan-out worker peak memory at a small vs a large follower count:
// each fan-out runs alone in a child Node process (memory-child.ts, --expose-gc), which samples
// its RSS and V8 heap every 5 ms while it works. The ratio large/small of the peak RSS is the
// figure against the target (flat: within ±10 %); heap peaks are reported beside it.
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { publishPost } from '../../../shared/use-cases/publish-post.js';
import type { BenchContext } from './context.js';

export interface ChildMemory {
  readers: number;
  messages: number;
  ms: number;
  gcExposed: boolean;
  baselineRssMB: number;
  peakRssMB: number;
  baselineHeapUsedMB: number;
  peakHeapUsedMB: number;
  /** Heap in use after a forced GC once the fan-out is done (retained memory). */
  heapAfterGcMB: number;
  maxRssMB: number;
}

export interface MemoryResult {
  small: ChildMemory & { followers: number };
  large: ChildMemory & { followers: number };
  peakRssRatio: number;
  peakHeapRatio: number;
}

const CHILD = fileURLToPath(new URL('./memory-child.ts', import.meta.url));

function runChild(ctx: BenchContext, postId: string): Promise<ChildMemory> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--expose-gc', '--import', 'tsx', CHILD], {
      env: {
        ...process.env,
        BENCH_CHILD: JSON.stringify({ restUrl: ctx.restUrl, ns: ctx.ns, postId, headers: ctx.headers }),
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    let err = '';
    child.stdout.on('data', (d: Buffer) => (out += d.toString()));
    child.stderr.on('data', (d: Buffer) => (err += d.toString()));
    child.on('error', reject);
    child.on('close', (code) => {
      const line = out.trim().split('\n').pop() ?? '';
      if (code !== 0) return reject(new Error(`memory child exited ${code}: ${err.slice(-2000)}`));
      try {
        resolve(JSON.parse(line) as ChildMemory);
      } catch {
        reject(new Error(`memory child printed no JSON: ${out.slice(-500)} ${err.slice(-1000)}`));
      }
    });
  });
}

export async function runMemory(ctx: BenchContext): Promise<MemoryResult> {
  const [, small, large] = ctx.pool.authors;
  const post = async (handle: string) => {
    ctx.queued.length = 0;
    const { post: p } = await publishPost(ctx.deps, handle, { body: `memory ${handle}` });
    ctx.queued.length = 0; // the child does the fan-out
    return p.id;
  };
  const smallPost = await post(small!.handle);
  const largePost = await post(large!.handle);
  const s = await runChild(ctx, smallPost);
  ctx.progress.update(0.3, `${small!.followers} followers: peak RSS ${s.peakRssMB} MB`);
  const l = await runChild(ctx, largePost);
  for (const [m, want] of [
    [s, small!.followers],
    [l, large!.followers],
  ] as const) {
    if (m.readers !== want) throw new Error(`memory child reached ${m.readers} readers, expected ${want}`);
  }
  return {
    small: { ...s, followers: small!.followers },
    large: { ...l, followers: large!.followers },
    peakRssRatio: l.peakRssMB / s.peakRssMB,
    peakHeapRatio: l.peakHeapUsedMB / s.peakHeapUsedMB,
  };
}
