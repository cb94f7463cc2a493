// test/e2e/search.test.ts — GET /search/posts over HTTP through serverless-offline: a post is
// found as soon as its publish answers, by its Chinese and its English words, with its matched
// spans; not after a delete, nor by someone who blocked its author; a query with nothing to find,
// too long or of too many words is a 422 with its code. Every response is checked against the
// OpenAPI document by the api client (test/support/contract.ts).
import { randomBytes } from 'node:crypto';
import { describe, expect, inject, it } from 'vitest';
import { apiClient, isErrorShape } from '../support/api.js';

const api = apiClient(inject('apiUrl'));
const search = (q: string, token?: string) =>
  api.call('GET', `/search/posts?q=${encodeURIComponent(q)}`, token ? { token } : {});

describe('post search over HTTP', () => {
  it('finds a post as soon as it is published, by every word, and not once deleted or blocked', async () => {
    const ann = await api.newUser('se_ann');
    const bob = await api.newUser('se_bob');
    const t = `k${randomBytes(3).toString('hex')}`;
    const body = `${t} 今天的微博热搜 Hello World`;
    const made = await api.call('POST', '/posts', { token: ann.token, body: { body } });
    expect(made.status).toBe(201);
    const found = await search(`${t} 微博 hello world`, bob.token);
    expect(found.status).toBe(200);
    expect(found.json.posts.map((p: { id: string }) => p.id)).toEqual([made.json.id]);
    expect(found.json.highlights[made.json.id]).toEqual([
      [0, t.length],
      [t.length + 4, t.length + 6],
      [t.length + 9, t.length + 14],
      [t.length + 15, t.length + 20],
    ]);
    expect(found.json.nextCursor).toBeNull();
    await api.call('PUT', `/users/${bob.handle}/blocks/${ann.handle}`, { token: bob.token });
    expect((await search(`${t} 微博`, bob.token)).json.posts).toEqual([]);
    expect((await search(`${t} 微博`)).json.posts).toHaveLength(1);
    expect((await api.call('DELETE', `/posts/${made.json.id}`, { token: ann.token })).status).toBe(204);
    expect((await search(`${t} 微博`)).json.posts).toEqual([]);
    for (const [q, code] of [
      ['!!! 😀', 'query_empty'],
      ['微'.repeat(101), 'query_too_long'],
      ['a b c d e f g h i j k', 'query_too_complex'],
    ]) {
      const res = await search(q!);
      expect(res.status, q).toBe(422);
      expect(isErrorShape(res.json), q).toBe(true);
      expect(res.json.error.code, q).toBe(code);
    }
  });
});
