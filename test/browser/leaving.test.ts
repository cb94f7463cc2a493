// test/browser/leaving.test.ts — 导出 and 注销 in Chromium (issue 23): ann (中文) exports her data
// in her settings (a link to a JSON file holding her post), then opens 注销账号 there, reads the
// warning with the date until which a login restores everything, gets a wrong password refused
// (and stays logged in), then confirms: she is logged out, and the login page says until when she
// can come back. bob (English) finds her profile gone ("does not exist");
// ann logs in again, is welcomed back, and bob sees her profile and her post again. Axe passes in both languages.
// biome-ignore-all lint/performance/useDomNodeTextContent: a locator's innerText(), the rendered text these assertions mean, not the DOM property
import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { annAndBob, expectAccessible, logIn, postCard, screenshot, show, useBrowser } from '../support/browser.js';

const browser = useBrowser();

describe('leaving (注销) and coming back, in Chromium', () => {
  it('warns with the date, refuses a wrong password, deactivates; the profile is gone for others until a login restores it', async () => {
    const words = `再见 ${randomBytes(3).toString('hex')}`;
    const { ann, password, a, b } = await annAndBob(browser);
    await a.page.fill('#compose-text', words);
    await a.page.getByRole('button', { name: '发布', exact: true }).click();
    await postCard(a.page, words).waitFor();
    await show(b.page, `#/u/${ann}`, postCard(b.page, words));

    // First she exports her data: prepared in the background, then a link to the file.
    await show(a.page, '#/settings', a.page.getByRole('button', { name: '导出我的数据' }));
    await a.page.getByRole('button', { name: '导出我的数据' }).click();
    const download = a.page.getByRole('link', { name: '下载我的数据（JSON）' });
    await download.waitFor({ timeout: 60_000 });
    const file = (await (await fetch((await download.getAttribute('href'))!)).json()) as {
      handle: string;
      posts: { body: string }[];
    };
    expect([file.handle, file.posts.map((p) => p.body)]).toEqual([ann, [words]]);
    await expectAccessible(a.page, 'export ready (zh)');

    // ann opens the flow in her settings: the warning names the date.
    await a.page.getByRole('button', { name: '注销账号…' }).click();
    const form = a.page.getByRole('form', { name: '注销账号' });
    const until = new Intl.DateTimeFormat('zh-CN', { dateStyle: 'medium' }).format(
      new Date(Date.now() + 30 * 86_400_000),
    );
    await expect(form.locator('.warning').innerText()).resolves.toContain(`在 ${until} 前重新登录即可恢复`);
    await expectAccessible(a.page, 'leave form (zh)');
    await screenshot(a.page, 'leave-zh');

    // A wrong password is refused, and she is still logged in.
    await a.page.getByLabel('输入密码以确认').fill('not my password');
    await a.page.getByRole('button', { name: '确认注销' }).click();
    await a.page.getByText('密码错误。').waitFor();
    expect(new URL(a.page.url()).hash).toBe('#/settings');

    // The right one: logged out, and the login page says until when she can come back.
    await a.page.getByLabel('输入密码以确认').fill(password);
    await Promise.all([
      a.page.waitForResponse((r) => r.request().method() === 'DELETE' && r.status() === 200),
      a.page.getByRole('button', { name: '确认注销' }).click(),
    ]);
    await a.page.getByText(`你的账号已注销。在 ${until} 前登录即可恢复`).waitFor();
    expect(new URL(a.page.url()).hash).toBe('#/login');
    await expectAccessible(a.page, 'login after leaving (zh)');

    // bob: her profile is gone.
    await show(b.page, `#/u/${ann}`, b.page.getByText('This user does not exist.'));
    expect(await postCard(b.page, words).count()).toBe(0);
    await expectAccessible(b.page, 'profile of an account that left (en)');

    // ann logs in again: everything is back.
    await logIn(a.page, ann, password);
    await a.page.waitForSelector('#compose-text');
    await a.page.getByText('欢迎回来！你的账号已恢复，一切如初。').waitFor();
    await show(b.page, `#/u/${ann}`, postCard(b.page, words));
    await expect(b.page.getByRole('heading', { level: 1 }).innerText()).resolves.toContain('安妮');
  });
});
