// test/integration/export-data.test.ts — the data export (导出数据) on the real HBase adapters and
// the local S3-compatible store: asked for, built by the worker's handler, handed out as a link
// whose JSON holds exactly the user's own posts, comments, likes, bookmarks and edges, and their
// private conversations less what they deleted for themselves; racing asks
// build once (forced step by step: test/support/interleave.ts).
import { addToGroup, createGroup } from '../../shared/use-cases/groups.js';
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
import {
  clearConversation,
  hideMessage,
  recallMessage,
  sendMessage,
  type MessageDeps,
} from '../../shared/use-cases/messages.js';
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
/** Private messages, with a picture port that takes any id (the picture library is tested on its own). */
const dm: MessageDeps = {
  messages: stores.messages,
  users: stores.users,
  blocks: stores.blocks,
  relations: stores.relations,
  quota: stores.quota,
  limits: { writesPerMinute: { message: 1000, conversation: 1000 } },
  messagePictures: {
    check: async (_sender, ids) => ids.map((id) => ({ id, width: 10, height: 10 })),
    claim: async () => {},
    giveBack: async () => {},
    release: async () => {},
    view: (pictures) => pictures.map((p) => ({ ...p, urls: { thumb: p.id, large: p.id } })),
  },
};
let sent = 0;
const say = (from: string, to: string, text: string, media?: string[]) =>
  sendMessage(dm, from, to, { text, clientId: `x${sent++}`, ...(media ? { media } : {}) });

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
    await addToGroup(deps, ann, 'special', bob);
    await addToGroup(deps, ann, (await createGroup(deps, ann, '读书')).id, bob);
    // Conversations: with bob (a picture, a recall, a message she deleted for herself), a request
    // from cat, and one with dan she deleted whole.
    await stores.users.changeSettings(bob, { messagesFrom: 'everyone' });
    await say(ann, bob, 'hi bob', ['pic_1']);
    await say(bob, ann, 'hi ann');
    const oops = await say(ann, bob, 'oops');
    await recallMessage(dm, ann, bob, oops.message.seq);
    await say(bob, ann, 'not for the export');
    await hideMessage(dm, ann, bob, 4);
    await say(bob, ann, 'last');
    await say(cat, ann, 'may I?');
    const [dan] = await users('dan');
    await say(dan, ann, 'gone for her');
    await clearConversation(dm, ann, dan);
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
    expect(doc.groups?.map((g) => [g.name, g.special, g.members.map((m) => m.handle)])).toEqual([
      ['特别关注', true, [bob]],
      ['读书', false, [bob]],
    ]);
    expect(doc.followers.map((e) => e.handle)).toEqual([cat]);
    const byPeer = Object.fromEntries(doc.conversations.map((c) => [c.peer, c]));
    expect(Object.keys(byPeer).sort()).toEqual([bob, cat].sort());
    expect(byPeer[bob]!.state).toBe('open');
    expect(byPeer[bob]!.messages.map((m) => [m.seq, m.from, m.text, m.recalled, m.pictures])).toEqual([
      [1, ann, 'hi bob', false, ['pic_1']],
      [2, bob, 'hi ann', false, []],
      [3, ann, '', true, []],
      [5, bob, 'last', false, []],
    ]);
    expect(typeof byPeer[bob]!.messages[0]!.at).toBe('string');
    expect(byPeer[cat]).toMatchObject({ state: 'request', messages: [{ seq: 1, from: cat, text: 'may I?' }] });
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
