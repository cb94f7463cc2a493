// test/browser/client-defects.test.ts — what a reader sees on screens that once showed it wrong,
// in Chromium: link-style destructive buttons (注销账号…, a picture's 移除) read clearly at 1280
// and 375 px; following from 找人 turns the button and moves the follower count at once; counts
// read "1 关注" / "1 Follower" with the right plural in English; English text is set in a Latin
// font (a narrow apostrophe, not the CJK font's full-width one); the lists reached from a profile
// lead back to it with a labelled link; a post nobody liked offers no "0 likes" link.
// biome-ignore-all lint/performance/useDomNodeTextContent: a locator's innerText(), the rendered text these assertions mean, not the DOM property
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Locator, Page } from 'playwright-core';
import sharp from 'sharp';
import { afterAll, describe, expect, inject, it } from 'vitest';
import { apiClient } from '../support/api.js';
import { expectAccessible, type Locale, logIn, postCard, setUp, show, useBrowser } from '../support/browser.js';
import { eventually } from '../support/eventually.js';

const api = apiClient(inject('apiUrl'));
const browser = useBrowser();
const dir = mkdtempSync(join(tmpdir(), 'weibo-defects-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

type User = Awaited<ReturnType<typeof api.newUser>>;
const WIDTHS = [1280, 375] as const;

const follow = (u: User, target: User) =>
  setUp(() => api.call('PUT', `/users/${u.handle}/following/${target.handle}`, { token: u.token }));
/** Publishes through the API with an idempotency key, so a retried setup never posts twice. */
async function publish(u: User, body: string): Promise<string> {
  const key = `defects-${randomBytes(8).toString('hex')}`;
  const res = await setUp(() =>
    api.call('POST', '/posts', { token: u.token, body: { body }, headers: { 'idempotency-key': key } }),
  );
  expect([200, 201]).toContain(res.status);
  return res.json.id;
}
/** Waits until the API's profile of `u` has these counts (the page is asked only then). */
const countsAre = (u: User, counts: { following: number; followers: number; posts: number }) =>
  eventually(async () =>
    expect((await api.call('GET', `/users/${u.handle}`, { token: u.token })).json).toMatchObject(counts),
  );

/** A browser page logged in as `u`, in `locale`. */
async function as(u: User, locale: Locale) {
  const t = await browser.open(locale);
  await logIn(t.page, u.handle, u.password);
  await t.page.waitForSelector('#compose-text');
  return t;
}

/**
 * The WCAG contrast ratio of an element's text against what is drawn behind it: its own
 * background, or the nearest ancestor's that is not transparent. (Read in the page: this file
 * has no DOM types.)
 */
const contrastOf = (target: Locator): Promise<number> =>
  target.evaluate((el: unknown) => {
    type Style = { color: string; backgroundColor: string };
    type Node = { parentElement: Node | null };
    const style = (n: Node) => (globalThis as unknown as { getComputedStyle(n: Node): Style }).getComputedStyle(n);
    const rgba = (s: string) => {
      const [r = 0, g = 0, b = 0, a = 1] = (s.match(/[\d.]+/g) ?? []).map(Number);
      return { r, g, b, a };
    };
    const fg = rgba(style(el as Node).color);
    let bg = { r: 255, g: 255, b: 255, a: 1 };
    for (let n: Node | null = el as Node; n; n = n.parentElement) {
      const c = rgba(style(n).backgroundColor);
      if (c.a > 0) {
        bg = c;
        break;
      }
    }
    const channel = (v: number) => {
      const s = v / 255;
      return s <= 0.03928 ? s / 12.92 : ((s + 0.055) / 1.055) ** 2.4;
    };
    const lum = (c: { r: number; g: number; b: number }) =>
      0.2126 * channel(c.r) + 0.7152 * channel(c.g) + 0.0722 * channel(c.b);
    const [hi, lo] = [lum(fg), lum(bg)].sort((x, y) => y - x) as [number, number];
    return Math.round(((hi + 0.05) / (lo + 0.05)) * 100) / 100;
  });

/** The counts under a profile's name as a reader sees them, e.g. ["1 关注", "1 粉丝", "1 微博"]. */
const profileCounts = (page: Page) =>
  page
    .locator('header.profile ul.counts li')
    .evaluateAll((lis) => lis.map((li) => (li as unknown as { innerText: string }).innerText.trim()));

describe('the web client shows what it means, in Chromium', () => {
  it('注销账号… and a picture’s 移除 are readable text, not red boxes (1280 and 375 px)', async () => {
    const me = await api.newUser('rd');
    const png = join(dir, 'square.png');
    await sharp({ create: { width: 64, height: 64, channels: 3, background: { r: 30, g: 120, b: 200 } } })
      .png()
      .toFile(png);
    const t = await as(me, 'zh-CN');
    for (const width of WIDTHS) {
      await t.page.setViewportSize({ width, height: 900 });
      const leave = t.page.getByRole('button', { name: '注销账号…' });
      await show(t.page, '#/settings', leave);
      expect.soft(await contrastOf(leave), `注销账号… at ${width} px`).toBeGreaterThanOrEqual(4.5);

      await show(t.page, '#/', t.page.locator('#compose-text'));
      await t.page.setInputFiles('#compose-pictures', [png]);
      const remove = t.page.getByRole('button', { name: '移除 图片 1' });
      await remove.waitFor();
      expect.soft(await contrastOf(remove), `移除 at ${width} px`).toBeGreaterThanOrEqual(4.5);
      await remove.click();
      await expect.poll(() => t.page.locator('li.picture-item').count()).toBe(0);
    }
    await t.close();
  });

  it('following from 找人 turns the button to 取消关注 / Unfollow and moves the follower count at once', async () => {
    const [ann, bob] = [await api.newUser('sf_a'), await api.newUser('sf_b')];
    for (const [reader, other, locale, words] of [
      [ann, bob, 'zh-CN', { follow: '关注', unfollow: '取消关注', one: '1 粉丝', none: '0 粉丝' }],
      [bob, ann, 'en', { follow: 'Follow', unfollow: 'Unfollow', one: '1 follower', none: '0 followers' }],
    ] as const) {
      const t = await as(reader, locale);
      const row = t.page.locator('ul.found li').filter({ hasText: `@${other.handle}` });
      await show(t.page, `#/search/${other.handle}`, row);
      expect(await row.innerText()).toContain(words.none);
      const button = row.locator('button[aria-pressed]'); // the follow button (a 分组 picker joins it once following)
      expect((await button.innerText()).trim()).toBe(words.follow);

      await Promise.all([
        t.page.waitForResponse((r) => r.request().method() === 'PUT' && /\/following\//.test(r.url())),
        button.click(),
      ]);
      await expect.poll(async () => (await button.innerText()).trim(), { timeout: 5_000 }).toBe(words.unfollow);
      expect(await button.getAttribute('aria-pressed')).toBe('true');
      expect(await row.innerText(), 'the count moved without a reload').toContain(words.one);
      await expectAccessible(t.page, `found and followed (${locale})`);

      // Pressed again it unfollows, and says so the same way.
      await Promise.all([
        t.page.waitForResponse((r) => r.request().method() === 'DELETE' && /\/following\//.test(r.url())),
        button.click(),
      ]);
      await expect.poll(async () => (await button.innerText()).trim(), { timeout: 5_000 }).toBe(words.follow);
      expect(await row.innerText()).toContain(words.none);
      await t.close();
    }
  });

  it('counts read "1 关注" and "1 Follower" / "2 Followers": a space, and English singular or plural', async () => {
    const [ann, bob, cat] = [await api.newUser('ct_a'), await api.newUser('ct_b'), await api.newUser('ct_c')];
    await follow(ann, bob);
    await follow(bob, ann);
    const postId = await publish(ann, 'one post');
    await setUp(() => api.call('PUT', `/users/${bob.handle}/likes/${postId}`, { token: bob.token }));
    await countsAre(ann, { following: 1, followers: 1, posts: 1 });

    const zh = await as(ann, 'zh-CN');
    const en = await as(ann, 'en');
    const counts = (page: Page) => page.locator('header.profile ul.counts');
    for (const width of WIDTHS) {
      await zh.page.setViewportSize({ width, height: 900 });
      await en.page.setViewportSize({ width, height: 900 });
      await show(zh.page, `#/u/${ann.handle}`, counts(zh.page));
      expect(await profileCounts(zh.page), `zh at ${width} px`).toEqual(['1 关注', '1 粉丝', '1 微博']);
      await show(en.page, `#/u/${ann.handle}`, counts(en.page));
      expect(await profileCounts(en.page), `en at ${width} px`).toEqual(['1 Following', '1 Follower', '1 Post']);
    }

    // One like: its link on the post's page says so in the singular.
    const liked = en.page.locator('a.like-count');
    await show(en.page, `#/post/${postId}`, liked);
    expect((await liked.innerText()).trim()).toBe('1 like — see who');
    await show(zh.page, `#/post/${postId}`, zh.page.locator('a.like-count'));
    expect((await zh.page.locator('a.like-count').innerText()).trim()).toBe('1 人赞过，查看是谁');

    // A second follower and a second post: English turns plural; 找人 counts the same way.
    await follow(cat, ann);
    await publish(ann, 'two posts');
    await countsAre(ann, { following: 1, followers: 2, posts: 2 });
    await show(en.page, `#/u/${ann.handle}`, counts(en.page));
    expect(await profileCounts(en.page)).toEqual(['1 Following', '2 Followers', '2 Posts']);
    const found = (handle: string) => en.page.locator('ul.found li').filter({ hasText: `@${handle}` });
    await show(en.page, `#/search/${ann.handle}`, found(ann.handle));
    expect(await found(ann.handle).innerText()).toContain('2 followers');
    await show(en.page, `#/search/${bob.handle}`, found(bob.handle));
    expect(await found(bob.handle).innerText()).toContain('1 follower');
    expect(await found(bob.handle).innerText()).not.toContain('1 followers');
    await zh.close();
    await en.close();
  });

  it('English is set in a Latin font: "You’ve reached the end." has a narrow apostrophe, not a full-width one', async () => {
    const me = await api.newUser('lf');
    await publish(me, 'a single post');
    const t = await as(me, 'en');
    const end = t.page.locator('.list-end');
    await show(t.page, `#/u/${me.handle}`, end);
    expect((await end.innerText()).trim()).toBe('You’ve reached the end.');
    // The apostrophe's drawn width, in ems of the text's size: about 0.3 in a Latin font, 1 in a CJK one.
    const width = await end.evaluate((el: unknown) => {
      type Text = { textContent: string };
      const d = (globalThis as unknown as { document: { createRange(): Range } }).document;
      type Range = {
        setStart(n: Text, i: number): void;
        setEnd(n: Text, i: number): void;
        getBoundingClientRect(): { width: number };
      };
      const node = (el as { firstChild: Text }).firstChild;
      const at = node.textContent.indexOf('’');
      const range = d.createRange();
      range.setStart(node, at);
      range.setEnd(node, at + 1);
      const size = Number.parseFloat(
        (globalThis as unknown as { getComputedStyle(e: unknown): { fontSize: string } }).getComputedStyle(el).fontSize,
      );
      return range.getBoundingClientRect().width / size;
    });
    expect(width, 'the apostrophe’s width in ems').toBeLessThan(0.5);
    await t.close();
  });

  it('following, followers, blocked and muted lists lead back with a labelled link, in zh and en', async () => {
    const me = await api.newUser('bk');
    for (const [locale, back] of [
      ['zh-CN', `返回 @${me.handle} 的主页`],
      ['en', `Back to @${me.handle}`],
    ] as const) {
      const t = await as(me, locale);
      for (const hash of [`#/u/${me.handle}/followers`, `#/u/${me.handle}/following`, '#/blocks', '#/mutes']) {
        const link = t.page.getByRole('link', { name: back, exact: true });
        await show(t.page, hash, t.page.locator('h1#page-title'));
        await link.waitFor({ timeout: 5_000 });
        expect((await link.innerText()).trim(), hash).toBe(`← ${back}`);
        // No bare "@handle" link on top of the list any more.
        expect(
          await t.page
            .locator('main')
            .getByRole('link', { name: `@${me.handle}`, exact: true })
            .count(),
        ).toBe(0);
      }
      await expectAccessible(t.page, `muted users with the way back (${locale})`);
      await t.page.getByRole('link', { name: back, exact: true }).click();
      await t.page.locator('header.profile').waitFor();
      expect(new URL(t.page.url()).hash).toBe(`#/u/${me.handle}`);
      await t.close();
    }
  });

  it('a post nobody liked offers no "0 likes" link; the first like brings the link', async () => {
    const me = await api.newUser('nl');
    const postId = await publish(me, 'nobody liked this yet');
    for (const [locale, none, one, likeName] of [
      ['zh-CN', '还没有人赞', '1 人赞过，查看是谁', /^赞 0$/],
      ['en', 'No likes yet', '1 like — see who', /^Like 0$/],
    ] as const) {
      const t = await as(me, locale);
      const stats = t.page.locator('p.post-stats');
      await show(t.page, `#/post/${postId}`, stats);
      expect((await stats.innerText()).trim()).toBe(none);
      expect(await stats.getByRole('link').count()).toBe(0);
      await expectAccessible(t.page, `a post without likes (${locale})`);

      // Liked: now there is someone to see.
      await Promise.all([
        t.page.waitForResponse((r) => r.request().method() === 'PUT' && /\/likes\//.test(r.url())),
        postCard(t.page, 'nobody liked').getByRole('button', { name: likeName }).click(),
      ]);
      await stats.getByRole('link', { name: one }).waitFor({ timeout: 5_000 });
      await Promise.all([
        t.page.waitForResponse((r) => r.request().method() === 'DELETE' && /\/likes\//.test(r.url())),
        postCard(t.page, 'nobody liked')
          .getByRole('button', { name: /^(赞|Like) 1$/ })
          .click(),
      ]);
      await expect.poll(async () => (await stats.innerText()).trim()).toBe(none);
      await t.close();
    }
  });
});
