// test/browser/visibility.test.ts — what a reader sees of their own posts once they mute someone,
// in Chromium. ann follows carol and reposts one of carol's posts with words of her own; ann mutes
// carol: carol's posts leave ann's 首页, ann's repost stays, and the page does not tell her to
// follow people as if it were empty.
import { randomBytes } from 'node:crypto';
import { describe, expect, inject, it } from 'vitest';
import { apiClient } from '../support/api.js';
import { logIn, setUp, show, shownBodies, useBrowser } from '../support/browser.js';
import { eventually } from '../support/eventually.js';

const api = apiClient(inject('apiUrl'));
const browser = useBrowser();
const hex = (n = 3) => randomBytes(n).toString('hex');

describe('muting, as the reader sees it', () => {
  it('ann mutes carol: carol’s posts leave ann’s 首页, ann’s own repost of one stays', async () => {
    const [ann, carol] = [await api.newUser('ann'), await api.newUser('carol')];
    await setUp(() => api.call('PUT', `/users/${ann.handle}/following/${carol.handle}`, { token: ann.token }));
    const theirs = `Carol 的日落 ${hex()}`;
    const published = await setUp(() =>
      api.call('POST', '/posts', {
        token: carol.token,
        body: { body: theirs },
        headers: { 'idempotency-key': `vis-${hex(8)}` },
      }),
    );
    const words = `我也想去 ${hex()}`;
    const reposted = await setUp(() =>
      api.call('POST', `/posts/${published.json.id}/reposts`, {
        token: ann.token,
        body: { comment: words },
        headers: { 'idempotency-key': `vis-${hex(8)}` },
      }),
    );
    expect([200, 201]).toContain(reposted.status);
    await eventually(async () =>
      expect((await api.call('GET', `/users/${ann.handle}/timeline`, { token: ann.token })).json.posts).toHaveLength(2),
    );
    await setUp(() => api.call('PUT', `/users/${ann.handle}/mutes/${carol.handle}`, { token: ann.token }));

    const a = await browser.open('zh-CN');
    await logIn(a.page, ann.handle, ann.password);
    await a.page.waitForSelector('#compose-text');
    await show(a.page, '#/', a.page.locator('.list-end'));
    // Her repost, with carol's post inside it: she reposted it, the mute is about carol's own posts.
    expect(await shownBodies(a.page)).toEqual([words]);
    expect(await a.page.locator('article.post .original-body').allTextContents()).toEqual([theirs]);
    expect(await a.page.getByText('关注一些人').count()).toBe(0);
    await a.close();
  }, 180_000);
});
