// test/browser/visibility.test.ts — what a reader sees of their own posts once blocks and mutes
// exist, in Chromium. ann follows carol and reposts one of carol's posts with words of her own; ann
// mutes carol: carol's posts leave ann's 首页, ann's repost stays, and the page does not tell her
// to follow people as if it were empty. bob reposts two of dan's posts, dan blocks bob: bob's
// profile lists both reposts under its "2 微博", each saying its original is not shown to him.
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

  it('dan blocks bob: bob’s own profile lists his two reposts of dan’s posts, as its count says, without dan’s text', async () => {
    const [bob, dan] = [await api.newUser('bob'), await api.newUser('dan')];
    const dans = [`Dan 的第一条 ${hex()}`, `Dan 的第二条 ${hex()}`];
    const ids: string[] = [];
    for (const body of dans) {
      const res = await setUp(() =>
        api.call('POST', '/posts', {
          token: dan.token,
          body: { body },
          headers: { 'idempotency-key': `vis-${hex(8)}` },
        }),
      );
      ids.push(res.json.id);
    }
    const words = `转给大家看 ${hex()}`;
    await setUp(() =>
      api.call('POST', `/posts/${ids[0]}/reposts`, {
        token: bob.token,
        body: { comment: words },
        headers: { 'idempotency-key': `vis-${hex(8)}` },
      }),
    );
    await setUp(() => api.call('POST', `/posts/${ids[1]}/reposts`, { token: bob.token, body: {} }));
    await setUp(() => api.call('PUT', `/users/${dan.handle}/blocks/${bob.handle}`, { token: dan.token }));

    const b = await browser.open('zh-CN');
    await logIn(b.page, bob.handle, bob.password);
    await b.page.waitForSelector('#compose-text');
    await show(b.page, `#/u/${bob.handle}`, b.page.locator('.list-end'));
    expect(await b.page.getByText('还没有发布微博').count()).toBe(0);
    expect(await b.page.locator('article.post').count()).toBe(2);
    expect(await b.page.locator('article.post .original.deleted').allTextContents()).toEqual([
      '原微博的作者已将你拉黑，无法查看。',
      '原微博的作者已将你拉黑，无法查看。',
    ]);
    const text = await b.page.locator('main').textContent();
    for (const body of dans) expect(text).not.toContain(body);
    expect(await shownBodies(b.page)).toContain(words);
    await b.close();
  }, 180_000);
});
