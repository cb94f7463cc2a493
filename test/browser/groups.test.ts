// test/browser/groups.test.ts — 分组 and 特别关注 in Chromium. The story: a reader who follows three
// people (made through the API, each with a post) names a group on the manage page (#/groups),
// puts two of the three in it with the 分组 picker on their profiles, and the group's tab on the
// home page shows exactly those two people's posts — still after a reload, the tab kept in the
// address; the third goes in 特别关注, posts, and the notifications page says so. Then the manage
// page takes one member out and deletes the group (asking first). axe on the home with its tabs,
// the picker open and the manage page.
import { randomBytes } from 'node:crypto';
import type { Page } from 'playwright-core';
import { describe, expect, inject, it } from 'vitest';
import { apiClient } from '../support/api.js';
import { answerDialog, expectAccessible, logIn, setUp, show, useBrowser } from '../support/browser.js';
import { eventually } from '../support/eventually.js';

const api = apiClient(inject('apiUrl'));
const browser = useBrowser();
const hex = (n = 3) => randomBytes(n).toString('hex');
type User = Awaited<ReturnType<typeof api.newUser>>;

/** Fan-out and notifications come through the queue: the settle window plus the poller's long poll. */
const DELIVERY_MS = 40_000;

async function publish(user: User, body: string): Promise<void> {
  const key = `grp-${hex(8)}`;
  const res = await setUp(() =>
    api.call('POST', '/posts', { token: user.token, body: { body }, headers: { 'idempotency-key': key } }),
  );
  expect([200, 201]).toContain(res.status);
}

/** The bodies of the posts in the home's feed (the tab's panel), top to bottom. */
const feedBodies = (page: Page) =>
  page.locator('#home-feed article.post .post-body').evaluateAll((bodies) => bodies.map((b) => b.textContent ?? ''));

/** Ticks (or unticks) `group` in the 分组 picker on `who`'s profile, and waits for the API's answer. */
async function pick(page: Page, who: string, group: string): Promise<void> {
  await show(page, `#/u/${who}`, page.getByRole('button', { name: `@${who} 的分组` }));
  await page.getByRole('button', { name: `@${who} 的分组` }).click();
  const panel = page.getByRole('dialog', { name: `把 @${who} 加入分组` });
  const box = panel.getByRole('checkbox', { name: group, exact: true });
  await box.waitFor();
  await Promise.all([
    page.waitForResponse((r) => r.request().method() === 'PUT' && r.url().includes('/members/') && r.ok()),
    box.check(),
  ]);
  await panel.getByText(`已把 @${who} 加入${group}。`).waitFor();
}

describe('分组 and 特别关注, in Chromium', () => {
  it('a group made in the UI and filled with the picker has its own tab; 特别关注 notifies', async () => {
    const [reader, ann, bob, cat] = [
      await api.newUser('grp_r'),
      await api.newUser('grp_a'),
      await api.newUser('grp_b'),
      await api.newUser('grp_c'),
    ];
    for (const u of [ann, bob, cat]) {
      const res = await setUp(() =>
        api.call('PUT', `/users/${reader.handle}/following/${u.handle}`, { token: reader.token }),
      );
      expect(res.status).toBe(200);
    }
    const posts = { ann: `安的日常 ${hex()}`, bob: `鲍勃的日常 ${hex()}`, cat: `猫的日常 ${hex()}` };
    await publish(ann, posts.ann);
    await publish(bob, posts.bob);
    await publish(cat, posts.cat);
    await eventually(async () => {
      const res = await api.call('GET', `/users/${reader.handle}/timeline`, { token: reader.token });
      expect(res.json.posts).toHaveLength(3);
    }, DELIVERY_MS);

    const r = await browser.open('zh-CN');
    await logIn(r.page, reader.handle, reader.password);
    const page = r.page;

    // The manage page: 特别关注 first; a group named there joins the list.
    const name = `同事${hex(2)}`;
    await show(page, '#/groups', page.getByRole('heading', { name: '分组', level: 1 }));
    await page.getByLabel('新建分组').fill(name);
    await page.getByRole('button', { name: '创建', exact: true }).click();
    await page.getByRole('heading', { name, level: 2 }).waitFor();
    expect(await page.locator('.group-name').allTextContents()).toEqual(['特别关注', name]);
    await expectAccessible(page, 'groups page');

    // The picker on two profiles puts ann and bob in it; cat goes in 特别关注.
    await pick(page, ann.handle, name);
    await expectAccessible(page, 'group picker open');
    await pick(page, bob.handle, name);
    await pick(page, cat.handle, '特别关注');

    // The home's tabs: 全部关注 shows all three; the group's tab exactly ann's and bob's.
    await show(page, '#/', page.getByRole('tab', { name, exact: true }));
    await page.locator('#home-feed article.post').nth(2).waitFor();
    expect((await feedBodies(page)).sort()).toEqual(Object.values(posts).sort());
    await page.getByRole('tab', { name, exact: true }).click();
    // Until the group's page answers, the feed shows 全部关注's posts or none: wait for the group's
    // own. Its first page may wait on a cold Lambda under serverless-offline on this loaded machine.
    await expect.poll(() => feedBodies(page), { timeout: 30_000 }).toEqual([posts.bob, posts.ann]);
    expect(new URL(page.url()).hash).toMatch(/^#\/\?group=g[0-9a-z]{7}$/);
    expect(await page.getByRole('tab', { name, exact: true }).getAttribute('aria-selected')).toBe('true');
    await expectAccessible(page, 'home with group tabs');
    // The keyboard moves between the tabs (one tab stop: the selected tab).
    await page.getByRole('tab', { name, exact: true }).focus();
    await page.keyboard.press('Home');
    expect(await page.locator(':focus').textContent()).toBe('全部关注');
    await page.keyboard.press('ArrowRight');
    expect(await page.locator(':focus').textContent()).toBe('特别关注');

    // A reload keeps the tab and what it shows.
    await page.reload();
    await page.locator('#home-feed article.post').nth(1).waitFor();
    expect(await page.getByRole('tab', { name, exact: true }).getAttribute('aria-selected')).toBe('true');
    expect(await feedBodies(page)).toEqual([posts.bob, posts.ann]);

    // 特别关注: cat posts, and the reader is told.
    const catNew = `猫又发了一条 ${hex()}`;
    await publish(cat, catNew);
    const told = page.locator('li.notification[data-type=special]', { hasText: `@${cat.handle}` });
    await eventually(
      async () => {
        await show(page, '#/notifications', page.getByRole('heading', { level: 1 }));
        await told.waitFor({ timeout: 10_000 });
      },
      DELIVERY_MS,
      500,
    );
    expect(await told.textContent()).toContain('你特别关注的');
    expect(await told.textContent()).toContain(catNew);

    // The manage page: the group's members, one taken out; then the group deleted, asked first.
    await show(page, '#/groups', page.getByRole('heading', { name, level: 2 }));
    await page.getByRole('button', { name: `${name}的成员` }).click();
    const members = page.getByRole('list', { name: `${name}的成员` });
    await members.getByText(`@${ann.handle}`).waitFor();
    expect(await members.locator('li').count()).toBe(2);
    await page.getByRole('button', { name: `把 @${bob.handle} 移出${name}` }).click();
    await members.getByText(`@${bob.handle}`).waitFor({ state: 'detached' });
    await expect.poll(() => page.locator('.group-row', { hasText: name }).locator('.count').textContent()).toBe('1 人');
    await page.getByRole('button', { name: `删除${name}` }).click();
    expect(await answerDialog(page, '删除')).toContain(name);
    await page.getByRole('heading', { name, level: 2 }).waitFor({ state: 'detached' });
    expect(await page.locator('.group-name').allTextContents()).toEqual(['特别关注']);
    // 特别关注 has neither rename nor delete.
    expect(await page.locator('.group-row').first().getByRole('button').allTextContents()).toEqual(['成员']);

    // Its tab is gone from the home.
    await show(page, `#/`, page.getByRole('tab', { name: '特别关注' }));
    await expect.poll(() => page.getByRole('tab').allTextContents()).toEqual(['全部关注', '特别关注']);
    await r.close();
  });
});
