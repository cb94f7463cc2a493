// test/browser/errors.test.ts — the error paths a person meets, each shown as a sentence in
// their language (never a JSON dump or a blank page): a wrong password, a token that expired
// while the page was open, the API unreachable, a missing post, an unknown page.
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

  it('an expired token sends you back to the login page with a sentence saying why', async () => {
    const user = await api.newUser('ex');
    // A token the API itself would have issued, but expired a minute ago. The page believes it
    // is still valid (clock skew, a laptop lid closed for an hour): the API's 401 must win.
    const now = Math.floor(Date.now() / 1000);
    const expired = await new SignJWT({})
      .setProtectedHeader({ alg: 'HS256' })
      .setSubject(user.handle)
      .setIssuedAt(now - 960)
      .setExpirationTime(now - 60)
      .sign(new TextEncoder().encode(inject('jwtSecret')));
    const t = await browser.open();
    await t.context.addInitScript(
      (s) => localStorage.setItem('weibo.session', JSON.stringify(s)),
      { handle: user.handle, token: expired, expiresAt: new Date(Date.now() + 3_600_000).toISOString() },
    );
    await t.page.goto('/#/');
    await t.page.getByRole('status').filter({ hasText: '登录已过期，请重新登录。' }).waitFor();
    expect(new URL(t.page.url()).hash).toBe('#/login');
    expect(await t.page.evaluate(() => (globalThis as unknown as { localStorage: { getItem(k: string): string | null } }).localStorage.getItem('weibo.session'))).toBeNull();
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
