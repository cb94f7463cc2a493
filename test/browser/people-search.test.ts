// test/browser/people-search.test.ts — 找人 in Chromium (issue 23): ann (中文) types the start of
// a Chinese name into the header's search box and finds that user with avatar, name and follower
// count; follows him from the list (the button turns to 关注 pressed, and stays so read again);
// bob (English) renames himself, and the old name no longer finds him while the new one does;
// a query that finds nobody says so. Every page visited passes axe, in both languages.
// biome-ignore-all lint/performance/useDomNodeTextContent: a locator's innerText(), the rendered text these assertions mean, not the DOM property
import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { annAndBob, expectAccessible, screenshot, show, useBrowser } from '../support/browser.js';

const browser = useBrowser();

describe('find people (找人), in Chromium', () => {
  it('search from the header, follow from the results; a rename is found by the new name only', async () => {
    const tag = randomBytes(3).toString('hex');
    const [oldName, newName] = [`王${tag}明`, `Robert ${tag}`];
    const { bob, a, b } = await annAndBob(browser, oldName);

    // ann searches for the start of bob's name from the header.
    const box = a.page.getByRole('searchbox', { name: '搜索' });
    await box.fill(`王${tag}`);
    await box.press('Enter');
    await a.page.getByRole('heading', { name: `搜索：“王${tag}”` }).waitFor();
    const row = a.page.locator('ul.found li').filter({ hasText: `@${bob}` });
    await row.waitFor();
    expect(await a.page.locator('ul.found li').count()).toBe(1);
    await expect(row.innerText()).resolves.toContain(oldName);
    await expect(row.innerText()).resolves.toContain('0 粉丝');
    await expectAccessible(a.page, 'search results (zh)');
    await screenshot(a.page, 'people-search-zh');

    // Follows him from the list; read again, the button says so.
    const follow = row.getByRole('button', { name: `关注 @${bob}` });
    await Promise.all([
      a.page.waitForResponse(
        (r) => r.request().method() === 'PUT' && /\/following\//.test(r.url()) && r.status() === 200,
      ),
      follow.click(),
    ]);
    const unfollow = row.getByRole('button', { name: `取消关注 @${bob}` });
    expect(await unfollow.getAttribute('aria-pressed')).toBe('true');
    await a.page.reload();
    await row.getByRole('button', { name: `取消关注 @${bob}` }).waitFor();
    await expect(row.innerText()).resolves.toContain('1 粉丝');

    // bob renames himself in his settings: the old name finds nobody, the new one finds him.
    await show(b.page, '#/settings', b.page.getByRole('textbox', { name: /display name/i }));
    await b.page.getByRole('textbox', { name: /display name/i }).fill(newName);
    await Promise.all([
      b.page.waitForResponse((r) => r.request().method() === 'PATCH' && r.status() === 200),
      b.page.getByRole('button', { name: 'Save profile' }).click(),
    ]);
    const search = b.page.getByRole('searchbox', { name: 'Search' });
    await search.fill(`王${tag}`);
    await search.press('Enter');
    await b.page.getByText('Nobody found').waitFor();
    await expectAccessible(b.page, 'search finding nobody (en)');
    await search.fill(`robert ${tag}`);
    await search.press('Enter');
    await b.page.getByRole('heading', { name: `Search: “robert ${tag}”` }).waitFor();
    const self = b.page.locator('ul.found li').filter({ hasText: `@${bob}` });
    await self.waitFor();
    await expect(self.innerText()).resolves.toContain(newName);
    expect(await self.getByRole('button').count()).toBe(0); // no follow button for yourself
    await expectAccessible(b.page, 'search results (en)');
  });
});
