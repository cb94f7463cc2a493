// test/browser/keyboard.test.ts — the keyboard and the words for expected states, in Chromium:
// a card's byline (name, then @handle); web addresses as links; a skip link first, Ctrl+Enter sends, Esc closes the repost form (focus back on its button),
// the focus stays in the box after posting and lands on the new page's heading after a link,
// every page has its own window title; a text the API would refuse says why before it is sent;
// a post that is not there says so plainly with the way home, one hidden by a block offers the
// unblock.
import { randomBytes } from 'node:crypto';
import type { Page } from 'playwright-core';
import { describe, expect, inject, it } from 'vitest';
import { apiClient } from '../support/api.js';
import { expectAccessible, logIn, setUp, useBrowser } from '../support/browser.js';

const api = apiClient(inject('apiUrl'));
const browser = useBrowser();
const hex = () => randomBytes(3).toString('hex');
const focused = (page: Page) =>
  page.evaluate(
    `(() => { const e = document.activeElement; return e ? (e.id || e.className || e.tagName) : null; })()`,
  );

describe('keyboard and plain words, in Chromium', () => {
  it('skip link, Ctrl+Enter, Esc, focus after posting and after a link, a title per page, a refused character said before sending', async () => {
    const me = await api.newUser('kb');
    const t = await browser.open('en');
    await logIn(t.page, me.handle, me.password);
    await t.page.waitForSelector('#compose-text');
    expect(await t.page.title()).toBe('Home - Weibo');

    // The first Tab reaches the skip link; through it the next Tab is in the composer.
    await t.page.locator('body').click({ position: { x: 1, y: 1 } });
    await t.page.keyboard.press('Tab');
    expect(await focused(t.page)).toBe('skip-link');
    await t.page.keyboard.press('Enter');
    await t.page.keyboard.press('Tab');
    expect(await focused(t.page)).toBe('compose-text');

    // Ctrl+Enter posts; the focus stays in the box for the next one.
    const body = `by keyboard ${hex()}`;
    await t.page.keyboard.type(body);
    const answered = t.page.waitForResponse((r) => r.request().method() === 'POST' && r.url().endsWith('/api/posts'));
    await t.page.keyboard.press('Control+Enter');
    expect((await answered).status()).toBe(201);
    await t.page.locator('article.post .post-body', { hasText: body }).waitFor();
    expect(await focused(t.page)).toBe('compose-text');
    // The card says who wrote it as Weibo does: the display name in bold, then the muted @handle.
    const byline = t.page.locator('article.post').filter({ hasText: body }).locator('.author');
    expect([await byline.locator('strong.name').textContent(), await byline.locator('.handle').textContent()]).toEqual([
      `User ${me.handle}`,
      `@${me.handle}`,
    ]);

    // A web address in a post is a link that opens apart (trailing punctuation left outside).
    const linked = `read https://example.com/a?b=1&c=%E4%B8%AD. ${hex()}`;
    await t.page.keyboard.type(linked);
    await t.page.keyboard.press('Control+Enter');
    const url = t.page
      .locator('article.post')
      .filter({ hasText: linked.slice(-6) })
      .locator('a.url');
    await url.waitFor();
    expect([await url.textContent(), await url.getAttribute('href'), await url.getAttribute('rel')]).toEqual([
      'https://example.com/a?b=1&c=%E4%B8%AD',
      'https://example.com/a?b=1&c=%E4%B8%AD',
      'noopener noreferrer nofollow ugc',
    ]);

    // A bidirectional override would be refused: the page says why, and Post stays off.
    await t.page.keyboard.type('abc\u202Edef');
    await t.page.locator('#compose-count', { hasText: 'change the text direction' }).waitFor();
    expect(await t.page.getByRole('button', { name: 'Post', exact: true }).isDisabled()).toBe(true);
    await t.page.fill('#compose-text', '');

    // Esc closes the repost form and gives the focus back to its button.
    const card = t.page.locator('article.post').filter({ hasText: body });
    await card.getByRole('button', { name: /^Repost/ }).click();
    await card.locator('.repost-form textarea').waitFor();
    // The form takes the focus as it opens (an Esc before that is not the form's to hear).
    await expect.poll(() => t.page.evaluate(`document.activeElement?.closest('.repost-form') !== null`)).toBe(true);
    await t.page.keyboard.press('Escape');
    await card.locator('.repost-form').waitFor({ state: 'detached' });
    expect(await t.page.evaluate(`document.activeElement?.textContent ?? ''`)).toMatch(/^Repost/);

    // A link to another page: its title, and the focus on its heading.
    await t.page.getByRole('navigation').getByRole('link', { name: 'Trending', exact: true }).click();
    // A function, not a string: the pages' CSP refuses the eval a string predicate needs.
    await t.page.waitForFunction(
      () =>
        (globalThis as unknown as { document: { activeElement: { tagName: string } | null } }).document.activeElement
          ?.tagName === 'H1',
    );
    expect(await t.page.title()).toMatch(/ - Weibo$/);
    expect(await t.page.title()).not.toBe('Home - Weibo');
    await expectAccessible(t.page, 'a page reached by a link');
    await t.close();
  });

  it('a post that is not there says so plainly with the way home; one hidden by a block offers the unblock', async () => {
    const [me, other] = [await api.newUser('kb'), await api.newUser('kb')];
    const res = await setUp(() =>
      api.call('POST', '/posts', { token: other.token, body: { body: `hidden ${hex()}` } }),
    );
    expect(res.status).toBe(201);
    expect(
      (await setUp(() => api.call('PUT', `/users/${me.handle}/blocks/${other.handle}`, { token: me.token }))).status,
    ).toBe(200);
    const t = await browser.open('zh-CN');
    await logIn(t.page, me.handle, me.password);
    await t.page.waitForSelector('#compose-text');

    await t.page.goto('/#/post/doesnotexist');
    const notice = t.page.locator('.notice');
    await notice.filter({ hasText: '这条微博不存在或已被删除。' }).waitFor();
    expect(await t.page.locator('.problem').count()).toBe(0); // not an error box
    expect(await notice.getByRole('link').getAttribute('href')).toBe('#/');

    await t.page.goto(`/#/post/${encodeURIComponent(res.json.id)}`);
    await notice.filter({ hasText: '看不到这条微博' }).waitFor();
    expect(await t.page.locator('.problem').count()).toBe(0);
    await expectAccessible(t.page, 'a post hidden by a block (zh)');
    await notice.getByRole('button', { name: '取消拉黑' }).click();
    await t.page.locator('article.post', { hasText: 'hidden' }).waitFor();
    await t.close();
  });

  it('says what a sign-up field needs in the page’s language (not the browser’s bubble); after a logout, a wrong password shows only its error', async () => {
    const t = await browser.open('zh-CN');
    await t.page.goto('/#/register');
    await t.page.fill('#reg-handle', 'Not Valid!');
    await t.page.fill('#reg-password', 'short');
    const sent = { users: 0 };
    t.page.on(
      'request',
      (r) => void (r.method() === 'POST' && new URL(r.url()).pathname === '/api/users' && sent.users++),
    );
    await t.page.getByRole('button', { name: '创建账号' }).click();
    expect(await t.page.locator('#reg-handle-problem').textContent()).toBe('请使用 1–30 位小写字母、数字或下划线。');
    expect(await t.page.locator('#reg-name-problem').textContent()).toBe('请填写此项。');
    expect(await t.page.locator('#reg-password-problem').textContent()).toMatch(/^密码至少需要 \d+ 个字符。$/);
    expect(await t.page.locator('#reg-handle').getAttribute('aria-invalid')).toBe('true');
    expect(await focused(t.page)).toBe('reg-handle'); // the first field to mend
    expect(sent.users).toBe(0);
    await expectAccessible(t.page, 'sign-up with problems (zh)');

    // Logged out, then a wrong password: the error alone, not "你已退出登录。" above it.
    const me = await api.newUser('lo');
    await logIn(t.page, me.handle, me.password);
    await t.page.getByRole('button', { name: '退出' }).click();
    await t.page.getByText('你已退出登录。').waitFor();
    await t.page.fill('#login-handle', me.handle);
    await t.page.fill('#login-password', 'wrong-password');
    await t.page.locator('form button[type=submit]').click();
    await t.page.getByRole('alert').waitFor();
    expect(await t.page.getByText('你已退出登录。').count()).toBe(0);
    await t.close();
  });
});
