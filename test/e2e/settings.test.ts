// test/e2e/settings.test.ts — the profile's bio and location and the user's settings over HTTP:
// what GET of a user shows, and bad input refused at the edge with a 4xx and nothing written.
import { describe, expect, inject, it } from 'vitest';
import { apiClient } from '../support/api.js';

const api = apiClient(inject('apiUrl'));

describe('profile text and settings over HTTP', () => {
  it('a bio and location show on the public profile; bad input is a 422 that writes nothing, another user’s a 403', async () => {
    const [ann, bob] = await Promise.all([api.newUser('set_a'), api.newUser('set_b')]);
    const path = `/users/${ann.handle}`;
    const ok = await api.call('PATCH', path, { token: ann.token, body: { bio: '写代码的', location: '杭州' } });
    expect(ok.status).toBe(200);
    expect((await api.call('GET', path)).json).toMatchObject({ bio: '写代码的', location: '杭州', cover: null });

    for (const body of [
      {},
      { displayName: 'Renamed', bio: 'x'.repeat(161) },
      { location: 'x'.repeat(31) },
      { bio: 'bidi \u202e trick' },
      { displayName: 'Renamed', unknown: 1 },
    ]) {
      const res = await api.call('PATCH', path, { token: ann.token, body });
      expect(res.status, JSON.stringify(body)).toBe(422);
      expect(res.json.error.code).toBe('validation_failed');
    }
    expect((await api.call('PATCH', path, { token: bob.token, body: { bio: 'not mine' } })).status).toBe(403);
    expect((await api.call('GET', path)).json).toMatchObject({
      displayName: `User ${ann.handle}`,
      bio: '写代码的',
      location: '杭州',
    });

    const settings = `${path}/settings`;
    expect((await api.call('GET', settings, { token: ann.token })).json).toEqual({
      messagesFrom: 'following',
      notifications: { likes: true, comments: true, reposts: true, mentions: true, follows: true },
    });
    for (const body of [
      {},
      { messagesFrom: 'friends' },
      { notifications: { likes: 'no' } },
      { notifications: { dms: false } },
    ])
      expect((await api.call('PATCH', settings, { token: ann.token, body })).status, JSON.stringify(body)).toBe(422);
    expect((await api.call('GET', settings, { token: bob.token })).status).toBe(403);
    const changed = await api.call('PATCH', settings, {
      token: ann.token,
      body: { messagesFrom: 'nobody', notifications: { mentions: false } },
    });
    expect(changed.json).toEqual({
      messagesFrom: 'nobody',
      notifications: { likes: true, comments: true, reposts: true, mentions: false, follows: true },
    });
    // A cover must be a cover upload of one's own.
    const cover = await api.call('PUT', `${path}/cover`, {
      token: ann.token,
      body: { mediaId: 'AAAAAAAAAAAAAAAAAAAAAA' },
    });
    expect([cover.status, cover.json.error.code]).toEqual([422, 'media_not_found']);
  });
});
