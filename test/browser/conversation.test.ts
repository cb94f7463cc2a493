// test/browser/conversation.test.ts — the conversation around a post, in Chromium.
// The stories: ann's notifications in tabs — 全部 / @我的 / 评论 / 赞 each show only their kind
// (a reply counts as 评论, a like of ann's comment as 赞); a repost with words shows those words in ann's notification, the
// original's text under them. A 评论 notification opens the post scrolled to that comment,
// marked and focused, even when the comment sits beyond the first page of comments (at 375 px,
// in English); liking it there moves its count, which a reload keeps. A thread (楼中楼) of 3
// replies shows 2 and "共 3 条回复", which opens all 3 in place; a reply in the thread's box joins
// it; a reply's notification opens the post at that reply inside its opened thread (zh, light
// and dark). The users and their actions are made through the API: the pages are the point.
import { randomBytes } from 'node:crypto';
import type { Page } from 'playwright-core';
import { describe, expect, inject, it } from 'vitest';
import { apiClient } from '../support/api.js';
import { expectAccessible, logIn, setUp, show, useBrowser } from '../support/browser.js';
import { eventually } from '../support/eventually.js';

const api = apiClient(inject('apiUrl'));
const browser = useBrowser();
const hex = (n = 3) => randomBytes(n).toString('hex');
type User = Awaited<ReturnType<typeof api.newUser>>;

/** Notifications come through the queue: the settle window plus the poller's long poll, on a loaded machine. */
const DELIVERY_MS = 40_000;

async function publish(token: string, body: string): Promise<string> {
  const key = `conv-${hex(8)}`;
  const res = await setUp(() =>
    api.call('POST', '/posts', { token, body: { body }, headers: { 'idempotency-key': key } }),
  );
  expect([200, 201]).toContain(res.status);
  return res.json.id;
}

async function comment(user: User, postId: string, body: string, replyTo?: string): Promise<string> {
  const key = `conv-${hex(8)}`;
  const res = await setUp(() =>
    api.call('POST', `/posts/${encodeURIComponent(postId)}/comments`, {
      token: user.token,
      body: { body, ...(replyTo ? { replyTo } : {}) },
      headers: { 'idempotency-key': key },
    }),
  );
  expect([200, 201]).toContain(res.status);
  return res.json.id;
}

/** The types of the notifications shown, top to bottom. */
const shownTypes = (page: Page) =>
  page.locator('li.notification').evaluateAll((els) => els.map((e) => e.getAttribute('data-type')));

/** Reloads the notifications page until `ready` holds (delivery is asynchronous). */
async function notificationsUntil(page: Page, ready: () => Promise<void>): Promise<void> {
  await eventually(
    async () => {
      await show(page, '#/notifications', page.getByRole('heading', { level: 1 }));
      await page.locator('li.notification').first().waitFor({ timeout: 10_000 });
      await ready();
    },
    DELIVERY_MS,
    500,
  );
}

/** Picks a tab and waits for its answer. */
async function tab(page: Page, name: string, filter: string): Promise<void> {
  await Promise.all([
    page.waitForResponse((r) => new URL(r.url()).searchParams.get('filter') === filter && r.ok()),
    page.getByRole('button', { name, exact: true }).click(),
  ]);
  expect(await page.getByRole('button', { name, exact: true }).getAttribute('aria-pressed')).toBe('true');
}

describe('conversation: notification tabs, a repost’s words, a comment linked from its notification', () => {
  it('the tabs show one kind each, and a repost with words says its words (zh, 1280 px)', async () => {
    const [ann, bob, carol] = [await api.newUser('ann'), await api.newUser('bob'), await api.newUser('carol')];
    const text = `春天的第一朵花 ${hex()}`;
    const postId = await publish(ann.token, text);
    const words = `说得真好 ${hex()}`;
    const repost = await setUp(() =>
      api.call('POST', `/posts/${encodeURIComponent(postId)}/reposts`, { token: bob.token, body: { comment: words } }),
    );
    expect([200, 201]).toContain(repost.status);
    const like = await setUp(() =>
      api.call('PUT', `/users/${carol.handle}/likes/${encodeURIComponent(postId)}`, { token: carol.token }),
    );
    expect(like.status).toBe(200);
    const first = await comment(carol, postId, `评论一下 ${hex()}`);
    await comment(bob, postId, `回复卡罗尔 ${hex()}`, first);
    await publish(carol.token, `你好 @${ann.handle} ${hex()}`);
    // ann's own comment (no notification to herself), which carol likes: a 赞 of a comment.
    const mine = await comment(ann, postId, `我自己的评论 ${hex()}`);
    const liked = await setUp(() =>
      api.call('PUT', `/posts/${encodeURIComponent(postId)}/comments/${mine}/like`, { token: carol.token }),
    );
    expect(liked.json).toMatchObject({ liked: true, likeCount: 1 });

    const a = await browser.open('zh-CN');
    await a.page.setViewportSize({ width: 1280, height: 900 });
    await logIn(a.page, ann.handle, ann.password);
    await notificationsUntil(a.page, async () =>
      expect((await shownTypes(a.page)).sort()).toEqual([
        'comment',
        'comment',
        'commentLike',
        'like',
        'mention',
        'repost',
      ]),
    );

    // The repost's words, not (only) the original's text; the original under them.
    const reposted = a.page.locator('li.notification[data-type="repost"]');
    expect(await reposted.locator('a.excerpt').textContent()).toBe(words);
    expect(await reposted.locator('.reposted-excerpt').textContent()).toContain(text);
    await expectAccessible(a.page, 'notifications with tabs (zh)');

    await tab(a.page, '@我的', 'mentions');
    await expect.poll(() => shownTypes(a.page)).toEqual(['mention']);
    await tab(a.page, '评论', 'comments');
    // bob's reply is to carol's comment: ann is told of it as a comment on her post.
    await expect.poll(() => shownTypes(a.page)).toEqual(['comment', 'comment']);
    await tab(a.page, '赞', 'likes');
    await expect.poll(() => shownTypes(a.page)).toEqual(['commentLike', 'like']);
    expect(await a.page.locator('li.notification .sentence').first().textContent()).toContain('赞了你的评论');
    await tab(a.page, '全部', 'all');
    // The answer came; the list shows it once rendered.
    await expect.poll(() => a.page.locator('li.notification').count()).toBe(6);
    await a.close();
  });

  it('a comment notification opens the post at that comment, marked and focused, past the first page (en, 375 px)', async () => {
    const [ann, bob, dan] = [await api.newUser('ann'), await api.newUser('bob'), await api.newUser('dan')];
    const text = `A long thread ${hex()}`;
    const postId = await publish(ann.token, text);
    // The comment the notification names is the oldest: newest first, 21 others push it to the
    // second page (by two people: each may comment 20 times a minute).
    const target = `The one to find ${hex()}`;
    const targetId = await comment(bob, postId, target);
    for (let i = 0; i < 21; i++) await comment(i % 2 ? ann : dan, postId, `filler ${i} ${hex()}`);

    const a = await browser.open('en');
    await a.page.setViewportSize({ width: 375, height: 700 });
    await logIn(a.page, ann.handle, ann.password);
    const told = a.page.locator('li.notification[data-type="comment"]').filter({ hasText: target });
    await notificationsUntil(a.page, async () => expect(await told.count()).toBe(1));
    await told.locator('a.excerpt').click();

    const marked = a.page.locator(`li.comment[data-comment-id="${targetId}"]`);
    await eventually(async () => expect(await marked.getAttribute('class')).toContain('targeted'), 20_000, 200);
    expect(new URL(a.page.url()).hash).toBe(`#/post/${encodeURIComponent(postId)}?comment=${targetId}`);
    expect(await marked.locator('.comment-body').textContent()).toBe(target);
    // Scrolled to it, and it holds the focus (keyboard and screen reader land there too).
    await eventually(async () => expect(await marked.isVisible()).toBe(true), 5_000, 100);
    // (Runs in the page; this file is type-checked without DOM types, hence the casts.)
    type Dom = { innerHeight: number; document: { activeElement: unknown } };
    const inView = await marked.evaluate((el) => {
      const r = (el as unknown as { getBoundingClientRect(): { top: number; bottom: number } }).getBoundingClientRect();
      return r.top >= 0 && r.bottom <= (globalThis as unknown as Dom).innerHeight;
    });
    expect(inView).toBe(true);
    expect(await marked.evaluate((el) => (globalThis as unknown as Dom).document.activeElement === el)).toBe(true);
    await expectAccessible(a.page, 'a post at a linked comment (en, 375 px)');

    // ann likes it there: the count moves at once, and a reload (from the API) keeps it.
    const likeButton = marked.getByRole('button', { name: /^Like \d+$/ });
    expect(await likeButton.getAttribute('aria-pressed')).toBe('false');
    await Promise.all([
      a.page.waitForResponse((r) => r.request().method() === 'PUT' && /\/like$/.test(new URL(r.url()).pathname)),
      likeButton.click(),
    ]);
    expect(await likeButton.getAttribute('aria-label')).toBe('Like 1');
    await a.page.reload();
    const again = a.page
      .locator(`li.comment[data-comment-id="${targetId}"]`)
      .getByRole('button', { name: /^Like \d+$/ });
    await again.waitFor();
    expect([await again.getAttribute('aria-label'), await again.getAttribute('aria-pressed')]).toEqual([
      'Like 1',
      'true',
    ]);
    await a.close();
  });

  it('a thread: 2 replies and 共 3 条回复, which opens all 3; a reply in it joins it; a reply’s notification lands on it inside the thread (zh, light and dark)', async () => {
    const [ann, bob, carol, dan] = [
      await api.newUser('ann'),
      await api.newUser('bob'),
      await api.newUser('carol'),
      await api.newUser('dan'),
    ];
    const postId = await publish(ann.token, `楼中楼 ${hex()}`);
    const root = await comment(bob, postId, `楼主说 ${hex()}`);
    const replies = [`第一条回复 ${hex()}`, `第二条回复 ${hex()}`, `第三条回复 ${hex()}`];
    await comment(carol, postId, replies[0]!, root);
    await comment(dan, postId, replies[1]!, root);
    const third = await comment(carol, postId, replies[2]!, root);
    const postPage = `#/post/${encodeURIComponent(postId)}`;
    const bodies = (thread: ReturnType<Page['locator']>) =>
      thread.locator('li.comment .comment-body').evaluateAll((els) => els.map((e) => e.textContent));

    const b = await browser.open('zh-CN');
    await logIn(b.page, bob.handle, bob.password);
    const thread = b.page.locator('li.comment-thread');
    await show(b.page, postPage, thread);
    // The list holds the top-level comment only; its thread shows the oldest two and the count.
    expect(await b.page.locator('ol.comment-list > li.comment').count()).toBe(1);
    expect(await bodies(thread)).toEqual(replies.slice(0, 2));
    await thread.getByRole('button', { name: '共 3 条回复' }).click();
    await eventually(async () => expect(await bodies(thread)).toEqual(replies), 10_000, 100);
    // Replying in the thread's box: the reply joins the thread, answering bob.
    const said = `在楼里回复 ${hex()}`;
    await thread.getByLabel(`在此楼回复 @${bob.handle}`).fill(said);
    await thread.getByRole('button', { name: '评论', exact: true }).click();
    await eventually(async () => expect(await bodies(thread)).toEqual([...replies, said]), 10_000, 100);
    expect(await b.page.locator('ol.comment-list > li.comment').count()).toBe(1);
    await expectAccessible(b.page, 'a post with an open thread (zh, light)');
    // The API agrees: 4 replies under the root.
    const listed = await api.call('GET', `/posts/${encodeURIComponent(postId)}/comments`);
    expect(listed.json.comments.map((c: { replyCount: number }) => c.replyCount)).toEqual([4]);
    await b.close();

    // bob is told of carol's third reply; its link opens the thread at it (dark).
    const d = await browser.open('zh-CN', { colorScheme: 'dark' });
    await logIn(d.page, bob.handle, bob.password);
    const told = d.page.locator('li.notification[data-type="reply"]').filter({ hasText: replies[2]! });
    await notificationsUntil(d.page, async () => expect(await told.count()).toBe(1));
    await told.locator('a.excerpt').click();
    const marked = d.page.locator(`li.comment-thread li.comment[data-comment-id="${third}"]`);
    await eventually(async () => expect(await marked.getAttribute('class')).toContain('targeted'), 20_000, 200);
    expect(new URL(d.page.url()).hash).toBe(`${postPage}?comment=${third}`);
    type Dom = { document: { activeElement: unknown } };
    await eventually(
      async () =>
        expect(await marked.evaluate((el) => (globalThis as unknown as Dom).document.activeElement === el)).toBe(true),
      5_000,
      100,
    );
    await expectAccessible(d.page, 'a post at a reply inside its thread (zh, dark)');
    await d.close();
  });
});
