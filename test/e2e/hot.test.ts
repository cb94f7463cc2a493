// test/e2e/hot.test.ts — GET /hot (热门微博) over HTTP through serverless-offline: likes, a
// comment and a repost through the API, the rank-hot job invoked on the offline Lambda port as
// its schedule would, and the feed listing the post more people engaged with first; hidden from
// someone who blocked its author. The e2e API reuses a ranking 1 s (HOT_CACHE_SECONDS). Every
// response is checked against the OpenAPI document by the api client (test/support/contract.ts).
import { describe, expect, inject, it } from 'vitest';
import { apiClient } from '../support/api.js';
import { eventually } from '../support/eventually.js';
import { rankHotNow } from '../support/rank-hot.js';

const api = apiClient(inject('apiUrl'));
const rankNow = () => rankHotNow(inject('lambdaEndpoint'));

const ids = (res: { json: { posts: { id: string }[] } }) => res.json.posts.map((p) => p.id);

describe('the hot feed over HTTP', () => {
  it('lists the post the most people engaged with first, and not to someone who blocked its author', async () => {
    const [ann, bob, cat, dan, eve] = await Promise.all(
      ['ho_a', 'ho_b', 'ho_c', 'ho_d', 'ho_e'].map((p) => api.newUser(p)),
    );
    const publish = async (u: typeof ann, body: string) =>
      (await api.call('POST', '/posts', { token: u!.token, body: { body } })).json.id as string;
    const [most, fewer] = await Promise.all([publish(ann, '热门 most engaged'), publish(bob, '热门 three people')]);
    const like = (u: typeof ann, id: string) =>
      api.call('PUT', `/users/${u!.handle}/likes/${id}`, { token: u!.token }).then((r) => expect(r.status).toBe(200));
    // most: bob likes, cat comments, dan reposts, eve likes = 4 people; fewer: 3 likes.
    await Promise.all([
      like(bob, most),
      api.call('POST', `/posts/${most}/comments`, { token: cat!.token, body: { body: '好' } }),
      api.call('POST', `/posts/${most}/reposts`, { token: dan!.token, body: {} }),
      like(eve, most),
      like(cat, fewer),
      like(dan, fewer),
      like(eve, fewer),
    ]);
    // The worker files each engagement a moment after it answers; the job ranks what is filed.
    await eventually(
      async () => {
        await rankNow();
        const page = await api.call('GET', '/hot?limit=50');
        expect(page.status).toBe(200);
        const order = ids(page);
        expect(order).toContain(fewer);
        expect(order.indexOf(most)).toBeGreaterThanOrEqual(0);
        expect(order.indexOf(most)).toBeLessThan(order.indexOf(fewer));
        expect(page.json.rankedAt).toEqual(expect.any(Number));
      },
      60_000,
      1000,
    );
    await api.call('PUT', `/users/${eve!.handle}/blocks/${ann!.handle}`, { token: eve!.token });
    const seen = ids(await api.call('GET', '/hot?limit=50', { token: eve!.token }));
    expect(seen).toContain(fewer);
    expect(seen).not.toContain(most);
    expect((await api.call('GET', '/hot?cursor=nope')).status).toBe(422);
  });
});
