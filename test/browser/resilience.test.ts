// test/browser/resilience.test.ts — what a reader meets when something is off, in Chromium: a
// malformed answer breaks one card (it says so in its place) or one page (it says so, and the
// header still works), never the whole app.
import { randomBytes } from 'node:crypto';
import type { Page } from 'playwright-core';
import { describe, expect, inject, it } from 'vitest';
import { apiClient } from '../support/api.js';
import { expectAccessible, logIn, setUp, useBrowser } from '../support/browser.js';

const api = apiClient(inject('apiUrl'));
const browser = useBrowser();
const hex = () => randomBytes(3).toString('hex');

/** Answers `path` with the API's own answer, rewritten by `change` (a malformed 2xx). */
async function rewrite(page: Page, path: RegExp, change: (json: Record<string, unknown>) => void): Promise<void> {
  await page.route(path, async (route) => {
    const res = await route.fetch();
    const json = (await res.json()) as Record<string, unknown>;
    change(json);
    await route.fulfill({ response: res, json });
  });
}

describe('resilience, in Chromium', () => {
  it('a malformed post breaks its own card only; a malformed profile breaks its page only, and the header still works', async () => {
    const me = await api.newUser('rs');
    const bodies = [`first ${hex()}`, `second ${hex()}`, `third ${hex()}`];
    for (const body of bodies)
      expect((await setUp(() => api.call('POST', '/posts', { token: me.token, body: { body } }))).status).toBe(201);
    const t = await browser.open('en');
    // The middle post's time is not a time ("RangeError: Invalid time value" used to blank the app).
    // The page itself, not its "anything newer?" check (/timeline/newer, asked when the live channel opens).
    await rewrite(t.page, /\/api\/users\/[^/]+\/timeline(\?.*)?$/, (json) => {
      (json.posts as { createdAt: string }[])[1]!.createdAt = 'not a time';
    });
    await logIn(t.page, me.handle, me.password);
    await t.page.locator('article.post.broken').waitFor();
    expect(await t.page.locator('article.post .post-body').allTextContents()).toEqual([bodies[2], bodies[0]]);
    expect(await t.page.locator('article.post.broken').textContent()).toBe('This post cannot be shown.');
    await expectAccessible(t.page, 'a broken card');

    await rewrite(t.page, /\/api\/users\/[^/]+$/, (json) => {
      json.createdAt = 'not a time';
    });
    await t.page.goto(`/#/u/${me.handle}`);
    await t.page.getByRole('heading', { name: 'This page cannot be shown' }).waitFor();
    await expectAccessible(t.page, 'a broken page');
    // The rest of the app still works: the header takes you home.
    await t.page.getByRole('navigation').getByRole('link', { name: 'Home', exact: true }).click();
    await t.page.locator('article.post .post-body').first().waitFor();
    await t.close(/createdAt|date-time|format/);
  });
});

describe('long names, in Chromium at 375 px', () => {
  it('a 50-character display name and a 30-character handle never make a page scroll sideways, and the time stays on one line', async () => {
    const handle = `w${randomBytes(15).toString('hex')}`.slice(0, 30);
    const password = `pw-${randomBytes(8).toString('hex')}`;
    const displayName = '名'.repeat(20) + 'W'.repeat(30); // 50 code points, no space to break at
    expect((await setUp(() => api.call('POST', '/users', { body: { handle, displayName, password } }))).status).toBe(
      201,
    );
    const t = await browser.open('zh-CN');
    await t.page.setViewportSize({ width: 375, height: 812 });
    await logIn(t.page, handle, password);
    await t.page.fill('#compose-text', `窄屏 ${hex()}`);
    await t.page.getByRole('button', { name: '发布', exact: true }).click();
    const card = t.page.locator('section > .feed article.post').first();
    await card.waitFor();
    const sideways = () => t.page.evaluate(`document.documentElement.scrollWidth`);
    expect(await sideways(), 'home').toBeLessThanOrEqual(375);
    // The time keeps its one line beside a long byline.
    const when = await card.locator('.when time').boundingBox();
    expect(when!.height).toBeLessThan(30);
    await t.page.goto(`/#/u/${handle}`);
    await t.page.getByRole('heading', { level: 1 }).filter({ hasText: displayName }).waitFor();
    expect(await sideways(), 'profile').toBeLessThanOrEqual(375);
    await t.page.goto(`/#/post/${encodeURIComponent((await card.getAttribute('data-post-id')) ?? '')}`);
    await t.page.locator('article.post').first().waitFor();
    expect(await sideways(), 'post').toBeLessThanOrEqual(375);
    await t.close();
  });
});
