// test/browser/shell.test.ts — the shell around the pages, in Chromium (issue 21 items 3, 5, 12):
// on a phone a slim header and a bottom tab bar whose labels never wrap, and every control at
// least 44 × 44 px, in both languages; on a desktop three columns (navigation, feed, topics and
// who to follow); the reaction bar's four equal cells; long posts folded with "展开全文"; the
// "⋯" menu and the page's own confirmation dialog (never the browser's); placeholder cards while
// the first page loads; Back to a long home timeline keeps its pages and the reader's place; a
// post shown twice (itself, and inside a repost) moves together; an unknown profile costs 2 requests.
import { randomBytes } from 'node:crypto';
import type { Page } from 'playwright-core';
import { describe, expect, inject, it } from 'vitest';
import { apiClient } from '../support/api.js';
import { eventually } from '../support/eventually.js';
import { answerDialog, expectAccessible, logIn, setUp, useBrowser, type Locale } from '../support/browser.js';

const api = apiClient(inject('apiUrl'));
const browser = useBrowser();
const hex = () => randomBytes(3).toString('hex');

type User = Awaited<ReturnType<typeof api.newUser>>;
const follow = (a: User, b: User) =>
  setUp(() => api.call('PUT', `/users/${a.handle}/following/${b.handle}`, { token: a.token }));
const publish = (u: User, body: string) =>
  setUp(() =>
    api.call('POST', '/posts', {
      token: u.token,
      body: { body },
      headers: { 'idempotency-key': `shell-${hex()}${hex()}` },
    }),
  );
const timelineSize = async (u: User) =>
  (await api.call('GET', `/users/${u.handle}/timeline?limit=50`, { token: u.token })).json.posts.length as number;
const LONG = Array.from({ length: 14 }, (_, i) => `第 ${i + 1} 行：一条很长的微博。`).join('\n');

/**
 * Controls smaller than 44 × 44 px on the page as drawn. Links inside running text (a mention in
 * a post, a link in a sentence) are the exception WCAG 2.5.5 makes; hidden and off-screen
 * elements (the skip link until focused) are not drawn for the finger.
 */
const smallTargets = (page: Page): Promise<string[]> =>
  page.evaluate(`(() => {
    const out = [];
    for (const el of document.querySelectorAll('button, select, a[href], input[type=checkbox], input[type=radio]')) {
      const r = el.getBoundingClientRect();
      if (r.width === 0 || r.height === 0 || r.bottom < 0 || el.closest('.sr-only, .skip-link')) continue;
      if (el.tagName === 'A' && el.closest('p, .excerpt')) continue; // in running text
      if (r.width < 44 || r.height < 44) out.push((el.getAttribute('aria-label') || el.textContent || el.className).trim().slice(0, 40) + ' ' + Math.round(r.width) + 'x' + Math.round(r.height));
    }
    return out;
  })()`);

describe('the shell, in Chromium', () => {
  it('on a phone: a slim header, a bottom tab bar that never wraps, 44 px targets everywhere, no sideways scroll (both languages)', async () => {
    const [me, friend] = [await api.newUser('sh_me'), await api.newUser('sh_friend')];
    await follow(me, friend);
    await publish(friend, LONG);
    await publish(friend, `short one #话题${hex()}# @${me.handle}`);
    await eventually(async () => expect(await timelineSize(me)).toBe(2));

    for (const locale of ['zh-CN', 'en'] as Locale[]) {
      const t = await browser.open(locale);
      await t.page.setViewportSize({ width: 375, height: 812 });
      await logIn(t.page, me.handle, me.password);
      await t.page.locator('article.post').nth(1).waitFor();

      const header = (await t.page.locator('header.site-head').boundingBox())!;
      expect(header.height).toBeLessThanOrEqual(60);
      const nav = (await t.page.locator('nav.site-nav').boundingBox())!;
      expect(Math.round(nav.y + nav.height)).toBe(812); // the tab bar, at the bottom
      expect(nav.width).toBe(375);
      // Every label on one line.
      const wrapped = await t.page.evaluate(`[...document.querySelectorAll('.site-nav .label')]
        .filter((l) => l.getBoundingClientRect().height > parseFloat(getComputedStyle(l).lineHeight) * 1.5).map((l) => l.textContent)`);
      expect(wrapped).toEqual([]);
      // … and none cut short.
      const cut = await t.page.evaluate(`[...document.querySelectorAll('.site-nav .label')]
        .filter((l) => l.getClientRects().length > 0 && l.scrollWidth > l.clientWidth).map((l) => l.textContent)`);
      expect(cut).toEqual([]);

      expect(await smallTargets(t.page)).toEqual([]);
      // The post's "⋯" menu open, on the post page (comment box, order buttons, who liked).
      await t.page
        .locator('article.post')
        .first()
        .getByRole('link', { name: /^(评论|Comments) / })
        .click();
      await t.page.locator('.comment-order').waitFor();
      expect(await smallTargets(t.page)).toEqual([]);
      await t.page.goto(`/#/u/${friend.handle}`);
      await t.page.locator('article.post').first().waitFor();
      await t.page
        .getByRole('button', {
          name: locale === 'en' ? `More actions for @${friend.handle}` : `对 @${friend.handle} 的更多操作`,
        })
        .click();
      await t.page.getByRole('menu').waitFor();
      expect(await smallTargets(t.page)).toEqual([]);
      expect(await t.page.evaluate('document.documentElement.scrollWidth')).toBeLessThanOrEqual(375);
      await expectAccessible(t.page, `profile with the menu open at 375 (${locale})`);
      await t.close();
    }
  });

  it('on a desktop: three columns with who to follow; equal reaction cells; a long post folds; ⋯ and the page’s own dialog', async () => {
    const [me, friend, theirs] = [
      await api.newUser('sd_me'),
      await api.newUser('sd_friend'),
      await api.newUser('sd_theirs'),
    ];
    await follow(me, friend);
    await follow(friend, theirs);
    await publish(friend, LONG);
    await publish(me, `mine to keep ${hex()}`);
    await eventually(async () => expect(await timelineSize(me)).toBe(2));

    const t = await browser.open('zh-CN');
    let nativeDialogs = 0;
    t.page.on('dialog', (d) => {
      nativeDialogs++;
      void d.dismiss();
    });
    await t.page.setViewportSize({ width: 1280, height: 800 });
    await logIn(t.page, me.handle, me.password);
    const suggested = t.page.locator('aside li', { hasText: `@${theirs.handle}` });
    await suggested.waitFor();

    // Navigation | feed | sidebar, side by side.
    const box = async (s: string) => (await t.page.locator(s).boundingBox())!;
    const [nav, main, aside] = [await box('nav.site-nav'), await box('main'), await box('aside.sidebar')];
    expect(nav.x + nav.width).toBeLessThanOrEqual(main.x);
    expect(main.x + main.width).toBeLessThanOrEqual(aside.x);
    expect(Math.abs(nav.y - aside.y)).toBeLessThan(40);
    await t.page.getByRole('heading', { name: '热门话题' }).waitFor();
    await expectAccessible(t.page, 'home, three columns (zh)');

    // Who to follow: followed, gone from the list, and so in the API.
    await suggested.getByRole('button', { name: `关注 @${theirs.handle}` }).click();
    await suggested.waitFor({ state: 'detached' });
    expect((await api.call('GET', `/users/${me.handle}/following/${theirs.handle}`)).json.following).toBe(true);

    // The reaction bar: four cells of one width (repost, comments, like, bookmark).
    const long = t.page.locator('article.post', { hasText: '第 1 行' });
    const cells = await long
      .locator('.reactions > li')
      .evaluateAll((els) => els.map((e) => Math.round(e.getBoundingClientRect().width)));
    expect(cells).toHaveLength(4);
    expect(new Set(cells).size).toBe(1);

    // The long post folds at six lines; 展开全文 shows it all, in place.
    const body = long.locator('.post-body');
    const lineHeight = await body.evaluate((e) =>
      parseFloat(e.ownerDocument.defaultView!.getComputedStyle(e).lineHeight),
    );
    expect((await body.boundingBox())!.height).toBeLessThanOrEqual(lineHeight * 6.5);
    await long.getByRole('button', { name: '展开全文' }).click();
    expect((await body.boundingBox())!.height).toBeGreaterThan(lineHeight * 13);
    expect(await long.getByRole('button', { name: '展开全文' }).count()).toBe(0);

    // My post's ⋯: Esc closes the menu, the focus back on ⋯; Delete asks in the page, Cancel keeps it.
    const mine = t.page.locator('article.post', { hasText: 'mine to keep' });
    const more = mine.getByRole('button', { name: '更多操作', exact: true });
    await more.click();
    await t.page.getByRole('menuitem', { name: '删除' }).waitFor();
    await t.page.keyboard.press('Escape');
    await t.page.getByRole('menu').waitFor({ state: 'detached' });
    expect(await more.evaluate((e) => e === e.ownerDocument.activeElement)).toBe(true);
    await more.click();
    await t.page.getByRole('menuitem', { name: '删除' }).click();
    expect(await answerDialog(t.page, '取消')).toContain('确定删除这条微博吗');
    expect(await mine.count()).toBe(1);
    expect(await more.evaluate((e) => e === e.ownerDocument.activeElement)).toBe(true);
    // Someone else's post offers mute and block instead of delete.
    await long.getByRole('button', { name: '更多操作', exact: true }).click();
    expect(await t.page.getByRole('menuitem').allTextContents()).toEqual([
      `屏蔽 @${friend.handle}`,
      `拉黑 @${friend.handle}`,
    ]);
    await t.page.keyboard.press('Escape');
    expect(nativeDialogs).toBe(0);
    await t.close();
  });

  it('shows placeholder cards while the first page loads, then the posts in their place', async () => {
    const [me, friend] = [await api.newUser('sp_me'), await api.newUser('sp_friend')];
    await follow(me, friend);
    await publish(friend, `placeholder ${hex()}`);
    await eventually(async () => expect(await timelineSize(me)).toBe(1));
    const t = await browser.open('en');
    await logIn(t.page, me.handle, me.password);
    await t.page.locator('article.post').waitFor();
    // The next timeline answer is held until the placeholders have been seen.
    let release!: () => void;
    const held = new Promise<void>((r) => (release = r));
    await t.page.route(/\/api\/users\/[^/]+\/timeline\?/, async (route) => {
      await held;
      return route.continue();
    });
    await t.page.reload();
    await t.page.locator('.post.placeholder').first().waitFor();
    expect(await t.page.locator('.post.placeholder').count()).toBe(3);
    expect(await t.page.locator('article.post').count()).toBe(0);
    release();
    await t.page.locator('article.post').waitFor();
    expect(await t.page.locator('.post.placeholder').count()).toBe(0);
    await t.close();
  });

  it('Back to a long home timeline: the loaded pages and the place are kept, nothing is fetched again', async () => {
    const [me, friend] = [await api.newUser('bk_me'), await api.newUser('bk_friend')];
    await follow(me, friend);
    for (let i = 1; i <= 30; i++) await publish(friend, `back test ${String(i).padStart(2, '0')}`);
    await eventually(async () => expect(await timelineSize(me)).toBe(30));

    const t = await browser.open('en');
    await logIn(t.page, me.handle, me.password);
    await t.page.locator('article.post').first().waitFor();
    // Scroll down until the 25th card is there (the second page loads on the way).
    const card25 = t.page.locator('article.post').nth(24);
    await eventually(async () => {
      await t.page.mouse.wheel(0, 2000);
      expect(await card25.count()).toBe(1);
    });
    await card25.scrollIntoViewIfNeeded();
    const text25 = (await card25.locator('.post-body').textContent())!;
    const top25 = (await card25.boundingBox())!.y;
    const loaded = await t.page.locator('article.post').count();
    let timelineAsked = 0;
    t.page.on(
      'request',
      (r) => void (/\/timeline(\?|$)/.test(new URL(r.url()).pathname + new URL(r.url()).search) && timelineAsked++),
    );

    await card25.locator('a.when').click();
    await t.page.getByRole('heading', { name: 'Post' }).waitFor();
    await t.page.goBack();
    const again = t.page.locator('article.post', { hasText: text25 });
    await again.waitFor();
    expect(await t.page.locator('article.post').count()).toBe(loaded);
    await expect.poll(async () => Math.round((await again.boundingBox())!.y)).toBe(Math.round(top25));
    expect(timelineAsked).toBe(0);
    // A new visit (a link, not Back) starts afresh: asked again, at the top.
    await t.page.getByRole('link', { name: 'Trending' }).click();
    await t.page.getByRole('heading', { name: 'Trending topics' }).first().waitFor();
    await t.page.getByRole('link', { name: 'Home' }).click();
    await t.page.locator('article.post').first().waitFor();
    expect(timelineAsked).toBe(1);
    expect(await t.page.evaluate('scrollY')).toBe(0);
    await t.close();
  });

  it('one post shown twice moves together (its card and a repost embedding it); an unknown profile costs two requests', async () => {
    const [me, author, reposter] = [
      await api.newUser('sy_me'),
      await api.newUser('sy_author'),
      await api.newUser('sy_rep'),
    ];
    await follow(me, author);
    await follow(me, reposter);
    const original = (await publish(author, `the original ${hex()}`)).json.id as string;
    await setUp(() =>
      api.call('POST', `/posts/${original}/reposts`, {
        token: reposter.token,
        body: { comment: 'look at this' },
        headers: { 'idempotency-key': `sy-${hex()}` },
      }),
    );
    await eventually(async () => expect(await timelineSize(me)).toBe(2));

    const t = await browser.open('en');
    await logIn(t.page, me.handle, me.password);
    const repost = t.page.locator('article.post', { hasText: 'look at this' });
    const own = t.page.locator(`article.post[data-post-id="${original}"]`);
    await repost.locator('.original-counts').waitFor();
    expect(await repost.locator('.original-counts').textContent()).toBe('1 repost · 0 comments · 0 likes');
    await own.getByRole('button', { name: 'Like 0' }).click();
    await own.getByRole('button', { name: 'Like 1' }).waitFor();
    // Without a reload: the list's copy of the post moves with the card (the same render, or the next).
    await expect
      .poll(() => repost.locator('.original-counts').textContent(), { timeout: 5_000 })
      .toBe('1 repost · 0 comments · 1 like');

    // An unknown user: the profile and its posts are asked (in parallel), nothing more.
    const asked: string[] = [];
    t.page.on(
      'request',
      (r) => void (new URL(r.url()).pathname.startsWith('/api/users/') && asked.push(new URL(r.url()).pathname)),
    );
    const nobody = `nobody_${hex()}`;
    await t.page.goto(`/#/u/${nobody}`);
    await t.page.getByRole('alert').waitFor();
    await expect
      .poll(() => asked.filter((p) => p.includes(nobody)).sort())
      .toEqual([`/api/users/${nobody}`, `/api/users/${nobody}/posts`]);
    await t.close();
  });
});
