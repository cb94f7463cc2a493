// test/integration/export-data.test.ts — the data export (导出数据) on the real HBase adapters and
// the local S3-compatible store: asked for, built by the worker's handler, handed out as a link
// whose JSON holds exactly the user's own posts, comments, likes, bookmarks and edges; racing asks
// build once (forced step by step: test/support/interleave.ts).
import { describe, expect, inject, it } from 'vitest';
import { S3MediaObjects } from '../../shared/adapters/s3/s3-media-objects.js';
import { hbaseFeedStores } from '../../shared/wiring/feed.js';
import type { ExportDocument } from '../../shared/domain/data-export.js';
import { HBaseRestClient } from '../../shared/hbase/index.js';
import type { FanoutMessage } from '../../shared/ports/fanout-queue.js';
import { handleFanoutMessage } from '../../shared/use-cases/background/handlers.js';
import { bookmarkPost } from '../../shared/use-cases/bookmarks.js';
import { addComment, deleteComment } from '../../shared/use-cases/comments.js';
import { editPost } from '../../shared/use-cases/edit-post.js';
import { requestExport } from '../../shared/use-cases/export-data.js';
import type { FeedDeps } from '../../shared/use-cases/feed-deps.js';
import { likePost } from '../../shared/use-cases/likes.js';
import { publishPost } from '../../shared/use-cases/publish-post.js';
import { deletePost } from '../../shared/use-cases/posts.js';
import { follow } from '../../shared/use-cases/relations.js';
import { drainQueue, integrationLimits, userFactory } from '../support/feed-harness.js';
import { interleaver } from '../support/interleave.js';
import { localMediaBaseUrl } from '../../infra/local/object-store.js';
import { useNamespace } from '../support/namespace.js';

const ns = `it_export_${Date.now().toString(36)}`;
const hbase = new HBaseRestClient({ baseUrl: inject('hbaseRestUrl'), timeoutMs: 60_000 });
const stores = hbaseFeedStores(hbase, ns);
const endpoint = inject('s3Endpoint');
const bucket = inject('mediaBucket');
const exports = new S3MediaObjects({ bucket, publicBaseUrl: localMediaBaseUrl(endpoint, bucket), endpoint });
const gate = interleaver();
const queued: FanoutMessage[] = [];
const deps: FeedDeps & { exports: S3MediaObjects } = {
  ...stores,
  exports,
  queue: { send: async (m) => void queued.push(m) },
  limits: { ...integrationLimits },
  step: gate.hook,
};
useNamespace(hbase, ns);
const users = userFactory(stores.users);

/** Hands the queued export messages to the worker's handler (the rest of the queue too), returning their outcomes. */
async function runExports(): Promise<(string | undefined)[]> {
  const mine = queued.filter((m) => m.type === 'export');
  queued.splice(0, queued.length, ...queued.filter((m) => m.type !== 'export'));
  await drainQueue(deps, queued);
  const outcomes: (string | undefined)[] = [];
  for (const m of mine) outcomes.push((await handleFanoutMessage(deps, m)).skipped);
  return outcomes;
}

describe('data export (导出数据)', () => {
  it('asked, built by the worker, handed out as a link: the file holds exactly what the user made', async () => {
    const [ann, bob, cat] = await users('ann', 'bob', 'cat');
    const mine = (await publishPost(deps, ann, { body: 'first draft' })).post;
    await editPost(deps, ann, mine.id, { body: 'first, edited', ifMatch: 0 });
    const theirs = (await publishPost(deps, bob, { body: 'by bob' })).post.id;
    const kept = await addComment(deps, ann, theirs, { body: 'kept comment' });
    const dropped = await addComment(deps, ann, theirs, { body: 'deleted comment' });
    await deleteComment(deps, ann, theirs, dropped.id);
    await addComment(deps, bob, theirs, { body: 'not hers' });
    // A comment refused after its index entry went (the post is gone): the entry is skipped.
    const gone = (await publishPost(deps, bob, { body: 'soon gone' })).post.id;
    await deletePost(deps, bob, gone);
    await expect(addComment(deps, ann, gone, { body: 'never landed' })).rejects.toMatchObject({
      code: 'post_not_found',
    });
    await likePost(deps, ann, theirs);
    await bookmarkPost(deps, ann, theirs);
    await follow(deps, ann, bob);
    await follow(deps, cat, ann);
    await drainQueue(deps, queued);

    const asked = await requestExport(deps, ann, ann);
    expect(asked.state).toBe('building');
    expect(await requestExport(deps, ann, ann)).toEqual(asked); // still building: nothing asked again
    expect(queued.filter((m) => m.type === 'export')).toHaveLength(1);
    expect(await runExports()).toEqual([undefined]);

    const ready = await requestExport(deps, ann, ann);
    if (ready.state !== 'ready') throw new Error(`not ready: ${JSON.stringify(ready)}`);
    const res = await fetch(ready.url);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-disposition')).toMatch(/^attachment; filename="ann_\w+-export-/);
    const doc = (await res.json()) as ExportDocument;
    expect(doc).toMatchObject({
      format: 'weibo-serverless export',
      version: 1,
      handle: ann,
      profile: { displayName: ann },
    });
    expect(doc.posts.map((p) => [p.id, p.body, typeof p.editedAt])).toEqual([[mine.id, 'first, edited', 'string']]);
    expect(doc.comments.map((c) => [c.id, c.postId, c.body])).toEqual([[kept.id, theirs, 'kept comment']]);
    expect(doc.likes.map((l) => l.postId)).toEqual([theirs]);
    expect(doc.bookmarks.map((b) => b.postId)).toEqual([theirs]);
    expect(doc.following.map((e) => e.handle)).toEqual([bob]);
    expect(doc.followers.map((e) => e.handle)).toEqual([cat]);
    expect(doc.truncated).toBeUndefined();
    // The link is the user's own: anyone else asking for it is refused.
    await expect(requestExport(deps, bob, ann)).rejects.toMatchObject({ code: 'forbidden' });
  });

  it('forced: two asks at once — the one held after its read loses to one inside its gap and sends nothing; one build', async () => {
    const [ann] = await users('ann');
    const read = gate.holdAt('export.read', (d) => d.handle === ann);
    const first = requestExport(deps, ann, ann, 1_000_000);
    await read.reached;
    const second = await requestExport(deps, ann, ann, 2_000_000);
    read.release();
    expect(await first).toEqual({ state: 'building', requestedAt: 2_000_000 });
    expect(second).toEqual({ state: 'building', requestedAt: 2_000_000 });
    // Only the ask that landed sent its message, and it builds.
    expect(await runExports()).toEqual([undefined]);
    expect((await stores.users.exportState(ann)).done?.requestedAt).toBe(2_000_000);
  });
});
