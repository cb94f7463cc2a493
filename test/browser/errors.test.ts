// test/browser/errors.test.ts — the error paths a person meets, each shown as a sentence in
// their language (never a JSON dump or a blank page): a wrong password, a session that ended
// while the page was open (and an expired token that is renewed without the person noticing),
// logging out, the API unreachable, a missing post, an unknown page.
import { randomBytes } from 'node:crypto';
import { SignJWT } from 'jose';
import { describe, expect, inject, it } from 'vitest';
import { apiClient } from '../support/api.js';
import { expectAccessible, logIn, useBrowser } from '../support/browser.js';

const api = apiClient(inject('apiUrl'));
const browser = useBrowser();

const alert = (page: import('playwright-core').Page) => page.getByRole('alert');

describe('error paths, in Chromium', () => {
  it('a wrong password says so (中文 and English), and the form stays usable', async () => {
    const user = await api.newUser('wp');
    const zh = await browser.open('zh-CN');
    await logIn(zh.page, user.handle, 'not the password');
    await alert(zh.page).filter({ hasText: '用户名或密码错误。' }).waitFor();
    await expectAccessible(zh.page, 'login with an error');
    await zh.close();

    const en = await browser.open('en');
    await logIn(en.page, user.handle, 'not the password');
    await alert(en.page).filter({ hasText: 'Wrong handle or password.' }).waitFor();
    await logIn(en.page, user.handle, user.password); // the form still works
    await en.page.waitForSelector('#compose-text');
    await en.close();
  });

  /** A token the API itself would have issued, but expired a minute ago. */
  async function expiredToken(handle: string): Promise<string> {
    const now = Math.floor(Date.now() / 1000);
    return new SignJWT({})
      .setProtectedHeader({ alg: 'HS256' })
      .setSubject(handle)
      .setIssuer('weibo-serverless')
      .setAudience('weibo-api')
      .setIssuedAt(now - 960)
      .setExpirationTime(now - 60)
      .sign(new TextEncoder().encode(inject('jwtSecret')));
  }

  /**
   * A page that was logged in before this load: its refresh cookie holds `refreshToken` (as the
   * API sets it, HttpOnly, on /api/sessions), and the refresh of the load answers `token` as the
   * access token the page keeps in memory, both believed valid. Later refreshes reach the API.
   */
  async function withSession(user: { handle: string }, token: string, refreshToken: string) {
    const t = await browser.open();
    await t.context.addCookies([
      {
        name: 'weibo_refresh',
        value: refreshToken,
        domain: '127.0.0.1',
        path: '/api/sessions',
        httpOnly: true,
        secure: true,
        sameSite: 'Strict',
      },
    ]);
    await t.context.addInitScript((handle) => localStorage.setItem('weibo.user', handle), user.handle);
    const hour = new Date(Date.now() + 3_600_000).toISOString();
    await t.page.route(
      '**/api/sessions/refresh',
      (route) =>
        route.fulfill({
          json: { handle: user.handle, token, expiresAt: hour, tokenType: 'Bearer', refreshExpiresAt: hour },
          headers: { 'Cache-Control': 'no-store' },
        }),
      { times: 1 },
    );
    return t;
  }

  /** The refresh cookie as the browser holds it (scripts cannot read it: see session.test.ts). */
  const refreshCookie = async (t: { context: import('playwright-core').BrowserContext }) =>
    (await t.context.cookies()).find((c) => c.name === 'weibo_refresh')?.value ?? null;

  it('an expired token sends you back to the login page with a sentence saying why, once the session is really over', async () => {
    const user = await api.newUser('ex');
    // The page believes its token is still valid (clock skew, a laptop lid closed for an hour):
    // the API's 401 must win. Its refresh token was revoked meanwhile (a logout elsewhere), so
    // the silent renewal fails too and the session is over.
    expect((await api.call('POST', '/sessions/logout', { body: { refreshToken: user.refreshToken } })).status).toBe(
      204,
    );
    const t = await withSession(user, await expiredToken(user.handle), user.refreshToken);
    await t.page.goto('/#/');
    await t.page.getByRole('status').filter({ hasText: '登录已过期，请重新登录。' }).waitFor();
    expect(new URL(t.page.url()).hash).toBe('#/login');
    expect(
      await t.page.evaluate(() => (globalThis as unknown as { localStorage: { length: number } }).localStorage.length),
    ).toBe(1); // the language alone
    await t.close();
  });

  it('an expired token with a live refresh token is renewed silently: the page just works', async () => {
    const user = await api.newUser('rn');
    const t = await withSession(user, await expiredToken(user.handle), user.refreshToken);
    const refreshes: number[] = [];
    t.page.on('response', (r) => r.url().endsWith('/sessions/refresh') && refreshes.push(r.status()));
    // The timeline's first answer is a 401 `token_expired`; the one that counts is the retry.
    const timeline = t.page.waitForResponse((r) => r.url().includes('/timeline') && r.status() === 200);
    await t.page.goto('/#/');
    await timeline;
    await t.page.waitForSelector('#compose-text');
    expect(new URL(t.page.url()).hash).toBe('#/');
    // The load's (answered by this test), then ONE renewal, though the page sent several requests with the expired token.
    expect(refreshes).toEqual([200, 200]);
    const renewed = await refreshCookie(t);
    expect(renewed).not.toBeNull();
    expect(renewed).not.toBe(user.refreshToken);
    // The old refresh token is spent; the page's new one works.
    expect((await api.call('POST', '/sessions/refresh', { body: { refreshToken: renewed } })).status).toBe(200);
    await t.close();
  });

  it('logging out revokes the session at the API: its refresh token no longer works', async () => {
    const user = await api.newUser('lo');
    const t = await browser.open('en');
    await logIn(t.page, user.handle, user.password);
    await t.page.waitForSelector('#compose-text');
    const refreshToken = await refreshCookie(t);
    expect(refreshToken).not.toBeNull();
    const revoked = t.page.waitForResponse((r) => r.url().endsWith('/sessions/logout'));
    await t.page.getByRole('button', { name: 'Log out' }).click();
    expect((await revoked).status()).toBe(204);
    await t.page.getByRole('status').filter({ hasText: 'You have logged out.' }).waitFor();
    expect(await refreshCookie(t)).toBeNull(); // the API cleared it
    expect((await api.call('POST', '/sessions/refresh', { body: { refreshToken } })).json.error.code).toBe(
      'invalid_refresh_token',
    );
    await t.close();
  });

  it('an unreachable API is a sentence with a retry, not a blank page', async () => {
    const t = await browser.open();
    await t.page.route('**/api/**', (route) => route.abort('connectionrefused'));
    await logIn(t.page, 'anyone', 'any password');
    await alert(t.page).filter({ hasText: '无法连接服务器，请检查网络后重试。' }).waitFor();
    await t.page.goto(`/#/u/someone_${randomBytes(2).toString('hex')}`);
    await alert(t.page).filter({ hasText: '无法连接服务器' }).waitFor();
    await t.page.getByRole('button', { name: '重试' }).waitFor();
    await expectAccessible(t.page, 'offline error');
    await t.close();
  });

  it('a missing post, an unknown user and an unknown page each say what is wrong', async () => {
    const t = await browser.open('en');
    await t.page.goto('/#/post/nobody.1234567890123456.0123456789ab');
    await alert(t.page).filter({ hasText: 'This post does not exist or has been deleted.' }).waitFor();
    await t.page.goto(`/#/u/nobody_${randomBytes(3).toString('hex')}`);
    await alert(t.page).filter({ hasText: 'This user does not exist.' }).waitFor();
    await t.page.goto('/#/no/such/page');
    await t.page.getByRole('heading', { name: 'Page not found' }).waitFor();
    await expectAccessible(t.page, 'not found');
    await t.close();
  });
});
