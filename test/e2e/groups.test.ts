// test/e2e/groups.test.ts — 分组 and 特别关注 over HTTP through serverless-offline: a group made,
// filled and read as a timeline; another user's handle refused; bad input answered with a JSON
// 4xx and nothing changed; a 特别关注 member's post notifying through the worker. Every response
// is checked against the OpenAPI document by the api client (test/support/contract.ts).
import { describe, expect, inject, it } from 'vitest';
import { apiClient } from '../support/api.js';
import { eventually } from '../support/eventually.js';

const api = apiClient(inject('apiUrl'));
type User = Awaited<ReturnType<typeof api.newUser>>;

describe('groups over HTTP', () => {
  it('a group of two people shows exactly their posts; only its owner reaches it; bad input is a 4xx and changes nothing', async () => {
    const [ann, bob, cat, dan] = await Promise.all(['gr_a', 'gr_b', 'gr_c', 'gr_d'].map((p) => api.newUser(p)));
    const as = (u: User) => ({ token: u.token });
    const path = `/users/${ann!.handle}/groups`;
    for (const u of [bob, cat, dan])
      expect((await api.call('PUT', `/users/${ann!.handle}/following/${u!.handle}`, as(ann!))).status).toBe(200);
    const bodies = new Map<User, string>();
    for (const u of [bob, cat, dan]) {
      bodies.set(u!, `from ${u!.handle}`);
      expect((await api.call('POST', '/posts', { ...as(u!), body: { body: `from ${u!.handle}` } })).status).toBe(201);
    }
    const made = await api.call('POST', path, { ...as(ann!), body: { name: '好友' } });
    expect(made.status).toBe(201);
    const g = made.json.id as string;
    for (const u of [bob, dan])
      expect((await api.call('PUT', `${path}/${g}/members/${u!.handle}`, as(ann!))).json).toMatchObject({
        hasMember: true,
      });
    await eventually(async () => {
      const page = await api.call('GET', `${path}/${g}/timeline`, as(ann!));
      expect(page.status).toBe(200);
      expect(page.json.posts.map((p: { body: string }) => p.body).sort()).toEqual(
        [bodies.get(bob!), bodies.get(dan!)].sort(),
      );
    }, 30_000);

    // Private: another user's handle is refused, ann's group id means nothing to cat.
    expect((await api.call('GET', path, as(cat!))).status).toBe(403);
    expect((await api.call('GET', `${path}/${g}/timeline`, as(cat!))).status).toBe(403);
    expect((await api.call('GET', `/users/${cat!.handle}/groups/${g}/members`, as(cat!))).status).toBe(404);

    const before = (await api.call('GET', `${path}?member=${cat!.handle}`, as(ann!))).json;
    const refused: [string, string, object | undefined, number, string][] = [
      ['PUT', `${path}/${g}/members/${bob!.handle}x`, undefined, 404, 'user_not_found'],
      ['PUT', `${path}/gnothere/members/${cat!.handle}`, undefined, 404, 'group_not_found'],
      ['POST', path, { name: '好友' }, 409, 'group_name_taken'],
      ['POST', path, { name: '' }, 422, 'group_name_invalid'],
      ['POST', path, { name: '名'.repeat(21) }, 422, 'group_name_invalid'],
      ['POST', path, {}, 422, 'validation_failed'],
      ['PATCH', `${path}/special`, { name: 'x' }, 422, 'group_built_in'],
      ['DELETE', `${path}/special`, undefined, 422, 'group_built_in'],
    ];
    for (const [method, url, body, status, code] of refused) {
      const res = await api.call(method as 'PUT', url, { ...as(ann!), ...(body ? { body } : {}) });
      expect([method, url, res.status, res.json?.error?.code]).toEqual([method, url, status, code]);
    }
    // Someone ann does not follow: 422, even into 特别关注.
    const stranger = await api.newUser('gr_s');
    const notFollowed = await api.call('PUT', `${path}/special/members/${stranger.handle}`, as(ann!));
    expect(notFollowed.status).toBe(422);
    expect((await api.call('GET', `${path}?member=${cat!.handle}`, as(ann!))).json).toEqual(before);
  });

  it('特别关注: a post by someone you keep there notifies you', async () => {
    const [ann, bob] = await Promise.all(['gs_a', 'gs_b'].map((p) => api.newUser(p)));
    expect(
      (await api.call('PUT', `/users/${ann!.handle}/following/${bob!.handle}`, { token: ann!.token })).status,
    ).toBe(200);
    expect(
      (await api.call('PUT', `/users/${ann!.handle}/groups/special/members/${bob!.handle}`, { token: ann!.token }))
        .status,
    ).toBe(200);
    const id = (await api.call('POST', '/posts', { token: bob!.token, body: { body: '特别的消息' } })).json
      .id as string;
    await eventually(async () => {
      const page = await api.call('GET', `/users/${ann!.handle}/notifications`, { token: ann!.token });
      const special = page.json.notifications.filter((n: { type: string }) => n.type === 'special');
      expect(special.map((n: { post: { id: string } }) => n.post.id)).toEqual([id]);
    }, 30_000);
  });
});
