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
    for (const body of bodies) expect((await setUp(() => api.call('POST', '/posts', { token: me.token, body: { body } }))).status).toBe(201);
    const t = await browser.open('en');
    // The middle post's time is not a time ("RangeError: Invalid time value" used to blank the app).
    await rewrite(t.page, /\/api\/users\/[^/]+\/timeline/, (json) => {
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
