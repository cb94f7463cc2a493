// test/browser/composing.test.ts — what someone writes is sent once and never lost, in Chromium.
// The API's answer to a post, a repost with a comment or a comment is lost after the API did the
// work (the request reaches the real API; the page gets a 503 `timeout` instead): the page says
// it may or may not have been sent, keeps the text, and sending again, with or without a reload
// in between, carries the same Idempotency-Key and leaves exactly one item. A draft is kept per
// user: another user signing in on the same browser never sees it, and a logout removes it;
// unreadable stored drafts leave the page working.
import { randomBytes } from 'node:crypto';
import type { Page } from 'playwright-core';
import { describe, expect, inject, it } from 'vitest';
import { apiClient } from '../support/api.js';
import { logIn, postCard, setUp, show, signUp, uniqueHandle, useBrowser } from '../support/browser.js';

const api = apiClient(inject('apiUrl'));
const browser = useBrowser();
const hex = () => randomBytes(3).toString('hex');

/** Both tries went out with one key, of the API's shape. */
function expectOneKey(keys: (string | undefined)[]): void {
  expect(keys).toHaveLength(2);
  expect(keys[0]).toMatch(/^[A-Za-z0-9_-]{1,64}$/);
  expect(keys[1]).toBe(keys[0]);
}

/**
 * Loses the API's answer to the first POST to `path`: the request goes to the real API (which
 * does the work), the page gets a 503 `timeout` with Retry-After. Records every POST's
 * Idempotency-Key, and the status the API really answered the lost one with.
 */
async function loseFirstAnswer(page: Page, path: RegExp) {
  const seen = { keys: [] as (string | undefined)[], lostStatus: undefined as number | undefined };
  const matches = (url: string) => path.test(new URL(url).pathname);
  page.on(
    'request',
    (r) => r.method() === 'POST' && matches(r.url()) && seen.keys.push(r.headers()['idempotency-key']),
  );
  await page.route(
    (url) => path.test(url.pathname),
    async (route) => {
      if (route.request().method() !== 'POST' || seen.lostStatus !== undefined) return route.fallback();
      const res = await route.fetch();
      seen.lostStatus = res.status();
      await route.fulfill({
        status: 503,
        headers: { 'Retry-After': '1', 'Cache-Control': 'no-store' },
        json: { error: { code: 'timeout', message: 'The request ran out of time; it may or may not have been done' } },
      });
    },
  );
  return seen;
}

type Listed = { id: string; body: string; replyTo?: { id: string }; replies?: Listed[] };
/** The post's comments, each followed by its thread's preview (the threads here are short). */
const commentsOn = async (postId: string) =>
  ((await api.call('GET', `/posts/${postId}/comments?order=oldest&limit=100`)).json.comments as Listed[]).flatMap(
    (c) => [c, ...(c.replies ?? [])],
  );
const postsOf = async (handle: string) =>
  (await api.call('GET', `/users/${handle}/posts?limit=100`)).json.posts as { id: string; body: string }[];
const publish = async (token: string, body: string) =>
  (
    await setUp(() =>
      api.call('POST', '/posts', { token, body: { body }, headers: { 'idempotency-key': `cp-${hex()}${hex()}` } }),
    )
  ).json.id as string;

/** The draft entries the page keeps in localStorage (their names). */
const storedDrafts = (page: Page) =>
  page.evaluate(() => {
    const s = (globalThis as unknown as { localStorage: { length: number; key(i: number): string | null } })
      .localStorage;
    return Array.from({ length: s.length }, (_, i) => s.key(i)!)
      .filter((k) => k.startsWith('weibo.draft.'))
      .sort();
  });

describe('composing: a lost answer never makes two, a reload never loses a draft, in Chromium', () => {
  it('a comment whose answer was lost, sent again: the same key, exactly one comment', async () => {
    const [author, reader] = [await setUp(() => api.newUser('la_a')), await setUp(() => api.newUser('la_r'))];
    const postId = await publish(author.token, `comment on me ${hex()}`);
    const t = await browser.open('en');
    await logIn(t.page, reader.handle, reader.password);
    await t.page.waitForSelector('#compose-text');
    await show(t.page, `#/post/${encodeURIComponent(postId)}`, t.page.getByLabel('Write a comment'));

    const seen = await loseFirstAnswer(t.page, /\/api\/posts\/[^/]+\/comments$/);
    const said = `Said once 👍 ${hex()}`;
    await t.page.getByLabel('Write a comment').fill(said);
    await t.page.getByRole('button', { name: 'Comment', exact: true }).click();
    await t.page.getByRole('alert').getByText('may or may not have been sent').waitFor();
    expect(seen.lostStatus, 'the API made the comment whose answer was lost').toBe(201);
    expect(await t.page.getByLabel('Write a comment').inputValue()).toBe(said);

    const answer = t.page.waitForResponse((r) => r.request().method() === 'POST' && r.url().endsWith('/comments'));
    await t.page.getByRole('button', { name: 'Comment', exact: true }).click();
    expect((await answer).ok()).toBe(true);
    await t.page.getByText('Comment posted.').waitFor();
    expectOneKey(seen.keys);
    expect(await t.page.getByLabel('Write a comment').inputValue()).toBe('');

    // One comment, at the API and on the page (before and after a reload).
    expect((await commentsOn(postId)).filter((c) => c.body === said)).toHaveLength(1);
    expect(await t.page.locator('li.comment', { hasText: said }).count()).toBe(1);
    await show(t.page, `#/post/${encodeURIComponent(postId)}`, t.page.locator('li.comment').first());
    expect(await t.page.locator('li.comment', { hasText: said }).count()).toBe(1);
    await t.page.getByRole('link', { name: 'Comments 1' }).waitFor();
    await t.close();
  });

  it('a reply whose answer was lost survives a reload (text, whom it answers, key): sent after it, one reply', async () => {
    const [author, other] = [await setUp(() => api.newUser('lr_a')), await setUp(() => api.newUser('lr_o'))];
    const postId = await publish(author.token, `reply on me ${hex()}`);
    const first = (
      await setUp(() =>
        api.call('POST', `/posts/${postId}/comments`, { token: other.token, body: { body: `first ${hex()}` } }),
      )
    ).json;
    const t = await browser.open('zh-CN');
    await logIn(t.page, author.handle, author.password);
    await t.page.waitForSelector('#compose-text');
    const postPage = `#/post/${encodeURIComponent(postId)}`;
    const firstShown = t.page.locator('li.comment', { hasText: first.body });
    await show(t.page, postPage, firstShown);

    const seen = await loseFirstAnswer(t.page, /\/api\/posts\/[^/]+\/comments$/);
    await firstShown.getByRole('button', { name: '回复', exact: true }).click();
    const said = `谢谢！只回复一次 ${hex()}`;
    await t.page.getByLabel(`回复 @${other.handle}`).fill(said);
    await t.page.getByRole('button', { name: '评论', exact: true }).click();
    await t.page.getByRole('alert').getByText('可能已经发出，也可能没有').waitFor();
    expect(seen.lostStatus).toBe(201);

    // After a reload: the reply is shown (the API made it), and the box still holds it, as a reply.
    await show(t.page, postPage, t.page.locator('li.comment', { hasText: said }));
    const box = t.page.getByLabel(`回复 @${other.handle}`);
    expect(await box.inputValue()).toBe(said);
    await t.page.getByRole('button', { name: '评论', exact: true }).click();
    await t.page.getByText('评论成功。').waitFor();
    expect(await t.page.getByLabel('发表评论').inputValue()).toBe('');
    expectOneKey(seen.keys);

    const replies = (await commentsOn(postId)).filter((c) => c.body === said);
    expect(replies).toHaveLength(1);
    expect(replies[0]!.replyTo?.id).toBe(first.id);
    expect(await t.page.locator('li.comment', { hasText: said }).count()).toBe(1);
    await show(t.page, postPage, firstShown);
    expect(await t.page.locator('li.comment', { hasText: said }).count()).toBe(1);
    expect(await storedDrafts(t.page)).toEqual([]);
    await t.close();
  });

  it('a post and a repost comment whose answers were lost survive a reload; sent after it, one of each', async () => {
    const original = await setUp(() => api.newUser('lp_o'));
    const originalId = await publish(original.token, `repost me ${hex()}`);
    const handle = uniqueHandle('lp');
    const t = await browser.open('en');
    await signUp(t.page, handle, 'Poster', 'correct horse battery');

    // A post: its answer lost, the page reloaded, the text back in the composer, sent again.
    const posts = await loseFirstAnswer(t.page, /^\/api\/posts$/);
    const text = `Posted once ${hex()}`;
    await t.page.fill('#compose-text', text);
    await t.page.getByRole('button', { name: 'Post', exact: true }).click();
    await t.page.getByRole('alert').getByText('may or may not have been sent').waitFor();
    expect(posts.lostStatus).toBe(201);
    await t.page.reload();
    await t.page.waitForSelector('#compose-text');
    expect(await t.page.inputValue('#compose-text')).toBe(text);
    await t.page.getByRole('button', { name: 'Post', exact: true }).click();
    await t.page.getByText('Posted.').waitFor();
    expectOneKey(posts.keys);
    expect(await t.page.inputValue('#compose-text')).toBe('');
    expect((await postsOf(handle)).filter((p) => p.body === text)).toHaveLength(1);
    expect(await postCard(t.page, text).count()).toBe(1);

    // A repost with a comment, the same way: the form opens again after the reload, with it.
    const card = postCard(t.page, 'repost me');
    await show(t.page, `#/post/${encodeURIComponent(originalId)}`, card);
    const reposts = await loseFirstAnswer(t.page, /\/api\/posts\/[^/]+\/reposts$/);
    await card.getByRole('button', { name: /^Repost \d+$/ }).click();
    const why = `Worth it, once ${hex()}`;
    await t.page.getByLabel('Your comment (optional)').fill(why);
    await card.getByRole('button', { name: 'Repost', exact: true }).click();
    await t.page.getByRole('alert').getByText('may or may not have been sent').waitFor();
    expect(reposts.lostStatus).toBe(201);
    await t.page.reload();
    await card.waitFor();
    expect(await t.page.getByLabel('Your comment (optional)').inputValue()).toBe(why);
    await card.getByRole('button', { name: 'Repost', exact: true }).click();
    await t.page.getByText('Reposted.').waitFor();
    expectOneKey(reposts.keys);
    expect((await postsOf(handle)).filter((p) => p.body === why)).toHaveLength(1);
    expect(await storedDrafts(t.page)).toEqual([]);
    await t.close();
  });

  it('drafts are kept per user: another user signing in sees none of them, a logout removes them, bad stored ones are ignored', async () => {
    const [ann, bob] = [await setUp(() => api.newUser('dr_a')), await setUp(() => api.newUser('dr_b'))];
    const postId = await publish(bob.token, `draft under me ${hex()}`);
    const postPage = `#/post/${encodeURIComponent(postId)}`;
    const t = await browser.open('en');
    const commentBox = t.page.getByLabel('Write a comment');

    await logIn(t.page, ann.handle, ann.password);
    await t.page.waitForSelector('#compose-text');
    const post = `ann's unfinished post ${hex()}`;
    const comment = `ann's unfinished comment ${hex()}`;
    await t.page.fill('#compose-text', post);
    await show(t.page, postPage, commentBox);
    await commentBox.fill(comment);
    // Written once typing pauses.
    await expect
      .poll(() => storedDrafts(t.page))
      .toEqual([`weibo.draft.v1:${ann.handle}:comment:${postId}`, `weibo.draft.v1:${ann.handle}:post`]);

    // ann's session ends without a logout (its cookie gone, as when it expires), and bob signs
    // in on the same browser: none of ann's words show to him.
    await t.context.clearCookies();
    await t.page.reload();
    await t.page.getByRole('link', { name: 'Log in to comment.' }).waitFor({ timeout: 60_000 }); // the reload found no session
    await logIn(t.page, bob.handle, bob.password);
    await t.page.waitForSelector('#compose-text');
    expect(await t.page.inputValue('#compose-text')).toBe('');
    await show(t.page, postPage, commentBox);
    expect(await commentBox.inputValue()).toBe('');

    // bob logs out; ann, back, finds hers; her logout removes them.
    await t.page.getByRole('button', { name: 'Log out' }).click();
    await logIn(t.page, ann.handle, ann.password);
    await t.page.waitForSelector('#compose-text');
    expect(await t.page.inputValue('#compose-text')).toBe(post);
    await show(t.page, postPage, commentBox);
    expect(await commentBox.inputValue()).toBe(comment);
    await t.page.getByRole('button', { name: 'Log out' }).click();
    await t.page.getByText('You have logged out.').waitFor();
    expect(await storedDrafts(t.page)).toEqual([]);

    // Stored drafts that are not ours (broken, another shape, a key the API would refuse), found
    // by a fresh load: the page works, with empty boxes, and they are gone.
    await t.page.evaluate(
      ([me, id]) => {
        const s = (globalThis as unknown as { localStorage: { setItem(k: string, v: string): void } }).localStorage;
        s.setItem(`weibo.draft.v1:${me}:post`, '{"text":"half');
        s.setItem(
          `weibo.draft.v1:${me}:comment:${id}`,
          JSON.stringify({ text: 'bad key', key: 'not a key!', savedAt: Date.now() }),
        );
        s.setItem(`weibo.draft.v1:${me}:repost:${id}`, JSON.stringify({ text: ['x'], key: 'k', savedAt: 'yesterday' }));
        s.setItem(`weibo.draft.v0:${me}:post`, 'an older shape');
      },
      [ann.handle, postId],
    );
    await t.page.reload();
    await logIn(t.page, ann.handle, ann.password);
    await t.page.waitForSelector('#compose-text');
    expect(await t.page.inputValue('#compose-text')).toBe('');
    await show(t.page, postPage, commentBox);
    expect(await commentBox.inputValue()).toBe('');
    expect(await t.page.getByLabel('Your comment (optional)').count()).toBe(0);
    expect(await storedDrafts(t.page)).toEqual([]);
    await t.close();
  });
});
