// test/integration/live-delivery.test.ts — who the worker tells, on the real stack
// (docs/consistency.md T): a fan-out tells the page's readers who watch the author, after their
// inboxes are written, and nobody else; a celebrity's post (never fanned out) and an edit reach
// the watchers who still follow, without a walk of the followers; a delete reaches them too; a
// follow's backfill makes a connected reader a watcher at once.
import { randomBytes } from 'node:crypto';
import { beforeAll, describe, expect, inject, it } from 'vitest';
import { HBaseLiveStore } from '../../shared/adapters/hbase/hbase-live-store.js';
import { hmacPositionSeal } from '../../shared/auth/positions.js';
import type { LiveEvent } from '../../shared/domain/live.js';
import { HBaseRestClient } from '../../shared/hbase/index.js';
import type { FanoutMessage } from '../../shared/ports/fanout-queue.js';
import { editPost } from '../../shared/use-cases/edit-post.js';
import type { FeedDeps } from '../../shared/use-cases/feed-deps.js';
import { deletePost } from '../../shared/use-cases/posts.js';
import { publishPost } from '../../shared/use-cases/publish-post.js';
import { follow, unfollow } from '../../shared/use-cases/relations.js';
import { hbaseFeedStores } from '../../shared/wiring/feed.js';
import { drainQueue, integrationLimits, userFactory } from '../support/feed-harness.js';
import { useNamespace } from '../support/namespace.js';

const hbase = new HBaseRestClient({ baseUrl: inject('hbaseRestUrl'), timeoutMs: 30_000 });
const ns = `it_livedel_${randomBytes(3).toString('hex')}`;
useNamespace(hbase, ns);

const stores = hbaseFeedStores(hbase, ns);
const live = new HBaseLiveStore(hbase, ns);
const pushed: { id: string; event: LiveEvent }[] = [];
const queued: FanoutMessage[] = [];
const deps: FeedDeps = {
  ...stores,
  queue: { send: async (m) => void queued.push(m) },
  limits: { ...integrationLimits },
  announcer: {
    live,
    relations: stores.relations,
    positions: hmacPositionSeal,
    push: {
      send: async (id, frame) => {
        pushed.push({ id, event: (frame as { event: LiveEvent }).event });
        return 'sent';
      },
      disconnect: async () => {},
    },
  },
};
const users = userFactory(stores.users);
const drain = () => drainQueue(deps, queued);

/** The reader connected now: present, with a socket, watching the authors it follows. */
async function connect(reader: string, watching: string[]) {
  await live.open({ id: `s-${reader}`, handle: reader, expiresAt: Date.now() + 600_000 }, Date.now());
  await live.watch(reader, watching, Date.now());
}

const kindsFor = (reader: string) => pushed.filter((p) => p.id === `s-${reader}`).map((p) => p.event);
const logged = async (reader: string) => (await live.read(reader, 0, 50)).events.map((e) => e.event);

beforeAll(() => {
  pushed.length = 0;
});

describe('who the worker tells', () => {
  it("a fan-out tells the page's watching readers who are present, after their inboxes hold the post", async () => {
    const [author, watching, quiet] = await users('tauth', 'twatch', 'tquiet');
    await follow(deps, watching, author);
    await follow(deps, quiet, author);
    await drain();
    await connect(watching, [author]);
    const { post } = await publishPost(deps, author, { body: 'live delivery' });
    await drain();
    expect(kindsFor(watching)).toEqual([expect.objectContaining({ kind: 'post', postId: post.id, author })]);
    expect(await logged(watching)).toEqual([{ kind: 'post', postId: post.id, author }]);
    // A follower never connected (a watcher since its follow, but not present): nothing logged or pushed.
    expect(await live.watchers(author)).toContain(quiet);
    expect(kindsFor(quiet)).toEqual([]);
    expect(await logged(quiet)).toEqual([]);
    // The inbox holds it (the event was logged after the inbox write).
    expect((await stores.inbox.read(watching, { limit: 10 })).entries).toContain(post.id);
    // Deleted: the watching reader is told that too.
    await deletePost(deps, author, post.id);
    await drain();
    expect(kindsFor(watching).map((e) => e.kind)).toEqual(['post', 'deleted']);
  });

  it("a celebrity's post and an edit reach the watchers who still follow, without a fan-out", async () => {
    const [star, fan, former] = await users('tstar', 'tfan', 'tformer');
    await follow(deps, fan, star);
    await follow(deps, former, star);
    await drain();
    await connect(fan, [star]);
    await connect(former, [star]);
    await unfollow(deps, former, star); // its watcher cell stays (a day at most): the edge is read
    await drain();
    await stores.celebrities.setCelebrity(star, true);
    const { post } = await publishPost(deps, star, { body: 'from a celebrity' });
    await drain();
    expect(kindsFor(fan)).toEqual([expect.objectContaining({ kind: 'post', postId: post.id })]);
    expect(kindsFor(former)).toEqual([]);
    expect(await stores.inbox.read(fan, { limit: 10 }).then((v) => v.entries)).not.toContain(post.id);
    await editPost(deps, star, post.id, { body: 'from a celebrity, edited', ifMatch: 0 });
    await drain();
    expect(kindsFor(fan).map((e) => e.kind)).toEqual(['post', 'edited']);
    expect(kindsFor(former)).toEqual([]);
  });

  it("a follow made while connected makes the reader a watcher at once (the follow's backfill)", async () => {
    const [author, reader] = await users('tnew', 'tlate');
    await connect(reader, []);
    await follow(deps, reader, author);
    await drain();
    expect(await live.watchers(author)).toContain(reader);
    const { post } = await publishPost(deps, author, { body: 'after the follow' });
    await drain();
    expect(kindsFor(reader)).toEqual([expect.objectContaining({ kind: 'post', postId: post.id })]);
  });
});
