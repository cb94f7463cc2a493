// test/e2e/home-side-reads.test.ts — the home page's two small reads over HTTP through
// serverless-offline, with the real queue and worker: "anything newer?"
// (GET /users/{handle}/timeline/newer) learns of a followed user's post once fan-out delivers it,
// and who to follow (GET /users/{handle}/suggestions) names people your followees follow. Both
// are your own (403 for anyone else), refuse malformed input (422 validation_failed, as every
// query here), and every answer is checked against the OpenAPI document by the api client.
import { describe, expect, inject, it } from 'vitest';
import { apiClient } from '../support/api.js';
import { eventually } from '../support/eventually.js';

const api = apiClient(inject('apiUrl'));

interface User {
  handle: string;
  token: string;
}

const newUsers = <P extends string[]>(...prefixes: P) =>
  Promise.all(prefixes.map((p) => api.newUser(p))) as Promise<{ [K in keyof P]: User }>;

async function publish(u: User, body: string): Promise<string> {
  const res = await api.call('POST', '/posts', { token: u.token, body: { body } });
  if (res.status !== 201 || typeof res.json?.id !== 'string') throw new Error(`publish: ${res.status} ${res.text}`);
  return res.json.id;
}

async function followAs(u: User, target: User): Promise<void> {
  const res = await api.call('PUT', `/users/${u.handle}/following/${target.handle}`, { token: u.token });
  expect(res.status).toBe(200);
}

describe('GET /users/{handle}/timeline/newer', () => {
  it('counts the posts above the one shown once they reach the timeline; your own only; malformed after is 422', async () => {
    const [reader, author, other] = await newUsers('nr', 'na', 'no');
    await followAs(reader, author);
    const shown = await publish(reader, 'the newest on my screen');

    const none = await api.call('GET', `/users/${reader.handle}/timeline/newer?after=${shown}`, {
      token: reader.token,
    });
    expect(none.status).toBe(200);
    expect(none.json).toEqual({ count: 0, more: false });
    expect(none.headers.get('cache-control')).toBe('no-store');

    await publish(author, 'one');
    await publish(author, 'two');
    await eventually(async () => {
      const res = await api.call('GET', `/users/${reader.handle}/timeline/newer?after=${shown}`, {
        token: reader.token,
      });
      expect(res.json).toEqual({ count: 2, more: false });
    });
    // What the timeline then shows above it.
    const page = await api.call('GET', `/users/${reader.handle}/timeline?limit=5`, { token: reader.token });
    expect(page.json.posts.map((p: { id: string }) => p.id).indexOf(shown)).toBe(2);

    expect(
      (await api.call('GET', `/users/${reader.handle}/timeline/newer?after=${shown}`, { token: other.token })).status,
    ).toBe(403);
    expect((await api.call('GET', `/users/${reader.handle}/timeline/newer?after=${shown}`)).status).toBe(401);
    for (const bad of ['', 'not-a-post', `${shown}x`]) {
      const res = await api.call('GET', `/users/${reader.handle}/timeline/newer?after=${encodeURIComponent(bad)}`, {
        token: reader.token,
      });
      expect(res.status, bad).toBe(422);
      expect(res.json.error.code).toBe('validation_failed');
    }
    expect((await api.call('GET', `/users/${reader.handle}/timeline/newer`, { token: reader.token })).status).toBe(422);
  });
});

describe('GET /users/{handle}/suggestions', () => {
  it('names people your followees follow, best first, with faces; your own only; limit 1..10', async () => {
    const [amy, bob, cat, dan, eve] = await newUsers('sa', 'sb', 'sc', 'sd', 'se');
    await followAs(amy, bob);
    await followAs(amy, cat);
    await followAs(bob, dan);
    await followAs(cat, dan);
    await followAs(bob, eve);
    await followAs(bob, amy);

    const res = await api.call('GET', `/users/${amy.handle}/suggestions?limit=2`, { token: amy.token });
    expect(res.status).toBe(200);
    expect(res.headers.get('cache-control')).toBe('private, max-age=60');
    expect(res.json.users).toEqual([
      { handle: dan.handle, displayName: `User ${dan.handle}`, avatar: null, followedBy: 2 },
      { handle: eve.handle, displayName: `User ${eve.handle}`, avatar: null, followedBy: 1 },
    ]);
    // The default limit is 5 at most; never amy or whom she follows.
    const all = await api.call('GET', `/users/${amy.handle}/suggestions`, { token: amy.token });
    expect(all.json.users.length).toBeLessThanOrEqual(5);
    for (const never of [amy, bob, cat])
      expect(all.json.users.map((u: { handle: string }) => u.handle)).not.toContain(never.handle);

    expect((await api.call('GET', `/users/${amy.handle}/suggestions`, { token: bob.token })).status).toBe(403);
    expect((await api.call('GET', `/users/${amy.handle}/suggestions`)).status).toBe(401);
    for (const bad of ['0', '11', 'x', '2.5']) {
      const r = await api.call('GET', `/users/${amy.handle}/suggestions?limit=${bad}`, { token: amy.token });
      expect(r.status, bad).toBe(422);
      expect(r.json.error.code).toBe('validation_failed');
    }
  });
});
