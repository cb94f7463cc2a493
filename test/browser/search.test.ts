// test/browser/search.test.ts — 搜索 and 热门 in Chromium. A new user's empty home shows the hot
// feed; from the header they search 微博 and a two-word English phrase, find the right posts with
// the words marked, and neither the deleted post nor one by someone they blocked; the search's
// address reloads to the same results. Every page visited passes axe.
// biome-ignore-all lint/performance/useDomNodeTextContent: a locator's innerText(), the rendered text these assertions mean, not the DOM property
import { randomBytes } from 'node:crypto';
import { describe, expect, inject, it } from 'vitest';
import { apiClient } from '../support/api.js';
import { expectAccessible, logIn, screenshot, shownBodies, useBrowser } from '../support/browser.js';
import { eventually } from '../support/eventually.js';
import { rankHotNow } from '../support/rank-hot.js';

const browser = useBrowser();
const api = apiClient(inject('apiUrl'));

describe('search (搜索) and hot (热门), in Chromium', () => {
  it('a newcomer sees what is hot, then finds posts by Chinese and English words, not deleted or blocked ones', async () => {
    const t = `k${randomBytes(3).toString('hex')}`;
    const [writer, shunned, x, y, z, reader] = await Promise.all(
      ['sw', 'ss', 'sx', 'sy', 'sz', 'sr'].map((p) => api.newUser(p)),
    );
    const publish = async (u: typeof writer, body: string) =>
      (await api.call('POST', '/posts', { token: u!.token, body: { body } })).json.id as string;
    const hot = await publish(writer, `${t} 今天的微博热搜真热闹`);
    await publish(writer, `${t} a brave new world`);
    await publish(writer, `${t} brave and world apart`);
    const gone = await publish(writer, `${t} 微博 deleted later`);
    await publish(shunned, `${t} 微博 by someone blocked`);
    expect((await api.call('DELETE', `/posts/${gone}`, { token: writer!.token })).status).toBe(204);
    await api.call('PUT', `/users/${reader!.handle}/blocks/${shunned!.handle}`, { token: reader!.token });
    // Three people like the first post; the ranking job files it among the hot ones.
    for (const u of [x, y, z])
      expect((await api.call('PUT', `/users/${u!.handle}/likes/${hot}`, { token: u!.token })).status).toBe(200);
    await eventually(
      async () => {
        await rankHotNow(inject('lambdaEndpoint'));
        const page = await api.call('GET', '/hot?limit=50');
        expect(page.json.posts.map((p: { id: string }) => p.id)).toContain(hot);
      },
      60_000,
      1000,
    );

    // A new account that follows nobody: its home is the hot feed, not an empty page.
    const r = await browser.open('zh-CN');
    await logIn(r.page, reader!.handle, reader!.password);
    const newcomer = r.page.locator('.newcomer');
    await newcomer.getByRole('heading', { name: '热门微博' }).waitFor();
    await newcomer.locator('article.post', { hasText: `${t} 今天的微博热搜真热闹` }).waitFor();
    await expectAccessible(r.page, 'a newcomer’s home (zh)');

    // 微博 from the header: the 综合 tab, then 微博; the match is marked, the others are not there.
    const box = r.page.getByRole('searchbox', { name: '搜索' });
    await box.fill(`${t} 微博`);
    await box.press('Enter');
    await r.page.getByRole('heading', { name: `搜索：“${t} 微博”` }).waitFor();
    await r.page.getByRole('navigation', { name: '搜索范围' }).getByRole('link', { name: '微博' }).click();
    const results = r.page.locator('article.post');
    await results.first().waitFor();
    await r.page.locator('.list-end').waitFor();
    expect(await shownBodies(r.page)).toEqual([`${t} 今天的微博热搜真热闹`]);
    expect(await results.first().locator('mark').allInnerTexts()).toEqual([t, '微博']);
    expect(new URL(r.page.url()).hash).toBe(`#/search/${encodeURIComponent(`${t} 微博`)}/posts`);
    await expectAccessible(r.page, 'post search (zh)');
    await screenshot(r.page, 'search-posts-zh');
    // The address is the search: reloaded, the same results.
    await r.page.reload();
    await r.page.locator('.list-end').waitFor();
    expect(await shownBodies(r.page)).toEqual([`${t} 今天的微博热搜真热闹`]);

    // A two-word English phrase, any case: both posts holding both words, newest first.
    await box.fill(`${t} Brave WORLD`);
    await box.press('Enter');
    await r.page.getByRole('navigation', { name: '搜索范围' }).getByRole('link', { name: '微博' }).click();
    await r.page.locator('.list-end').waitFor();
    expect(await shownBodies(r.page)).toEqual([`${t} brave and world apart`, `${t} a brave new world`]);
    expect(await results.first().locator('mark').allInnerTexts()).toEqual([t, 'brave', 'world']);
    await r.close();
  });
});
