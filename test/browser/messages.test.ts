// test/browser/messages.test.ts — 私信 in Chromium, two people in two browsers: ann (中文) opens
// bob's profile, presses 私信 and sends a text with Enter; bob's badge counts it live and the
// conversation list shows it; bob opens it and ann sees 已读 under her message; bob replies with a
// picture (uploaded with purpose `message`) and words that ann sees arrive live (said to screen
// readers); ann recalls her message within the 2 minutes and bob sees it go. Then a stranger's first messages land in bob's requests, the
// stranger's composer closes once the request holds all it may (403 message_request_pending), and
// bob's accept moves the conversation to his messages and opens the stranger's composer again.
// axe on the list and the conversation, light and dark.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import sharp from 'sharp';
import { afterAll, describe, expect, inject, it } from 'vitest';
import { apiClient } from '../support/api.js';
import { expectAccessible, logIn, setUp, useBrowser } from '../support/browser.js';

const api = apiClient(inject('apiUrl'));
const browser = useBrowser();
const dir = mkdtempSync(join(tmpdir(), 'weibo-messages-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

type User = Awaited<ReturnType<typeof api.newUser>>;
const follow = (u: User, target: User) =>
  setUp(() => api.call('PUT', `/users/${u.handle}/following/${target.handle}`, { token: u.token }));
const LIVE_MS = 20_000;

describe('私信 in Chromium', () => {
  it('a conversation: sent with Enter, counted and shown live, 已读, a picture reply, a recall within 2 minutes', async () => {
    const [ann, bob] = [await api.newUser('dm_ann'), await api.newUser('dm_bob')];
    await follow(bob, ann); // bob's setting admits people he follows: ann's first message opens a conversation
    const a = await browser.open('zh-CN');
    const b = await browser.open('en', { colorScheme: 'dark' });
    await logIn(a.page, ann.handle, ann.password);
    await logIn(b.page, bob.handle, bob.password);
    const badge = b.page.locator('a.nav-messages[data-unread]');
    await expect.poll(() => badge.getAttribute('data-unread'), { timeout: LIVE_MS }).toBe('0');

    // ann: bob's profile → 私信 → the first message, sent with Enter (Shift+Enter is a new line).
    await a.page.goto(`/#/u/${bob.handle}`);
    await a.page.locator('a.message-button', { hasText: '私信' }).click();
    await a.page.waitForURL(`**/#/messages/${bob.handle}`);
    await a.page.getByText(/还没有私信/).waitFor();
    const box = a.page.getByRole('textbox', { name: /发给 .* 的私信/ });
    await box.fill('你好 bob');
    await box.press('Shift+Enter');
    await box.pressSequentially('第二行');
    await box.press('Enter');
    const mine = a.page.locator('li.message.mine');
    await expect.poll(() => mine.locator('.bubble').textContent()).toBe('你好 bob\n第二行');
    await expect.poll(() => box.inputValue()).toBe('');

    // bob: the badge counts it with no reload; the list shows it, unread.
    await expect.poll(() => badge.getAttribute('data-unread'), { timeout: LIVE_MS }).toBe('1');
    await b.page.locator('a.nav-messages').click();
    const item = b.page.locator(`li.conversation-item[data-peer="${ann.handle}"]`);
    await item.waitFor();
    expect(await item.locator('.conversation-preview').textContent()).toBe('你好 bob 第二行');
    expect(await item.locator('.conversation-unread').textContent()).toContain('1 unread');
    await expectAccessible(b.page, 'the conversation list (en, dark)');

    // bob opens it: read; ann sees 已读 under her message, told by the live channel.
    await item.getByRole('link').click();
    await b.page.locator('li.message.theirs .bubble', { hasText: '你好 bob' }).waitFor();
    await expect.poll(() => badge.getAttribute('data-unread'), { timeout: LIVE_MS }).toBe('0');
    await mine.locator('.read-mark', { hasText: '已读' }).waitFor({ timeout: LIVE_MS });

    // bob replies with a picture (uploaded for a message) and words; ann sees both arrive live.
    const picture = join(dir, 'reply.png');
    await sharp({ create: { width: 600, height: 400, channels: 3, background: { r: 200, g: 60, b: 40 } } })
      .png()
      .toFile(picture);
    await b.page.locator('#compose-pictures').setInputFiles(picture);
    await b.page.locator('.picture-item[data-phase="ready"]').waitFor({ timeout: 60_000 });
    const reply = b.page.getByRole('textbox', { name: /^Message to / });
    await reply.fill('a picture for you');
    await reply.press('Enter');
    await b.page.locator('li.message.mine .bubble', { hasText: 'a picture for you' }).waitFor();
    const theirs = a.page.locator('li.message.theirs');
    await theirs.locator('.bubble', { hasText: 'a picture for you' }).waitFor({ timeout: LIVE_MS });
    expect(await a.page.locator('li.message .bubble').allTextContents()).toEqual([
      '你好 bob\n第二行',
      'a picture for you',
    ]);
    const img = theirs.locator('.picture-grid img');
    await img.waitFor();
    await expect
      .poll(() => img.evaluate((el) => (el as unknown as { naturalWidth: number }).naturalWidth))
      .toBeGreaterThan(0);
    // The screen reader is told of it, politely.
    await expect
      .poll(() => a.page.locator('.conversation-page .sr-status[role=status]').first().textContent())
      .toContain('a picture for you');
    await expectAccessible(a.page, 'a conversation (zh, light)');

    // ann recalls her message (within 2 minutes): both see the placeholder, the words gone.
    await mine.getByRole('button', { name: '这条消息的操作' }).click();
    await a.page.getByRole('menuitem', { name: '撤回', exact: true }).click();
    await a.page.locator('li.message.notice-line', { hasText: '你撤回了一条消息' }).waitFor();
    await b.page
      .locator('li.message.notice-line', { hasText: 'They recalled a message' })
      .waitFor({ timeout: LIVE_MS });
    expect(await b.page.locator('.messages').textContent()).not.toContain('你好 bob');
    await expectAccessible(b.page, 'a conversation with a recalled message (en, dark)');

    await a.close();
    await b.close();
  });

  it('a stranger’s request: it waits in the requests tab, the stranger can send two, and accept moves it', async () => {
    const [bob, stranger] = [await api.newUser('dm_rb'), await api.newUser('dm_rs')];
    const b = await browser.open('en');
    const s = await browser.open('zh-CN', { colorScheme: 'dark' });
    await logIn(b.page, bob.handle, bob.password);
    await logIn(s.page, stranger.handle, stranger.password);

    // The stranger writes twice: a request (bob does not follow them), which waits.
    await s.page.goto(`/#/messages/${bob.handle}`);
    const box = s.page.getByRole('textbox', { name: /发给 .* 的私信/ });
    for (const text of ['你好，我是陌生人', '请回复我']) {
      await box.fill(text);
      await box.press('Enter');
      await s.page.locator('li.message.mine .bubble', { hasText: text }).waitFor();
    }
    await s.page.getByText('等待对方接受你的私信请求。').waitFor();
    // A third is refused until bob accepts: said, and the composer closes.
    await box.fill('第三条');
    await box.press('Enter');
    await s.page.getByText('你的私信请求还在等待对方回复，对方回复或接受后才能继续发送。').waitFor();
    await expect.poll(() => box.isDisabled()).toBe(true);
    await expectAccessible(s.page, 'a request waiting (zh, dark)');

    // bob: the badge counts the request; it is in the requests tab, not in his messages.
    const badge = b.page.locator('a.nav-messages[data-unread]');
    await b.page.goto('/#/messages');
    await expect.poll(() => badge.getAttribute('data-unread'), { timeout: LIVE_MS }).toBe('1');
    await b.page.getByText('No messages yet.', { exact: false }).waitFor();
    await b.page.getByRole('button', { name: /^Requests/ }).click();
    const item = b.page.locator(`li.conversation-item[data-peer="${stranger.handle}"]`);
    await item.waitFor();
    expect(await item.locator('.conversation-preview').textContent()).toBe('请回复我');
    await expectAccessible(b.page, 'the requests tab (en, light)');
    await item.getByRole('button', { name: /^Accept/ }).click();
    await item.waitFor({ state: 'detached' });
    await b.page.getByRole('button', { name: /^Messages/ }).click();
    await b.page.locator(`li.conversation-item[data-peer="${stranger.handle}"]`).waitFor();

    // The stranger's conversation opens again, told by the live channel.
    await expect.poll(() => box.isDisabled(), { timeout: LIVE_MS }).toBe(false);
    await s.page.getByText('等待对方接受你的私信请求。').waitFor({ state: 'detached' });
    await box.fill('谢谢接受');
    await box.press('Enter');
    await s.page.locator('li.message.mine .bubble', { hasText: '谢谢接受' }).waitFor();

    await b.close();
    await s.close();
  });
});
