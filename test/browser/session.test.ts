// test/browser/session.test.ts — one session across the tabs of a browser, with its tokens out
// of reach of scripts (issue 21 items 1, 6 and 15): the refresh token only in the API's HttpOnly
// cookie, the access token only in memory, a reload that stays logged in, two tabs that refresh
// at once and both stay logged in (Web Locks), a switch of user or a logout in one tab that the
// other follows visibly before it writes anything, and a login that returns to the page asked for.
import { randomBytes } from 'node:crypto';
import type { Page } from 'playwright-core';
import { describe, expect, inject, it } from 'vitest';
import { apiClient } from '../support/api.js';
import { logIn, setUp, useBrowser } from '../support/browser.js';

const api = apiClient(inject('apiUrl'));
const browser = useBrowser();

/** Everything a script on the page can read: cookies it can see, and both storages. */
const readableByScripts = (page: Page) =>
  page.evaluate(() => {
    const g = globalThis as unknown as { document: { cookie: string }; localStorage: Storage; sessionStorage: Storage };
    type Storage = { length: number; key(i: number): string | null; getItem(k: string): string | null };
    const dump = (s: Storage) =>
      Array.from({ length: s.length }, (_, i) => `${s.key(i)}=${s.getItem(s.key(i)!)}`).join('\n');
    return `${g.document.cookie}\n${dump(g.localStorage)}\n${dump(g.sessionStorage)}`;
  });

/** The posts of `handle`, as the API lists them. */
const bodiesOf = async (handle: string) =>
  ((await api.call('GET', `/users/${handle}/posts`)).json.posts as { body: string }[]).map((p) => p.body);

describe('the session in Chromium', () => {
  it('keeps every token out of reach of scripts; the cookie is HttpOnly, Secure, SameSite=Strict on /api/sessions; a reload stays logged in', async () => {
    const user = await setUp(() => api.newUser('tk'));
    const t = await browser.open('en');
    const page = await t.page.goto('/');
    // The page's own headers (web/serve.ts, as CloudFront's policy deployed).
    const headers = page!.headers();
    expect(headers['content-security-policy']).toMatch(/script-src 'self';.*frame-ancestors 'none'/);
    expect(headers['content-security-policy']).not.toContain('unsafe-inline');
    expect(headers['referrer-policy']).toBe('no-referrer');
    expect(headers['strict-transport-security']).toMatch(/^max-age=\d+/);
    // Sent compressed, as CloudFront does (Chromium asks for gzip and br).
    expect([headers['content-encoding'], headers.vary]).toEqual(['br', 'accept-encoding']);

    const login = t.page.waitForResponse((r) => r.url().endsWith('/api/sessions'));
    await logIn(t.page, user.handle, user.password);
    expect(await (await login).json()).not.toHaveProperty('refreshToken');
    await t.page.waitForSelector('#compose-text');
    // Chromium took the Secure cookie over http://127.0.0.1 (a "potentially trustworthy" origin).
    const cookies = await t.context.cookies();
    expect(
      cookies.map((c) => ({
        name: c.name,
        path: c.path,
        httpOnly: c.httpOnly,
        secure: c.secure,
        sameSite: c.sameSite,
      })),
    ).toEqual([{ name: 'weibo_refresh', path: '/api/sessions', httpOnly: true, secure: true, sameSite: 'Strict' }]);
    const token = cookies[0]!.value;
    const readable = await readableByScripts(t.page);
    expect(readable).not.toContain(token);
    expect(readable).not.toMatch(/eyJ[\w-]+\.[\w-]+\.[\w-]+/); // no JWT anywhere either

    const restored = t.page.waitForResponse((r) => r.url().endsWith('/api/sessions/refresh'));
    await t.page.reload();
    expect((await restored).status()).toBe(200);
    await t.page.waitForSelector('#compose-text');
    expect(new URL(t.page.url()).hash).toBe('#/');
    expect(await readableByScripts(t.page)).not.toMatch(/eyJ[\w-]+\.[\w-]+\.[\w-]+/);
    await t.close();
  });

  it('two tabs refreshing at once both stay logged in (one refresh at a time across tabs)', async () => {
    const user = await setUp(() => api.newUser('tw'));
    const t = await browser.open('en');
    await logIn(t.page, user.handle, user.password);
    await t.page.waitForSelector('#compose-text');
    const second = await t.context.newPage();
    await second.goto('/#/');
    await second.waitForSelector('#compose-text');

    const refreshes: number[] = [];
    for (const p of [t.page, second])
      p.on('response', (r) => r.url().endsWith('/api/sessions/refresh') && refreshes.push(r.status()));
    // Both reloads restore the session from the one cookie at the same moment: run in parallel,
    // the second refresh would present a spent token, which ends the session (reuse).
    await Promise.all([t.page.reload(), second.reload()]);
    await Promise.all([t.page.waitForSelector('#compose-text'), second.waitForSelector('#compose-text')]);
    expect(refreshes.length).toBeGreaterThan(0);
    expect(refreshes.every((s) => s === 200)).toBe(true);
    // Still one live session: another reload of each is logged in too.
    await t.page.reload();
    await t.page.waitForSelector('#compose-text');
    await second.reload();
    await second.waitForSelector('#compose-text');
    expect(refreshes.every((s) => s === 200)).toBe(true);
    await t.close();
  });

  it('item 1: a switch of user in another tab shows here before anything is posted, and the post goes out as the user shown', async () => {
    const [a, b] = [await setUp(() => api.newUser('ua')), await setUp(() => api.newUser('ub'))];
    const t = await browser.open('en');
    const tab1 = t.page;
    await logIn(tab1, a.handle, a.password);
    await tab1.waitForSelector('#compose-text');
    await tab1.locator(`nav a[href="#/u/${a.handle}"]`).waitFor();

    const tab2 = await t.context.newPage();
    await tab2.goto('/#/');
    await tab2.waitForSelector('#compose-text');
    await tab2.getByRole('button', { name: 'Log out' }).click();
    await logIn(tab2, b.handle, b.password);
    await tab2.waitForSelector('#compose-text');

    // Back in tab 1, without reloading: it says who it is now, visibly, before any write.
    await tab1
      .getByRole('status')
      .filter({ hasText: `You are now @${b.handle}` })
      .waitFor();
    await tab1.locator(`nav a[href="#/u/${b.handle}"]`).waitFor();
    expect(await tab1.locator(`nav a[href="#/u/${a.handle}"]`).count()).toBe(0);
    const text = `from tab one ${randomBytes(3).toString('hex')}`;
    await tab1.fill('#compose-text', text);
    await tab1.getByRole('button', { name: 'Post', exact: true }).click();
    await tab1.getByRole('status').filter({ hasText: 'Posted.' }).waitFor();
    expect(await bodiesOf(b.handle)).toContain(text);
    expect(await bodiesOf(a.handle)).not.toContain(text);
    await t.close();
  });

  it('item 1: after a logout in another tab, this one shows logged out with a way on, and a like offers logging in (then comes back)', async () => {
    const [a, author] = [await setUp(() => api.newUser('lo')), await setUp(() => api.newUser('au'))];
    const post = await setUp(() =>
      api.call('POST', '/posts', { token: author.token, body: { body: `like me ${randomBytes(3).toString('hex')}` } }),
    );
    expect(post.status).toBe(201);
    const t = await browser.open('en');
    const tab1 = t.page;
    await logIn(tab1, a.handle, a.password);
    await tab1.waitForSelector('#compose-text');
    await tab1.goto(`/#/post/${post.json.id}`);
    await tab1.getByRole('button', { name: 'Like' }).waitFor();

    const tab2 = await t.context.newPage();
    await tab2.goto('/#/');
    await tab2.waitForSelector('#compose-text');
    await tab2.getByRole('button', { name: 'Log out' }).click();
    await tab2.waitForSelector('#login-handle');

    // Tab 1 stays on the (public) post, and shows it is logged out, with the login link.
    await tab1.getByRole('status').filter({ hasText: 'You logged out in another tab.' }).waitFor();
    await tab1.getByRole('navigation').getByRole('link', { name: 'Log in' }).waitFor();
    expect(await tab1.getByRole('button', { name: 'Log out' }).count()).toBe(0);
    await tab1.getByRole('button', { name: 'Like' }).click();
    await tab1.waitForSelector('#login-handle');
    await logIn(tab1, a.handle, a.password);
    await tab1.waitForURL((u) => u.hash === `#/post/${post.json.id}`);
    await tab1.getByRole('button', { name: 'Like' }).waitFor();
    await t.close();
  });

  it('item 1: a renewal that answers for another user (the cookie changed, no message came) switches visibly, and the write is not sent as them', async () => {
    const [a, b] = [await setUp(() => api.newUser('ra')), await setUp(() => api.newUser('rb'))];
    const t = await browser.open('en');
    await logIn(t.page, a.handle, a.password);
    await t.page.waitForSelector('#compose-text');
    // Another tab logged in as B and its message never arrived: the cookie is B's now.
    await t.context.addCookies([
      {
        name: 'weibo_refresh',
        value: b.refreshToken,
        domain: '127.0.0.1',
        path: '/api/sessions',
        httpOnly: true,
        secure: true,
        sameSite: 'Strict',
      },
    ]);
    // A's access token runs out just as A posts: the renewal comes back as B.
    await t.page.route(
      '**/api/posts',
      (route) => route.fulfill({ status: 401, json: { error: { code: 'token_expired', message: 'Token expired' } } }),
      { times: 1 },
    );
    const posts: string[] = [];
    t.page.on(
      'request',
      (r) => r.method() === 'POST' && new URL(r.url()).pathname === '/api/posts' && posts.push(r.url()),
    );
    // B's home asks for B's timeline only once the page has switched, after any retry of the post would have gone.
    const bHome = t.page.waitForRequest((r) => new URL(r.url()).pathname === `/api/users/${b.handle}/timeline`);
    const text = `not as b ${randomBytes(3).toString('hex')}`;
    await t.page.fill('#compose-text', text);
    await t.page.getByRole('button', { name: 'Post', exact: true }).click();
    await t.page
      .getByRole('status')
      .filter({ hasText: `You are now @${b.handle}` })
      .waitFor();
    await t.page.locator(`nav a[href="#/u/${b.handle}"]`).waitFor();
    await bHome;
    expect(posts).toHaveLength(1); // the one answered 401 above; never retried as B
    expect(await bodiesOf(b.handle)).not.toContain(text);
    expect(await bodiesOf(a.handle)).not.toContain(text);
    await t.close();
  });

  it('item 6: logged out, a page that needs a login sends you to log in, and the login lands on it', async () => {
    const user = await setUp(() => api.newUser('dl'));
    const t = await browser.open('en');
    await t.page.goto('/#/notifications');
    await t.page.waitForSelector('#login-handle');
    expect(new URL(t.page.url()).hash).toBe('#/login');
    await logIn(t.page, user.handle, user.password);
    await t.page.waitForURL((u) => u.hash === '#/notifications');
    await t.page.getByRole('heading', { level: 1 }).waitFor();
    expect(new URL(t.page.url()).hash).toBe('#/notifications');
    await t.close();
  });
});
