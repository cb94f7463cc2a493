// test/browser/bookmarks.test.ts — 收藏 in Chromium (issue 23): ann (中文) bookmarks bob's post
// from her timeline; the button stays pressed through a reload; 我的收藏 (the navigation's 收藏) lists
// it, newest bookmarked first; taking it out there turns the button off, and read again the list
// is empty; bob (English) sees no trace of it. Every page visited passes axe, in both languages.
import { randomBytes } from 'node:crypto';
import { describe, expect, inject, it } from 'vitest';
import { apiClient } from '../support/api.js';
import { annAndBob, expectAccessible, postCard, screenshot, show, useBrowser } from '../support/browser.js';

const api = apiClient(inject('apiUrl'));
const browser = useBrowser();

describe('bookmarks (收藏), in Chromium', () => {
  it('bookmark from the timeline, find it in 我的收藏, take it out there; private to its owner', async () => {
    const { ann, bob, a, b } = await annAndBob(browser);
    const first = `bob 的第一条 ${randomBytes(3).toString('hex')}`;
    const second = `bob 的第二条 ${randomBytes(3).toString('hex')}`;
    for (const body of [first, second]) {
      await b.page.fill('#compose-text', body);
      await b.page.getByRole('button', { name: 'Post', exact: true }).click();
      await postCard(b.page, body).waitFor();
    }

    // ann reads bob's posts on his profile and bookmarks the first, then the second.
    await show(a.page, `#/u/${bob}`, postCard(a.page, first));
    for (const body of [first, second]) {
      const button = postCard(a.page, body).getByRole('button', { name: '收藏' });
      expect(await button.getAttribute('aria-pressed')).toBe('false');
      await Promise.all([
        a.page.waitForResponse(
          (r) => r.request().method() === 'PUT' && /\/bookmarks\//.test(r.url()) && r.status() === 200,
        ),
        button.click(),
      ]);
      expect(await button.getAttribute('aria-pressed')).toBe('true');
    }
    await a.page.reload();
    await postCard(a.page, first).waitFor();
    expect(await postCard(a.page, first).getByRole('button', { name: '收藏' }).getAttribute('aria-pressed')).toBe(
      'true',
    );
    await expectAccessible(a.page, 'profile with bookmarked posts (zh)');

    // 我的收藏, from the navigation's 收藏: newest bookmarked first.
    await a.page.getByRole('navigation', { name: '主导航' }).getByRole('link', { name: '收藏' }).click();
    await a.page.getByRole('heading', { name: '我的收藏' }).waitFor();
    await postCard(a.page, first).waitFor();
    const bodies = await a.page.locator('article.post .post-body').allInnerTexts();
    expect(bodies.map((t) => t.trim())).toEqual([second, first]);
    await expectAccessible(a.page, 'bookmarks page (zh)');
    await screenshot(a.page, 'bookmarks-zh');

    // Taken out there: its button is off at once; read again, the list holds only the other.
    const out = postCard(a.page, first).getByRole('button', { name: '收藏' });
    await Promise.all([
      a.page.waitForResponse(
        (r) => r.request().method() === 'DELETE' && /\/bookmarks\//.test(r.url()) && r.status() === 200,
      ),
      out.click(),
    ]);
    expect(await out.getAttribute('aria-pressed')).toBe('false');
    await a.page.reload();
    await postCard(a.page, second).waitFor();
    expect(await postCard(a.page, first).count()).toBe(0);

    // Private: bob's view of his own post says nothing of ann's bookmark, and her list is hers.
    await show(b.page, `#/u/${bob}`, postCard(b.page, second));
    expect(await postCard(b.page, second).getByRole('button', { name: 'Bookmark' }).getAttribute('aria-pressed')).toBe(
      'false',
    );
    const eve = await api.newUser('eve');
    expect((await api.call('GET', `/users/${ann}/bookmarks`, { token: eve.token })).status).toBe(403);
    await show(b.page, '#/bookmarks', b.page.getByRole('heading', { name: 'Bookmarks' }));
    await b.page.getByText('Nothing bookmarked yet').waitFor();
    await expectAccessible(b.page, 'empty bookmarks page (en)');
  });
});
