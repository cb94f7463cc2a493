// test/unit/newer-posts.test.ts — "anything newer?" (shared/use-cases/newer-posts.ts) on the
// in-memory fakes: it counts what the home timeline would show above the post on screen —
// followed users' posts and your own, celebrities' merged in, muted authors left out — stops at
// 20, and writes nothing. The round trips are measured on real HBase in test/integration/newer-posts.test.ts.
import { describe, expect, it } from 'vitest';
import { mute, unmute } from '../../shared/use-cases/blocks.js';
import { homeTimeline } from '../../shared/use-cases/home-timeline.js';
import { countNewer } from '../../shared/use-cases/newer-posts.js';
import { publishPost } from '../../shared/use-cases/publish-post.js';
import { follow } from '../../shared/use-cases/relations.js';
import { drain, fakeFeed } from '../support/fakes/feed.js';
import { NEWER_COUNT_MAX } from '../../shared/domain/limits.js';

/** bob follows amy and cat; returns a function that publishes as someone at the next millisecond. */
async function setup() {
  const deps = fakeFeed('amy', 'bob', 'cat');
  await follow(deps, 'bob', 'amy', 1);
  await follow(deps, 'bob', 'cat', 2);
  await drain(deps);
  let t = 1_000;
  const post = async (author: string, body = 'hi') => {
    const { post } = await publishPost(deps, author, { body }, t++);
    await drain(deps);
    return post.id;
  };
  return { deps, post };
}

describe('countNewer', () => {
  it('counts the timeline entries above the post shown: followed users and your own, none for the newest', async () => {
    const { deps, post } = await setup();
    const shown = await post('amy');
    expect(await countNewer(deps, 'bob', shown)).toEqual({ count: 0, more: false });
    await post('cat');
    await post('bob'); // your own post is on your timeline too
    await post('amy');
    expect(await countNewer(deps, 'bob', shown)).toEqual({ count: 3, more: false });
    // Exactly the entries the first page shows before it.
    const page = await homeTimeline(deps, 'bob', 20);
    expect(page.items.findIndex((p) => p.id === shown)).toBe(3);
  });

  it(`stops at ${NEWER_COUNT_MAX} and says there is more`, async () => {
    const { deps, post } = await setup();
    const shown = await post('amy');
    for (let i = 0; i < NEWER_COUNT_MAX; i++) await post('cat');
    expect(await countNewer(deps, 'bob', shown)).toEqual({ count: NEWER_COUNT_MAX, more: false });
    await post('cat');
    expect(await countNewer(deps, 'bob', shown)).toEqual({ count: NEWER_COUNT_MAX, more: true });
  });

  it('leaves out authors you mute (the visibility rule), and counts them again once unmuted', async () => {
    const { deps, post } = await setup();
    const shown = await post('amy');
    await post('cat');
    await post('amy');
    await mute(deps, 'bob', 'cat', 5);
    expect(await countNewer(deps, 'bob', shown)).toEqual({ count: 1, more: false });
    await unmute(deps, 'bob', 'cat');
    expect(await countNewer(deps, 'bob', shown)).toEqual({ count: 2, more: false });
  });

  it('merges in the posts of followed celebrities (not fanned out), once each', async () => {
    const { deps, post } = await setup();
    const shown = await post('cat');
    await deps.celebrities.setCelebrity('amy', true);
    await deps.inbox.addCelebrity(['bob'], 'amy');
    const fromAmy = await post('amy');
    await post('cat');
    expect(deps.inbox.entries('bob')).not.toContain(fromAmy); // only in amy's outbox
    expect(await countNewer(deps, 'bob', shown)).toEqual({ count: 2, more: false });
    // amy's older posts in her outbox are below the post shown: not counted.
    expect(await countNewer(deps, 'bob', fromAmy)).toEqual({ count: 1, more: false });
  });

  it('writes nothing: the check is not a read of the timeline', async () => {
    const { deps, post } = await setup();
    const shown = await post('amy');
    await post('cat');
    const seen = new Map(deps.inbox.seen);
    const sent = deps.queue.sent.length;
    await countNewer(deps, 'bob', shown);
    expect(deps.inbox.seen).toEqual(seen);
    expect(deps.queue.sent.length).toBe(sent);
  });
});
