// test/browser/story.test.ts — the seeds' story in a real browser: two people sign up, one
// follows the other from their profile page, the other posts, the post appears in the
// follower's timeline; unfollow removes it. Every page visited passes axe; logging in renders
// the first timeline page after exactly two API round trips (the unread badge asks after it).
import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { eventually } from '../support/eventually.js';
import { expectAccessible, shownBodies, signUp, uniqueHandle, useBrowser } from '../support/browser.js';

const browser = useBrowser();

const handle = uniqueHandle;

describe('the seeds’ story, in Chromium', () => {
  it('ann signs up and posts; bob signs up, follows ann, sees her post; unfollows, and it is gone', async () => {
    const [ann, bob] = [handle('ann'), handle('bob')];
    const password = 'correct horse battery';
    const a = await browser.open();
    const b = await browser.open();

    await signUp(a.page, ann, '安妮', password);
    await expectAccessible(a.page, 'home (empty)');
    await signUp(b.page, bob, '小波', password);

    // bob finds ann's profile and follows her.
    await b.page.goto(`/#/u/${ann}`);
    await b.page.locator('h1', { hasText: '安妮' }).waitFor();
    await expectAccessible(b.page, 'profile of another user');
    await b.page.getByRole('button', { name: '关注', exact: true }).click();
    await b.page.getByRole('button', { name: '取消关注' }).waitFor();
    await b.page.locator('.counts', { hasText: '1 粉丝' }).waitFor();

    // ann posts (CJK and emoji count one each).
    const text = `你好，微博！🎉 ${randomBytes(3).toString('hex')}`;
    await a.page.fill('#compose-text', text);
    expect(await a.page.textContent('#compose-count')).toBe(`还可以输入 ${500 - [...text].length} 字`);
    await a.page.getByRole('button', { name: '发布' }).click();
    await a.page.locator('article.post', { hasText: text }).waitFor();
    expect(await shownBodies(a.page)).toEqual([text]);

    // It reaches bob's timeline through fan-out.
    await eventually(async () => {
      await b.page.goto('/#/');
      await b.page.reload();
      await b.page.waitForSelector('.list-end');
      expect(await shownBodies(b.page)).toEqual([text]);
    });
    await expectAccessible(b.page, 'home with a post');

    // bob unfollows; ann's post leaves his timeline.
    await b.page.goto(`/#/u/${ann}`);
    await b.page.getByRole('button', { name: '取消关注' }).click();
    await b.page.getByRole('button', { name: '关注', exact: true }).waitFor();
    await b.page.goto('/#/');
    await b.page.reload();
    // His home is empty again: it shows what is hot instead, and not her post.
    await b.page.locator('.newcomer').waitFor();
    expect(await shownBodies(b.page)).not.toContain(text);

    await a.close();
    await b.close();
  });

  it('renders the first timeline page after login in two API round trips (login, timeline)', async () => {
    const me = handle('rt');
    const password = 'round trips please';
    const setup = await browser.open();
    await signUp(setup.page, me, 'RT', password);
    await setup.close();

    const t = await browser.open();
    const page = t.page;
    await page.goto('/#/login');
    await page.waitForSelector('#login-handle');
    const calls: string[] = [];
    const timeline = `/api/users/${me}/timeline`;
    page.on('request', (r) => {
      const url = new URL(r.url());
      if (url.pathname.startsWith('/api/')) calls.push(`${r.method()} ${url.pathname}`);
    });
    page.on('response', (r) => new URL(r.url()).pathname === timeline && calls.push('timeline answered'));
    await page.fill('#login-handle', me);
    await page.fill('#login-password', password);
    await page.click('form button[type=submit]');
    await page.waitForSelector('.list-end');
    // The header's badges ask too, but only once the page's own requests have answered
    // (whenQuiet in web/src/api/client.ts): after the timeline's answer, never beside it. The
    // notifications badge asks at load; the 私信 badge once the live channel is open, which may
    // be before or after the notifications badge has answered.
    await page.locator('a.nav-notifications[data-unread]').waitFor();
    const answered = calls.indexOf('timeline answered');
    expect(calls.slice(0, answered + 1)).toEqual(['POST /api/sessions', `GET ${timeline}`, 'timeline answered']);
    // This home is empty, so after its answer the page asks for the hot feed in its place; the
    // group tabs ask for the reader's groups once the page's own requests have answered.
    const badges = [`GET /api/users/${me}/notifications/unread`, `GET /api/users/${me}/message-badge`];
    const after = [...badges, 'GET /api/hot', `GET /api/users/${me}/groups`];
    expect(calls.slice(answered + 1)).toContain(badges[0]);
    expect(calls.slice(answered + 1)).toContain('GET /api/hot');
    for (const call of calls.slice(answered + 1)) expect(after).toContain(call);
    await t.close();
  });

  it('edits the display name, and lists who follows whom', async () => {
    const [me, other] = [handle('ed'), handle('ot')];
    const p = await browser.open('en');
    const o = await browser.open('en');
    await signUp(o.page, other, 'Other', 'password other');
    await signUp(p.page, me, 'Before', 'password mine');
    await p.page.goto(`/#/u/${other}`);
    await p.page.getByRole('button', { name: 'Follow', exact: true }).click();
    await p.page.getByRole('button', { name: 'Unfollow' }).waitFor();

    await p.page.goto('/#/settings');
    await p.page.fill('#settings-name', 'After 之后');
    await Promise.all([
      p.page.waitForResponse((r) => r.request().method() === 'PATCH' && r.status() === 200),
      p.page.getByRole('button', { name: 'Save profile' }).click(),
    ]);
    await p.page.goto(`/#/u/${me}`);
    await p.page.locator('h1', { hasText: 'After 之后' }).waitFor();
    await expectAccessible(p.page, 'own profile');

    await p.page.getByRole('link', { name: /Following/ }).click();
    await p.page.locator('ul.users li', { hasText: `@${other}` }).waitFor();
    await expectAccessible(p.page, 'following list');
    await p.page.goto(`/#/u/${other}/followers`);
    await p.page.locator('ul.users li', { hasText: `@${me}` }).waitFor();
    await p.close();
    await o.close();
  });
});
