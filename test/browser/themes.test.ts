// test/browser/themes.test.ts — the client's looks in Chromium: every page in the dark theme
// (the system's dark, emulated) with axe clean, in 中文 at a phone's width and in English at a
// desktop's; the user's choice (data-theme) wins over the system both ways; the header stays one
// line at 375 px in both languages, its 找人 an icon button that opens the field; and the
// visitor's first screen (logged out, #/): the way in and what is trending, with its posts.
import { randomBytes } from 'node:crypto';
import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, inject, it } from 'vitest';
import { apiClient } from '../support/api.js';
import { expectAccessible, logIn, screenshot, setUp, show, useBrowser, type Locale } from '../support/browser.js';
import { eventually } from '../support/eventually.js';

const api = apiClient(inject('apiUrl'));
const browser = useBrowser();

type User = Awaited<ReturnType<typeof api.newUser>>;
let me: User;
let friend: User;
let topic: string;
let friendPost: string;
let myPost: string;

/** The story every page needs, through the API: a follow each way, posts with a topic, a comment,
 *  a like, an edit, a bookmark, a block and a mute. */
beforeAll(async () => {
  const [a, b, c, d] = await Promise.all(['th_me', 'th_fr', 'th_bl', 'th_mu'].map((p) => setUp(() => api.newUser(p))));
  [me, friend] = [a!, b!];
  topic = `夜色${randomBytes(3).toString('hex')}`;
  const put = (path: string, token: string) => setUp(() => api.call('PUT', path, { token }));
  await put(`/users/${me.handle}/following/${friend.handle}`, me.token);
  await put(`/users/${friend.handle}/following/${me.handle}`, friend.token);
  const publish = async (u: User, body: string) => {
    const res = await setUp(() => api.call('POST', '/posts', { token: u.token, body: { body } }));
    expect(res.status).toBe(201);
    return res.json.id as string;
  };
  // Several posts on the topic, so it is among the few the visitor's screen shows.
  friendPost = await publish(friend, `#${topic}# 晚上的城市很安静 🌙`);
  for (let i = 0; i < 3; i++) await publish(i % 2 ? me : friend, `#${topic}# 夜跑第 ${i + 1} 天`);
  myPost = await publish(me, `我的第一条微博 #${topic}#`);
  expect(
    (
      await setUp(() =>
        api.call('PATCH', `/posts/${myPost}`, {
          token: me.token,
          headers: { 'if-match': '"0"' },
          body: { body: `我的第一条微博（改过）#${topic}#` },
        }),
      )
    ).status,
  ).toBe(200);
  await put(`/users/${friend.handle}/likes/${myPost}`, friend.token);
  await setUp(() => api.call('POST', `/posts/${myPost}/comments`, { token: friend.token, body: { body: '欢迎！' } }));
  await put(`/users/${me.handle}/bookmarks/${friendPost}`, me.token);
  await put(`/users/${me.handle}/blocks/${c!.handle}`, me.token);
  await put(`/users/${me.handle}/mutes/${d!.handle}`, me.token);
  // Fanned out, counted, notified: the pages below read it all.
  await eventually(async () => {
    expect((await api.call('GET', `/users/${me.handle}/timeline`, { token: me.token })).json.posts.length).toBe(5);
    const trending = (await api.call('GET', '/topics/trending')).json.topics as { name: string }[];
    expect(trending.map((x) => x.name)).toContain(topic);
    const notified = await api.call('GET', `/users/${me.handle}/notifications`, { token: me.token });
    expect(notified.json.notifications.length).toBeGreaterThanOrEqual(2); // the follow, the like, the comment
  }, 60_000);
}, 120_000);

/** Every page of the client, ready when its selector shows; the logged-out ones first. */
const pages = (): [name: string, hash: string, ready: string, loggedIn: boolean][] => [
  ['visitor', '#/', '.visitor-trending article.post', false],
  ['login', '#/login', '#login-handle', false],
  ['register', '#/register', '#reg-handle', false],
  ['home', '#/', 'article.post', true],
  ['post', `#/post/${encodeURIComponent(myPost)}`, 'li.comment', true],
  ['likers', `#/post/${encodeURIComponent(myPost)}/likes`, 'ul.users li', true],
  ['history', `#/post/${encodeURIComponent(myPost)}/history`, 'ol.versions li', true],
  ['profile', `#/u/${friend.handle}`, 'article.post', true],
  ['followers', `#/u/${me.handle}/followers`, 'ul.users li', true],
  ['notifications', '#/notifications', 'li.notification', true],
  ['trending', '#/topics', 'ol.trending li', true],
  ['topic', `#/topics/${encodeURIComponent(topic)}`, 'article.post', true],
  ['blocks', '#/blocks', 'ul.users li', true],
  ['mutes', '#/mutes', 'ul.users li', true],
  ['bookmarks', '#/bookmarks', 'article.post', true],
  ['search', `#/search/${friend.handle}`, 'ul.users.found li', true],
  ['settings', '#/settings', '#settings-account', true],
  ['own profile', `#/u/${me.handle}`, 'article.post', true],
  ['not-found', '#/nowhere', 'h1', true],
];

interface Box {
  left: number;
  right: number;
  top: number;
  bottom: number;
}

/**
 * The header's box and its visible items, each as far as it is drawn: its own box joined with its
 * words' boxes (a brand squeezed narrower than its name still draws the name), and how many
 * lines those words take. Read in the page (this file has no DOM types).
 */
const headerItems = (page: Page): Promise<{ head: Box; items: (Box & { what: string; lines: number })[] }> =>
  page.evaluate(`(() => {
    const head = document.querySelector('header.site-head');
    const items = [...head.children].filter((el) => el.getClientRects().length > 0).map((el) => {
      const r = el.getBoundingClientRect();
      const box = { left: r.left, right: r.right, top: r.top, bottom: r.bottom, what: el.className || el.tagName };
      const tops = new Set();
      if (el.tagName !== 'LABEL') {
        const walk = document.createTreeWalker(el, NodeFilter.SHOW_TEXT);
        for (let n = walk.nextNode(); n; n = walk.nextNode()) {
          if (n.parentElement.closest('.sr-only')) continue;
          const range = document.createRange();
          range.selectNodeContents(n);
          for (const t of range.getClientRects()) {
            if (t.width === 0) continue;
            tops.add(Math.round(t.top / 4));
            box.left = Math.min(box.left, t.left);
            box.right = Math.max(box.right, t.right);
            box.top = Math.min(box.top, t.top);
            box.bottom = Math.max(box.bottom, t.bottom);
          }
        }
      }
      return { ...box, lines: Math.max(tops.size, 1) };
    });
    const h = head.getBoundingClientRect();
    return { head: { left: h.left, right: h.right, top: h.top, bottom: h.bottom }, items };
  })()`);

/** One line: every item in the bar's one row, its words on one line, none drawn over another. */
async function expectOneLineHeader(page: Page, label: string, least = 3): Promise<void> {
  const { head, items } = await headerItems(page);
  expect(head.bottom - head.top, `${label}: header height`).toBeLessThanOrEqual(60);
  expect(items.length, label).toBeGreaterThanOrEqual(least);
  for (const item of items) {
    expect(item.lines, `${label}: ${item.what} on one line`).toBe(1);
    expect(item.top, `${label}: ${item.what}`).toBeGreaterThanOrEqual(head.top - 0.5);
    expect(item.bottom, `${label}: ${item.what}`).toBeLessThanOrEqual(head.bottom + 0.5);
    expect(item.right, `${label}: ${item.what} inside the window`).toBeLessThanOrEqual(375);
  }
  const sorted = [...items].sort((x, y) => x.left - y.left);
  for (let i = 1; i < sorted.length; i++)
    expect(sorted[i]!.left, `${label}: ${sorted[i]!.what} drawn over ${sorted[i - 1]!.what}`).toBeGreaterThanOrEqual(
      sorted[i - 1]!.right - 0.5,
    );
}

/** The page's colours as computed: the canvas behind it and the scheme its controls use. */
const colours = (page: Page) =>
  page.evaluate(`(() => {
    const root = getComputedStyle(document.documentElement);
    return { background: root.backgroundColor, scheme: root.colorScheme, text: getComputedStyle(document.body).color };
  })()`) as Promise<{ background: string; scheme: string; text: string }>;
const LIGHT = { background: 'rgb(246, 247, 249)', scheme: 'light', text: 'rgb(31, 35, 40)' };
const DARK = { background: 'rgb(13, 17, 23)', scheme: 'dark', text: 'rgb(230, 237, 243)' };

describe('themes and the shell, in Chromium', () => {
  const runs: [Locale, number][] = [
    ['zh-CN', 375],
    ['en', 1280],
  ];
  for (const [locale, width] of runs) {
    it(`every page in the dark theme is readable (axe clean) in ${locale} at ${width} px; the header one line at 375 px`, async () => {
      const lang = locale === 'en' ? 'en' : 'zh';
      const t = await browser.open(locale, { colorScheme: 'dark', viewport: { width, height: 800 } });
      let loggedIn = false;
      for (const [name, hash, ready, needsLogin] of pages()) {
        if (needsLogin && !loggedIn) {
          await logIn(t.page, me.handle, me.password);
          loggedIn = true;
        }
        await show(t.page, hash, t.page.locator(ready).first());
        expect(await colours(t.page), name).toEqual(DARK);
        await expectAccessible(t.page, `${name}, dark (${locale}, ${width} px)`);
        await screenshot(t.page, `${lang}-${width}-dark-${name}`);
        if (width === 375) await expectOneLineHeader(t.page, `${name} (${locale})`);
      }

      const label = locale === 'en' ? 'Search' : '搜索';
      const box = t.page.getByRole('searchbox', { name: label });
      const toggle = t.page.getByRole('button', { name: label, exact: true });
      // Wide: the field itself, no icon button.
      if (width > 700) expect([await box.isVisible(), await toggle.isVisible()]).toEqual([true, false]);

      // At 375 px (English needs the most room): one line on a few pages; 找人 opens from its icon.
      await t.page.setViewportSize({ width: 375, height: 800 });
      for (const hash of ['#/', `#/post/${encodeURIComponent(myPost)}`, `#/u/${friend.handle}`]) {
        await show(t.page, hash, t.page.locator('article.post').first());
        await expectOneLineHeader(t.page, `${hash} (${locale}, 375 px)`);
      }
      expect(await box.isVisible()).toBe(false);
      await toggle.click();
      await expect.poll(() => t.page.evaluate(`document.activeElement?.type`)).toBe('search');
      await expectOneLineHeader(t.page, `search open (${locale})`, 2); // the field and its close button
      await expectAccessible(t.page, `search open, dark (${locale}, 375 px)`);
      await box.fill(friend.handle);
      await box.press('Enter');
      await t.page.locator('ul.users.found li').first().waitFor();
      expect(await box.isVisible()).toBe(false); // closed again once it has searched
      await expectOneLineHeader(t.page, `search page (${locale})`);
      await t.close();
    });
  }

  it('the user’s choice wins over the system’s: light on a dark system, dark on a light one', async () => {
    for (const [system, chosen, expected] of [
      ['dark', 'light', LIGHT],
      ['light', 'dark', DARK],
      ['light', null, LIGHT],
    ] as const) {
      const t = await browser.open('en', { colorScheme: system });
      await t.page.goto('/#/login');
      if (chosen) {
        await t.page.evaluate(`localStorage.setItem('weibo.theme', '${chosen}')`);
        await t.page.reload();
      }
      await t.page.locator('#login-handle').waitFor();
      expect(await colours(t.page), `${chosen ?? 'no choice'} on a ${system} system`).toEqual(expected);
      expect(await t.page.evaluate('document.documentElement.dataset.theme ?? null')).toBe(chosen);
      await expectAccessible(t.page, `login, ${chosen ?? 'system'} on a ${system} system`);
      await t.close();
    }
  });

  it('a visitor (logged out) lands on what is trending with its posts and the way in, in both languages', async () => {
    for (const locale of ['zh-CN', 'en'] as Locale[]) {
      const t = await browser.open(locale, { viewport: { width: 375, height: 800 } });
      // The page shows the API's top three, each with its newest posts (read together: other
      // files' topics may trend meanwhile).
      await eventually(async () => {
        await show(t.page, '#/', t.page.locator('.visitor-topic article.post').first());
        const top = ((await api.call('GET', '/topics/trending')).json.topics as { name: string }[]).slice(0, 3);
        expect(await t.page.locator('.visitor-topic h3 a.topic').allTextContents()).toEqual(
          top.map((x) => `#${x.name}#`),
        );
      }, 60_000);
      expect(new URL(t.page.url()).hash).toBe('#/'); // not sent to the login page
      const zh = locale === 'zh-CN';
      expect(await t.page.getByRole('heading', { level: 1 }).textContent()).toBe(
        zh ? '微博上正在发生什么' : 'What’s happening on Weibo',
      );
      // The way in, inside the page (not only in the navigation).
      const main = t.page.locator('main');
      expect(await main.getByRole('link', { name: zh ? '注册' : 'Sign up', exact: true }).getAttribute('href')).toBe(
        '#/register',
      );
      expect(await main.getByRole('link', { name: zh ? '登录' : 'Log in', exact: true }).getAttribute('href')).toBe(
        '#/login',
      );
      // Each topic with its newest posts, readable without an account.
      for (const section of await t.page.locator('.visitor-topic').all()) {
        const name = (await section.locator('h3 a.topic').textContent())!;
        expect(await section.locator('article.post').count(), name).toBeGreaterThanOrEqual(1);
        // Its first post names the topic (in whatever form its author typed it: ＃全角＃ too, beside
        // other topics) and links to it.
        const href = (await section.locator('h3 a.topic').getAttribute('href'))!;
        expect(
          await section.locator('article.post').first().locator(`.post-body a.topic[href="${href}"]`).count(),
          name,
        ).toBeGreaterThanOrEqual(1);
      }
      await expectAccessible(t.page, `visitor home (${locale}, 375 px)`);
      await t.page.setViewportSize({ width: 1280, height: 800 });
      await expectAccessible(t.page, `visitor home (${locale}, 1280 px)`);
      await screenshot(t.page, `${zh ? 'zh' : 'en'}-1280-visitor`);
      // The call to action leads to signing up.
      await main.getByRole('link', { name: zh ? '注册' : 'Sign up', exact: true }).click();
      await t.page.locator('#reg-handle').waitFor();
      await t.close();
    }
  });
});
