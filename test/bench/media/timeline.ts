// test/bench/media/timeline.ts — the home timeline with pictures in the page (issue 20 item 7):
// the feed bench's timeline measurement (../feed/timeline.ts: the real homeTimeline use case
// against its raw floor "inbox get + 3 parallel multi-gets", same reader, same loop, unchanged)
// run twice in this run, on two IDENTICAL graphs in two namespaces — same seed, so the same
// users, follows, inboxes and post keys — whose posts differ only in their pictures: none, or
// nine each. Every post is written through the real post store (HBasePostStore.create), the
// nine PostMedia built by the real publish code (attach.ts postMediaOf) from the descriptor the
// worker recorded for a processed 12 MP photo (three variants, URLs where they are served).
// So the "with / without pictures" ratios differ by what nine pictures cost a page, nothing else.
import { performance } from 'node:perf_hooks';
import { newMediaId } from '../../../shared/domain/media-id.js';
import type { Post } from '../../../shared/domain/post.js';
import { hbaseFeedStores } from '../../../shared/wiring/feed.js';
import type { FeedLimits } from '../../../shared/domain/limits.js';
import type { HBaseRestClient } from '../../../shared/hbase/index.js';
import type { FanoutMessage } from '../../../shared/ports/fanout-queue.js';
import type { MediaDescriptor, MediaRecord } from '../../../shared/ports/media-store.js';
import { postIdFromKey } from '../../../shared/schema/row-keys.js';
import { postMediaOf, type Pictures } from '../../../shared/use-cases/media/attach.js';
import { inPool } from '../feed/bulk.js';
import type { BenchContext } from '../feed/context.js';
import { buildGraph, loadGraph, type GraphModel, type PoolModel } from '../feed/graph.js';
import type { Progress } from '../feed/progress.js';
import type { RequestRecorder } from '../feed/requests.js';
import type { BenchSettings } from '../feed/settings.js';
import { runTimeline, type TimelineResult } from '../feed/timeline.js';

export const PICTURES_PER_POST = 9;
/** Share of pictures given alt text (the rest have none), and how long it is. */
const ALT_SHARE = 0.3;
const ALT_TEXT = 'A street market at dusk: lanterns over the stalls, people queueing for dumplings.';

export interface PictureTimelineResult {
  users: number;
  edges: number;
  posts: number;
  readers: number;
  picturesPerPost: number;
  /** The p:m cell of one post with nine pictures (JSON bytes). */
  mediaCellBytes: number;
  seedSeconds: number;
  plain: TimelineResult;
  pictures: TimelineResult;
}

export interface TimelineRig {
  hb: HBaseRestClient;
  recorder: RequestRecorder;
  restUrl: string;
  sqsEndpoint: string;
  headers: Record<string, string>;
  limits: FeedLimits;
  progress: Progress;
}

/** Nine pictures as publish stores them: fresh ids, the processed photo's sizes, some alt text. */
function ninePictures(pictures: Pictures, descriptor: MediaDescriptor, author: string, at: number, rand: () => number) {
  const records: MediaRecord[] = Array.from({ length: PICTURES_PER_POST }, () => ({
    id: newMediaId(),
    owner: author,
    purpose: 'post',
    declaredType: 'image/jpeg',
    declaredBytes: 4_000_000,
    createdAt: at,
    state: 'ready',
    descriptor,
  }));
  const wanted = records.map((r) => (rand() < ALT_SHARE ? { id: r.id, alt: ALT_TEXT } : { id: r.id }));
  return postMediaOf(pictures, records, wanted);
}

async function seedGraph(
  rig: TimelineRig,
  ns: string,
  s: BenchSettings,
  graph: GraphModel,
  media: ((p: Post) => Post['media']) | null,
  concurrency: number,
  share: [number, number],
) {
  const pool: PoolModel = { handles: [], authors: [] };
  const now = Date.now();
  await loadGraph(
    rig.hb,
    ns,
    s,
    graph,
    pool,
    rig.limits.inboxCap,
    now,
    (f, d) => rig.progress.update(share[0] + (share[1] - share[0]) * 0.4 * f, d),
    { content: false },
  );
  const stores = hbaseFeedStores(rig.hb, ns);
  const posts = graph.posts.flat();
  let done = 0;
  await inPool(posts, concurrency, async (p) => {
    const post: Post = {
      id: postIdFromKey(p.key),
      author: graph.handles[p.author]!,
      body: p.body,
      createdAt: p.millis,
    };
    const pics = media?.(post);
    if (!(await stores.posts.create(pics ? { ...post, media: pics } : post)))
      throw new Error(`post ${post.id} existed already`);
    if (++done % 200 === 0)
      rig.progress.update(
        share[0] + (share[1] - share[0]) * (0.4 + (0.6 * done) / posts.length),
        `${done}/${posts.length} posts through the post store`,
      );
  });
  const queued: FanoutMessage[] = [];
  const ctx: BenchContext = {
    s,
    ns,
    restUrl: rig.restUrl,
    sqsEndpoint: rig.sqsEndpoint,
    headers: rig.headers,
    hb: rig.hb,
    recorder: rig.recorder,
    deps: { ...stores, queue: { send: async (m) => void queued.push(m) }, limits: rig.limits },
    queued,
    limits: rig.limits,
    progress: rig.progress,
    graph,
    pool,
  };
  return ctx;
}

/**
 * Seeds both graphs (progress: a phase of their own, `onStep('seeded')` ends it), then times the plain graph's pages
 * and the pictures graph's pages, each against its own floor measured in the same loop.
 */
export async function runPictureTimelines(
  rig: TimelineRig,
  namespaces: { plain: string; pictures: string },
  s: BenchSettings,
  pictures: Pictures,
  descriptor: MediaDescriptor,
  seedConcurrency: number,
  onStep: (step: 'seeded' | 'plain' | 'pictures') => void = () => {},
): Promise<PictureTimelineResult> {
  const t0 = performance.now();
  const now = Date.now();
  // Same settings, same seed: the same graph, twice.
  const plainGraph = buildGraph(s, rig.limits.maxFollowing, now);
  const pictureGraph = buildGraph(s, rig.limits.maxFollowing, now);
  let seed = 0x9e3779b9;
  const rand = () => {
    seed = (Math.imul(seed ^ (seed >>> 15), 0x2c1b3c6d) + 0x6d2b79f5) >>> 0;
    return seed / 2 ** 32;
  };
  let mediaCellBytes = 0;
  const plainCtx = await seedGraph(rig, namespaces.plain, s, plainGraph, null, seedConcurrency, [0, 0.5]);
  const pictureCtx = await seedGraph(
    rig,
    namespaces.pictures,
    s,
    pictureGraph,
    (p) => {
      const media = ninePictures(pictures, descriptor, p.author, p.createdAt, rand);
      mediaCellBytes ||= Buffer.byteLength(JSON.stringify(media));
      return media;
    },
    seedConcurrency,
    [0.5, 1],
  );
  const seedSeconds = Math.round((performance.now() - t0) / 100) / 10;
  onStep('seeded');
  const plain = await runTimeline(plainCtx);
  onStep('plain');
  const withPictures = await runTimeline(pictureCtx);
  onStep('pictures');
  return {
    users: plainGraph.handles.length,
    edges: plainGraph.edges,
    posts: plainGraph.postCount,
    readers: plain.readers,
    picturesPerPost: PICTURES_PER_POST,
    mediaCellBytes,
    seedSeconds,
    plain,
    pictures: withPictures,
  };
}
