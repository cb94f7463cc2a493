// test/browser/settings.test.ts — 设置 and the profile in Chromium: ann (中文) reaches 设置 and
// 收藏 from the navigation, writes her bio and location, picks a cover picture, finds her data
// export and 注销账号 there (and no longer on her profile, which keeps only 编辑资料), and sees
// all of it on her profile; a reader in English sees the same. bob (English) picks the dark
// theme (on <html>, kept through a reload), lets nobody message him, and switches likes off: a
// like no longer reaches his notifications while a follow does. Axe on the settings and the
// profile at 1280 and 375 px.
// biome-ignore-all lint/performance/useDomNodeTextContent: a locator's innerText(), the rendered text these assertions mean, not the DOM property
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import sharp from 'sharp';
import { describe, expect, inject, it } from 'vitest';
import { apiClient } from '../support/api.js';
import { expectAccessible, logIn, screenshot, setUp, show, useBrowser, type TestPage } from '../support/browser.js';
import { handledFor, newCorrelationId } from '../support/queue.js';

const api = apiClient(inject('apiUrl'));
const browser = useBrowser();
const WIDTHS = [1280, 375];

/** A user made through the API, logged in on a fresh page in `locale`. */
async function loggedIn(prefix: string, locale: 'zh-CN' | 'en') {
  const user = await setUp(() => api.newUser(prefix));
  const t = await browser.open(locale);
  await logIn(t.page, user.handle, user.password);
  await t.page.waitForSelector('#compose-text');
  return { ...user, t };
}

async function accessibleAtBothWidths(t: TestPage, label: string) {
  for (const width of WIDTHS) {
    await t.page.setViewportSize({ width, height: 900 });
    await expectAccessible(t.page, `${label} at ${width} px`);
  }
}

const saved = (t: TestPage, path: RegExp) =>
  t.page.waitForResponse((r) => r.request().method() === 'PATCH' && path.test(r.url()) && r.status() === 200);

describe('settings (设置) and the profile, in Chromium', () => {
  it('bio, location and cover edited in 设置 show on the profile (zh and en); export and leaving live in 设置; 收藏 in the nav', async () => {
    const ann = await loggedIn('ann', 'zh-CN');
    const { page } = ann.t;
    const nav = page.getByRole('navigation', { name: '主导航' });
    expect(await nav.getByRole('link', { name: '收藏' }).getAttribute('href')).toBe('#/bookmarks');
    await nav.getByRole('link', { name: '设置' }).click();
    await page.getByRole('heading', { level: 1, name: '设置' }).waitFor();

    await page.getByLabel('简介').fill('写代码，也写诗');
    await page.getByLabel('所在地').fill('杭州');
    await Promise.all([saved(ann.t, /\/users\/[^/]+$/), page.getByRole('button', { name: '保存资料' }).click()]);
    const file = join(mkdtempSync(join(tmpdir(), 'cover-')), 'cover.png');
    await sharp({ create: { width: 900, height: 300, channels: 3, background: { r: 30, g: 120, b: 200 } } })
      .png()
      .toFile(file);
    await page.setInputFiles('#cover-file', file);
    await page.locator('img.settings-cover').waitFor({ timeout: 60_000 });
    expect(await page.locator('.avatar-status').allInnerTexts()).toContain('封面图已更换。');
    // Leaving and the export are here now.
    await page.getByRole('button', { name: '导出我的数据' }).waitFor();
    await page.getByRole('button', { name: '注销账号…' }).waitFor();
    await accessibleAtBothWidths(ann.t, 'settings (zh)');
    await screenshot(page, 'settings-zh');

    // Her profile: cover, bio, location; of the settings only the link to them.
    const header = page.locator('header.profile');
    await show(page, `#/u/${ann.handle}`, header.locator('.profile-bio'));
    expect(await header.locator('.profile-bio').innerText()).toBe('写代码，也写诗');
    expect(await header.locator('.profile-location').innerText()).toContain('杭州');
    expect(await header.locator('.profile-cover img').getAttribute('src')).toMatch(/\/cover\.webp$/);
    expect(await header.getByRole('link', { name: '编辑资料' }).getAttribute('href')).toBe('#/settings');
    for (const gone of ['导出我的数据', '注销账号…', '修改昵称', '更换头像'])
      expect(await page.getByRole('button', { name: gone }).count(), gone).toBe(0);
    await accessibleAtBothWidths(ann.t, 'own profile (zh)');

    // The language switched in 设置: the same page in English.
    await show(page, '#/settings', page.getByRole('heading', { level: 1, name: '设置' }));
    await page.getByRole('radio', { name: 'English' }).check();
    await page.getByRole('heading', { level: 1, name: 'Settings' }).waitFor();
    expect(await page.getByLabel('Bio').inputValue()).toBe('写代码，也写诗');
    await show(page, `#/u/${ann.handle}`, header.getByRole('link', { name: 'Edit profile' }));
    await accessibleAtBothWidths(ann.t, 'own profile (en)');
    await screenshot(page, 'profile-en-375');

    // A reader in English, logged out, sees the same; no way to edit it.
    const reader = await browser.open('en');
    const seen = reader.page.locator('header.profile');
    await show(reader.page, `#/u/${ann.handle}`, seen.locator('.profile-bio'));
    expect(await seen.locator('.profile-bio').innerText()).toBe('写代码，也写诗');
    expect(await seen.locator('.profile-location').innerText()).toContain('杭州');
    expect(await seen.locator('.profile-cover img').count()).toBe(1);
    expect(await seen.getByRole('link', { name: 'Edit profile' }).count()).toBe(0);
    await reader.close();
    await ann.t.close();
  });

  it('the theme on <html> survives a reload; nobody may message; likes switched off stop arriving while follows do', async () => {
    const bob = await loggedIn('bob', 'en');
    const ann = await setUp(() => api.newUser('ann'));
    const { page } = bob.t;
    const post = await setUp(() =>
      api.call('POST', '/posts', { token: bob.token, body: { body: 'like me if you can' } }),
    );
    await show(page, '#/settings', page.getByRole('heading', { level: 1, name: 'Settings' }));

    await page.getByRole('radio', { name: 'Dark' }).check();
    expect(await page.locator('html').getAttribute('data-theme')).toBe('dark');
    await page.reload();
    await page.getByRole('heading', { level: 1, name: 'Settings' }).waitFor();
    expect(await page.locator('html').getAttribute('data-theme')).toBe('dark');
    expect(await page.getByRole('radio', { name: 'Dark' }).isChecked()).toBe(true);
    await accessibleAtBothWidths(bob.t, 'settings, dark (en)');
    await page.getByRole('radio', { name: 'Same as the system' }).check();
    expect(await page.locator('html').getAttribute('data-theme')).toBeNull();

    await Promise.all([saved(bob.t, /\/settings$/), page.getByRole('radio', { name: 'Nobody' }).check()]);
    await Promise.all([saved(bob.t, /\/settings$/), page.getByRole('checkbox', { name: 'Likes' }).uncheck()]);
    await page.reload();
    await page.getByRole('radio', { name: 'Nobody' }).waitFor();
    expect(await page.getByRole('radio', { name: 'Nobody' }).isChecked()).toBe(true);
    expect(await page.getByRole('checkbox', { name: 'Likes' }).isChecked()).toBe(false);
    expect(await page.getByRole('checkbox', { name: 'New followers' }).isChecked()).toBe(true);

    // ann likes his post, then follows him: the follow is told, the like never is.
    const likeId = newCorrelationId('settings-like');
    await setUp(() =>
      api.call('PUT', `/users/${ann.handle}/likes/${post.json.id}`, {
        token: ann.token,
        headers: { 'x-correlation-id': likeId },
      }),
    );
    await setUp(() => api.call('PUT', `/users/${ann.handle}/following/${bob.handle}`, { token: ann.token }));
    const follow = page.locator('li.notification[data-type="follow"]');
    await show(page, '#/notifications', follow);
    await handledFor(inject('offlineLogFile'), likeId, { notify: 1 });
    await show(page, '#/notifications', follow);
    expect(await page.locator('li.notification').count()).toBe(1);
    expect(await page.locator('li.notification[data-type="like"]').count()).toBe(0);
    await bob.t.close();
  });
});
