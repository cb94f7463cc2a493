// test/browser/timeline.test.ts — the home timeline in Chromium: infinite scroll to the end of a
// long timeline (no duplicates, no gaps), the honest "regenerating" state of a returning reader
// (206 from the real API), the composer's code-point counter at the limit, and deleting your own
// post. The "new posts" notice is live.test.ts's.
import { afterAll, describe, expect, inject, it } from 'vitest';
import { HBaseRestClient } from '../../shared/hbase/index.js';
import { userKey } from '../../shared/schema/row-keys.js';
import { qualifiedTableName } from '../../shared/schema/tables.js';
import { apiClient } from '../support/api.js';
import { answerDialog, expectAccessible, fromMenu, logIn, shownBodies, useBrowser } from '../support/browser.js';
import { eventually } from '../support/eventually.js';

const api = apiClient(inject('apiUrl'));
const hbase = new HBaseRestClient({ baseUrl: inject('hbaseRestUrl') });
const browser = useBrowser();
afterAll(() => hbase.close());

type User = Awaited<ReturnType<typeof api.newUser>>;
const publish = (u: User, body: string) => api.call('POST', '/posts', { token: u.token, body: { body } });
const follow = (u: User, t: User) => api.call('PUT', `/users/${u.handle}/following/${t.handle}`, { token: u.token });
const timelineSize = async (u: User) =>
  (await api.call('GET', `/users/${u.handle}/timeline?limit=100`, { token: u.token })).json.posts.length as number;

describe('the home timeline, in Chromium', () => {
  it('scrolls through a long timeline to its end: every post once, newest first', async () => {
    const [author, reader] = [await api.newUser('long_a'), await api.newUser('long_r')];
    await follow(reader, author);
    const bodies: string[] = [];
    for (let i = 1; i <= 47; i++) {
      bodies.unshift(`post ${i} 第${i}条`);
      expect((await publish(author, `post ${i} 第${i}条`)).status).toBe(201);
    }
    await eventually(async () => expect(await timelineSize(reader)).toBe(47));

    const t = await browser.open();
    await logIn(t.page, reader.handle, reader.password);
    await t.page.locator('article.post').first().waitFor();
    // Scroll until the list says it ended; each scroll brings the sentinel into view and the
    // next page (or the end) must follow.
    const [posts, end] = [t.page.locator('article.post'), t.page.locator('.list-end')];
    for (let i = 0; i < 10 && !(await end.isVisible()); i++) {
      const before = await posts.count();
      await t.page.mouse.wheel(0, 20_000);
      await expect
        .poll(async () => (await posts.count()) > before || (await end.isVisible()), { timeout: 15_000 })
        .toBe(true);
    }
    await t.page.getByText('已经到底了。').waitFor();
    expect(await shownBodies(t.page)).toEqual(bodies);
    await t.close();
  });

  it('tells a returning reader their timeline is being rebuilt (206), then shows it whole', async () => {
    const [author, away] = [await api.newUser('rg_a'), await api.newUser('rg_r')];
    await follow(away, author);
    expect((await api.call('GET', `/users/${away.handle}/timeline`, { token: away.token })).status).toBe(200);
    // Forty days pass for `away` (the inactivity window is 30): fan-out skips them from now on.
    await hbase.put(qualifiedTableName(inject('e2eNamespace'), 'inbox'), [
      { key: userKey(away.handle), cells: [{ column: 'm:seen', value: String(Date.now() - 40 * 86_400_000) }] },
    ]);
    await publish(author, 'while you were away 1');
    await publish(author, 'while you were away 2');

    const t = await browser.open();
    const statuses: number[] = [];
    t.page.on('response', (r) => {
      if (r.url().includes('/timeline')) statuses.push(r.status());
    });
    await logIn(t.page, away.handle, away.password);
    await t.page.getByText('欢迎回来！正在重建你的首页').waitFor();
    expect(statuses[0]).toBe(206);
    await expectAccessible(t.page, 'home while regenerating');
    // It asks again by itself until the API answers 200, then the notice goes.
    await t.page.getByText('欢迎回来！正在重建你的首页').waitFor({ state: 'hidden', timeout: 30_000 });
    expect(statuses.at(-1)).toBe(200);
    expect(await shownBodies(t.page)).toEqual(['while you were away 2', 'while you were away 1']);
    await t.close();
  });

  it('counts code points as the API does: 500 CJK/emoji characters fit, 501 do not; your own post can be deleted', async () => {
    const me = await api.newUser('cc');
    const t = await browser.open('en');
    await logIn(t.page, me.handle, me.password);
    const box = t.page.locator('#compose-text');
    const post = t.page.getByRole('button', { name: 'Post', exact: true });
    const full = '微'.repeat(250) + '😀'.repeat(250); // 750 UTF-16 units, 500 code points
    await box.fill(`${full}博`);
    await t.page.getByText('1 character too many').waitFor();
    expect(await post.isDisabled()).toBe(true);
    await box.fill(full);
    await t.page.getByText('0 characters left').waitFor();
    await post.click();
    await t.page.locator('section > .feed article.post').waitFor();
    expect(await shownBodies(t.page)).toEqual([full]); // the API accepted exactly what the counter allowed

    await fromMenu(t.page.locator('section > .feed article.post'), 'More actions', 'Delete');
    await answerDialog(t.page, 'Delete');
    await t.page.locator('section > .feed article.post').waitFor({ state: 'detached' });
    expect((await api.call('GET', `/users/${me.handle}/posts`)).json.posts).toEqual([]);
    await t.close();
  });
});
