// test/e2e/reactions.test.ts — comments, reposts and likes over HTTP through serverless-offline,
// with the real queue and worker on the real HBase. Every response is checked against the
// OpenAPI document by the api client (test/support/contract.ts).
import { describe, expect, inject, it } from 'vitest';
import { apiClient } from '../support/api.js';
import { eventually } from '../support/eventually.js';

const api = apiClient(inject('apiUrl'));

describe('conversations and reactions over HTTP', () => {
  it('like / unlike are idempotent PUT / DELETE; counts and the reader’s own state on every read; who liked', async () => {
    const [ann, bob] = [await api.newUser('r_ann'), await api.newUser('r_bob')];
    const { json: post } = await api.call('POST', '/posts', { token: ann.token, body: { body: '点赞我' } });
    expect(post).toMatchObject({
      likeCount: 0,
      commentCount: 0,
      repostCount: 0,
      liked: false,
      reposted: false,
      repostOf: null,
    });

    for (let i = 0; i < 2; i++) {
      const liked = await api.call('PUT', `/users/${bob.handle}/likes/${post.id}`, { token: bob.token });
      expect(liked.status).toBe(200);
      expect(liked.json).toEqual({ user: bob.handle, postId: post.id, liked: true });
    }
    expect((await api.call('GET', `/posts/${post.id}`, { token: bob.token })).json).toMatchObject({
      likeCount: 1,
      liked: true,
    });
    expect((await api.call('GET', `/posts/${post.id}`)).json).toMatchObject({ likeCount: 1, liked: false }); // anonymous
    expect((await api.call('GET', `/users/${ann.handle}/posts`, { token: bob.token })).json.posts[0]).toMatchObject({
      likeCount: 1,
      liked: true,
    });
    expect(
      (await api.call('GET', `/posts/${post.id}/likes`)).json.users.map((u: { handle: string }) => u.handle),
    ).toEqual([bob.handle]);

    // Acting as someone else is refused.
    expect((await api.call('PUT', `/users/${ann.handle}/likes/${post.id}`, { token: bob.token })).status).toBe(403);

    for (let i = 0; i < 2; i++)
      expect((await api.call('DELETE', `/users/${bob.handle}/likes/${post.id}`, { token: bob.token })).json.liked).toBe(
        false,
      );
    expect((await api.call('GET', `/posts/${post.id}`, { token: bob.token })).json).toMatchObject({
      likeCount: 0,
      liked: false,
    });
    expect((await api.call('GET', `/posts/${post.id}/likes`)).json).toEqual({ users: [], nextCursor: null });
  });

  it('comments: create, reply-to, both orders with cursors, delete by the post’s author, 403 for a stranger, gone with the post', async () => {
    const [ann, bob, cat] = [await api.newUser('c_ann'), await api.newUser('c_bob'), await api.newUser('c_cat')];
    const { json: post } = await api.call('POST', '/posts', { token: ann.token, body: { body: 'comment on me' } });
    const first = await api.call('POST', `/posts/${post.id}/comments`, { token: bob.token, body: { body: '沙发' } });
    expect(first.status).toBe(201);
    expect(first.json).toMatchObject({ postId: post.id, author: bob.handle, body: '沙发', replyTo: null });
    const reply = await api.call('POST', `/posts/${post.id}/comments`, {
      token: ann.token,
      body: { body: '谢谢', replyTo: first.json.id },
    });
    expect(reply.json.replyTo).toEqual({ id: first.json.id, author: bob.handle });
    await api.call('POST', `/posts/${post.id}/comments`, { token: cat.token, body: { body: 'third' } });

    // The reply is in its root's thread: the list holds top-level comments, each with its thread.
    const oldest = await api.call('GET', `/posts/${post.id}/comments?order=oldest&limit=1`);
    expect(oldest.json.comments).toMatchObject([
      { body: '沙发', deleted: false, replyCount: 1, replies: [{ body: '谢谢', root: first.json.id }] },
    ]);
    const rest = await api.call(
      'GET',
      `/posts/${post.id}/comments?order=oldest&limit=1&cursor=${oldest.json.nextCursor}`,
    );
    expect(rest.json).toMatchObject({ comments: [{ body: 'third', replyCount: 0, replies: [] }], nextCursor: null });
    expect(
      (await api.call('GET', `/posts/${post.id}/comments`)).json.comments.map((c: { body: string }) => c.body),
    ).toEqual(['third', '沙发']);
    const thread = await api.call('GET', `/posts/${post.id}/comments/${first.json.id}/replies`);
    expect(thread.json).toMatchObject({ replies: [{ body: '谢谢' }], nextCursor: null });
    expect((await api.call('GET', `/posts/${post.id}/comments/${reply.json.id}`)).json).toMatchObject({
      body: '谢谢',
      root: first.json.id,
    });
    expect((await api.call('GET', `/posts/${post.id}`)).json.commentCount).toBe(3);

    expect((await api.call('DELETE', `/posts/${post.id}/comments/${first.json.id}`, { token: cat.token })).status).toBe(
      403,
    );
    expect((await api.call('DELETE', `/posts/${post.id}/comments/${first.json.id}`, { token: ann.token })).status).toBe(
      204,
    );
    expect(
      (await api.call('DELETE', `/posts/${post.id}/comments/${first.json.id}`, { token: ann.token })).json.error.code,
    ).toBe('comment_not_found');
    expect((await api.call('GET', `/posts/${post.id}`)).json.commentCount).toBe(2);
    // Its reply remains: the deleted comment stays as a placeholder with its thread.
    expect((await api.call('GET', `/posts/${post.id}/comments?order=oldest`)).json.comments).toMatchObject([
      { id: first.json.id, deleted: true, replyCount: 1, replies: [{ body: '谢谢' }] },
      { body: 'third' },
    ]);

    expect((await api.call('DELETE', `/posts/${post.id}`, { token: ann.token })).status).toBe(204);
    expect((await api.call('GET', `/posts/${post.id}/comments`)).json.error.code).toBe('post_not_found');
  });

  it('a comment with an Idempotency-Key posted twice is one comment (201, then 200 with the same id); another body with the key is 422', async () => {
    const [ann, bob] = [await api.newUser('k_ann'), await api.newUser('k_bob')];
    const { json: post } = await api.call('POST', `/posts`, { token: ann.token, body: { body: 'retry me' } });
    const send = (body: string) =>
      api.call('POST', `/posts/${post.id}/comments`, {
        token: bob.token,
        body: { body },
        headers: { 'idempotency-key': 'comment-tap-1' },
      });
    const first = await send('只发一次');
    expect(first.status).toBe(201);
    const again = await send('只发一次');
    expect(again.status).toBe(200);
    expect(again.json).toEqual(first.json);
    const other = await send('another body');
    expect(other.status).toBe(422);
    expect(other.json.error.code).toBe('idempotency_key_mismatch');
    expect(
      (await api.call('GET', `/posts/${post.id}/comments`)).json.comments.map((c: { id: string }) => c.id),
    ).toEqual([first.json.id]);
    expect((await api.call('GET', `/posts/${post.id}`)).json.commentCount).toBe(1);
    // Deleted since: the retry answers 410 and brings nothing back.
    expect((await api.call('DELETE', `/posts/${post.id}/comments/${first.json.id}`, { token: bob.token })).status).toBe(
      204,
    );
    const gone = await send('只发一次');
    expect(gone.status).toBe(410);
    expect(gone.json.error.code).toBe('comment_deleted');
    expect((await api.call('GET', `/posts/${post.id}/comments`)).json.comments).toEqual([]);
  });

  it('reposts: fan out like posts, embed the original, plain ones are idempotent, a deleted original shows as deleted', async () => {
    const [ann, bob, cat] = [await api.newUser('p_ann'), await api.newUser('p_bob'), await api.newUser('p_cat')];
    expect((await api.call('PUT', `/users/${cat.handle}/following/${bob.handle}`, { token: cat.token })).status).toBe(
      200,
    );
    const { json: original } = await api.call('POST', '/posts', { token: ann.token, body: { body: 'worth sharing' } });

    const plain = await api.call('POST', `/posts/${original.id}/reposts`, { token: bob.token, body: {} });
    expect(plain.status).toBe(201);
    expect(plain.json).toMatchObject({
      author: bob.handle,
      body: '',
      repostOf: { state: 'live', id: original.id, author: ann.handle, body: 'worth sharing' },
    });
    const again = await api.call('POST', `/posts/${original.id}/reposts`, { token: bob.token, body: {} });
    expect(again.status).toBe(200);
    expect(again.json.id).toBe(plain.json.id);
    // cat follows bob (not ann): bob's repost reaches cat's timeline with ann's post embedded.
    await eventually(async () => {
      const timeline = await api.call('GET', `/users/${cat.handle}/timeline`, { token: cat.token });
      const shown = timeline.json.posts.find((p: { id: string }) => p.id === plain.json.id);
      expect(shown?.repostOf).toMatchObject({ state: 'live', id: original.id, repostCount: 1, reposted: false });
    });
    const withWords = await api.call('POST', `/posts/${plain.json.id}/reposts`, {
      token: cat.token,
      body: { comment: '转发理由' },
    });
    expect(withWords.status).toBe(201);
    expect(withWords.json.repostOf.id).toBe(original.id); // a repost of a repost reposts the original
    expect(withWords.json.body).toBe('转发理由'); // bob's plain repost adds no chain text
    // cat's own repost is newer and shows the same original: bob's plain repost below it is left out.
    const mine = await api.call('GET', `/users/${cat.handle}/timeline`, { token: cat.token });
    expect(mine.json.posts.map((p: { id: string }) => p.id)).toEqual([withWords.json.id]);
    expect(mine.json.posts[0].repostOf).toMatchObject({ state: 'live', repostCount: 2, reposted: true });
    expect((await api.call('GET', `/posts/${original.id}`, { token: bob.token })).json).toMatchObject({
      repostCount: 2,
      reposted: true,
    });

    expect((await api.call('DELETE', `/posts/${original.id}`, { token: ann.token })).status).toBe(204);
    expect((await api.call('GET', `/posts/${plain.json.id}`)).json.repostOf).toEqual({
      state: 'deleted',
      id: original.id,
    });
    const timeline = await api.call('GET', `/users/${cat.handle}/timeline`, { token: cat.token });
    expect(timeline.status).toBe(200);
    expect(timeline.json.posts[0].repostOf).toEqual({ state: 'deleted', id: original.id });
    expect(
      (await api.call('POST', `/posts/${plain.json.id}/reposts`, { token: cat.token, body: {} })).json.error.code,
    ).toBe('post_not_found');
  });
});
