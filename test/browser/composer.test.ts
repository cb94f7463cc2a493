// test/browser/composer.test.ts — the composer Weibo users expect, in Chromium: a draft kept per
// account across navigation and reloads until it is published (written once typing pauses, not
// at every keystroke), and never shown to another account on the same browser; the emoji
// picker and the @ / # suggestions, by keyboard and by mouse, in 中文 at 375 px (dark theme)
// and English at 1280 px (light), producing text that publishes into a post whose mention and
// topic are links; axe with the picker and the suggestion list open.
import { randomBytes } from 'node:crypto';
import type { Page } from 'playwright-core';
import { describe, expect, inject, it } from 'vitest';
import { apiClient } from '../support/api.js';
import { expectAccessible, logIn, postCard, setUp, show, useBrowser, type Locale } from '../support/browser.js';

const api = apiClient(inject('apiUrl'));
const browser = useBrowser();
const hex = () => randomBytes(3).toString('hex');

/** The draft entries the page keeps in localStorage, with their texts. */
const storedDrafts = (page: Page) =>
  page.evaluate(() => {
    const s = (
      globalThis as unknown as {
        localStorage: { length: number; key(i: number): string | null; getItem(k: string): string | null };
      }
    ).localStorage;
    return Array.from({ length: s.length }, (_, i) => s.key(i)!)
      .filter((k) => k.startsWith('weibo.draft.'))
      .map((k) => [k, (JSON.parse(s.getItem(k)!) as { text: string }).text]);
  });

/** The id of the element with the focus. */
const focused = (page: Page) =>
  page.evaluate(
    () => (globalThis as unknown as { document: { activeElement: { id: string } | null } }).document.activeElement?.id,
  );

/** The text of the element with the focus (an emoji of the picker, say). */
const activeText = (page: Page) =>
  page.evaluate(
    () =>
      (globalThis as unknown as { document: { activeElement: { textContent: string | null } | null } }).document
        .activeElement?.textContent,
  );

describe('the composer, in Chromium', () => {
  it('keeps drafts (post, comment, repost) per account across navigation and reloads until published', async () => {
    const [ann, bob] = [await setUp(() => api.newUser('cd_a')), await setUp(() => api.newUser('cd_b'))];
    const bobsPost = (
      await setUp(() =>
        api.call('POST', '/posts', {
          token: bob.token,
          body: { body: `bob says ${hex()}` },
          headers: { 'idempotency-key': `cd-${hex()}${hex()}` },
        }),
      )
    ).json.id as string;
    const t = await browser.open('en');
    const box = t.page.locator('#compose-text');
    await logIn(t.page, ann.handle, ann.password);
    await box.waitFor();

    // Typed: written to storage once typing pauses, not at every keystroke.
    await t.page.evaluate(() => {
      type Store = { setItem(k: string, v: string): void };
      const g = globalThis as unknown as { Storage: { prototype: Store }; draftWrites: number };
      const setItem = g.Storage.prototype.setItem;
      g.draftWrites = 0;
      g.Storage.prototype.setItem = function (this: Store, k: string, v: string) {
        if (k.startsWith('weibo.draft.')) g.draftWrites++;
        setItem.call(this, k, v);
      };
    });
    const draft = `Half a thought ${hex()}`;
    await box.click();
    await t.page.keyboard.type(draft);
    await expect.poll(() => storedDrafts(t.page)).toEqual([[`weibo.draft.v1:${ann.handle}:post`, draft]]);
    expect(await t.page.evaluate(() => (globalThis as unknown as { draftWrites: number }).draftWrites)).toBeLessThan(
      draft.length / 2,
    ); // one a keystroke without the pause

    // Another page of the app and back: the words are there.
    await t.page.getByRole('link', { name: 'Trending' }).first().click();
    await t.page.waitForURL(/#\/topics$/);
    await t.page.getByRole('link', { name: 'Home' }).first().click();
    await box.waitFor();
    expect(await box.inputValue()).toBe(draft);

    // More typed and the page reloaded at once (before any pause): all of it is there.
    await box.press('End');
    await t.page.keyboard.type(' and more');
    await t.page.reload();
    await box.waitFor();
    expect(await box.inputValue()).toBe(`${draft} and more`);
    expect(await storedDrafts(t.page)).toEqual([[`weibo.draft.v1:${ann.handle}:post`, `${draft} and more`]]);

    // Published: the box is empty, and stays so after a reload; nothing is kept.
    await t.page.getByRole('button', { name: 'Post', exact: true }).click();
    await t.page.getByText('Posted.').waitFor();
    await postCard(t.page, `${draft} and more`).waitFor();
    expect(await box.inputValue()).toBe('');
    await t.page.reload();
    await box.waitFor();
    expect(await box.inputValue()).toBe('');
    expect(await storedDrafts(t.page)).toEqual([]);

    // A comment and a repost comment on bob's post, left for the home page and come back to
    // with Back, then reloaded: both there, the repost form open again with its words.
    const postPage = `#/post/${encodeURIComponent(bobsPost)}`;
    const commentBox = t.page.getByLabel('Write a comment');
    const repostBox = t.page.getByLabel('Your comment (optional)');
    await show(t.page, postPage, commentBox);
    const [comment, why] = [`A comment in the making ${hex()}`, `Why I repost ${hex()}`];
    await commentBox.click();
    await t.page.keyboard.type(comment);
    await postCard(t.page, 'bob says')
      .getByRole('button', { name: /^Repost \d+$/ })
      .click();
    await repostBox.click();
    await t.page.keyboard.type(why);
    await t.page.getByRole('link', { name: 'Home' }).first().click();
    await box.waitFor();
    await t.page.goBack();
    await commentBox.waitFor();
    expect(await commentBox.inputValue()).toBe(comment);
    expect(await repostBox.inputValue()).toBe(why);
    await t.page.reload();
    await commentBox.waitFor();
    expect(await commentBox.inputValue()).toBe(comment);
    expect(await repostBox.inputValue()).toBe(why);

    // A new post draft too, then another account on this browser: it sees none of them.
    await show(t.page, '#/', box);
    await box.fill(`Not for bob ${hex()}`);
    await t.page.getByRole('button', { name: 'Log out' }).click();
    await logIn(t.page, bob.handle, bob.password);
    await box.waitFor();
    expect(await box.inputValue()).toBe('');
    await show(t.page, postPage, commentBox);
    expect(await commentBox.inputValue()).toBe('');
    expect(await repostBox.count()).toBe(0);
    expect(await storedDrafts(t.page)).toEqual([]);
    await t.close();
  });

  const runs: {
    locale: Locale;
    width: number;
    theme: 'dark' | 'light';
    words: { emoji: string; post: string; posted: string; hello: string };
  }[] = [
    {
      locale: 'zh-CN',
      width: 375,
      theme: 'dark',
      words: { emoji: '表情', post: '发布', posted: '发布成功。', hello: '你好' },
    },
    {
      locale: 'en',
      width: 1280,
      theme: 'light',
      words: { emoji: 'Emoji', post: 'Post', posted: 'Posted.', hello: 'Hello' },
    },
  ];

  for (const { locale, width, theme, words } of runs)
    it(`emoji and @ / # suggestions by keyboard and mouse publish a post with links (${locale}, ${width} px, ${theme})`, async () => {
      const [writer, carol] = [await setUp(() => api.newUser('ce_w')), await setUp(() => api.newUser('ce_c'))];
      const topic = `话题${hex()}`;
      // The topic is in use: someone posted it.
      await setUp(() =>
        api.call('POST', '/posts', {
          token: carol.token,
          body: { body: `#${topic}#` },
          headers: { 'idempotency-key': `ce-${hex()}${hex()}` },
        }),
      );
      const t = await browser.open(locale, { colorScheme: theme, viewport: { width, height: 800 } });
      const { page } = t;
      const box = page.locator('#compose-text');
      const emojiButton = page.getByRole('button', { name: words.emoji, exact: true });
      const picker = page.getByRole('dialog');
      await logIn(page, writer.handle, writer.password);
      await box.waitFor();
      const count = page.locator('#compose-count');
      const counted = async () => Number((await count.textContent())!.match(/\d+/)![0]);

      // Emoji by keyboard: Tab to the button, Enter opens with the focus on the first emoji,
      // arrows move, Enter inserts at the caret and gives the focus back to the box.
      await box.click();
      await page.keyboard.type(words.hello);
      await page.keyboard.press('Tab');
      expect(
        await emojiButton.evaluate((b) => b === (b.ownerDocument as { activeElement: unknown }).activeElement),
      ).toBe(true);
      await page.keyboard.press('Enter');
      await picker.waitFor();
      expect(await emojiButton.getAttribute('aria-expanded')).toBe('true');
      expect(await activeText(page)).toBe('😀');
      await expectAccessible(page, `emoji picker open (${locale}, ${width})`);
      await page.keyboard.press('ArrowRight');
      await page.keyboard.press('ArrowRight');
      await page.keyboard.press('ArrowLeft');
      await page.keyboard.press('Enter'); // 😃, the second
      await picker.waitFor({ state: 'hidden' });
      expect(await focused(page)).toBe('compose-text');
      expect(await box.inputValue()).toBe(`${words.hello}😃`);
      expect(await counted()).toBe(500 - [...words.hello].length - 1); // one emoji, one character
      // Down moves to the emoji drawn below; Escape closes without inserting, the focus back.
      await emojiButton.focus();
      await page.keyboard.press('Enter');
      await picker.waitFor();
      // Shown means focused: the arrow pressed next lands in the panel, however busy the machine.
      expect(await activeText(page)).toBe('😀');
      await page.keyboard.press('ArrowDown');
      const below = await activeText(page);
      expect(below).not.toBe('😀');
      expect(await picker.locator('button.emoji', { hasText: below ?? '' }).count()).toBeGreaterThan(0);
      await page.keyboard.press('Escape');
      await picker.waitFor({ state: 'hidden' });
      expect(await focused(page)).toBe('compose-text');
      expect(await box.inputValue()).toBe(`${words.hello}😃`);

      // Emoji by mouse, at the caret (here the start of the text); ❤️ is two code points, as the API counts.
      await box.evaluate((b) =>
        (b as unknown as { setSelectionRange(a: number, z: number): void }).setSelectionRange(0, 0),
      );
      await emojiButton.click();
      await picker.getByRole('button', { name: '❤️', exact: true }).click();
      await picker.waitFor({ state: 'hidden' });
      expect(await box.inputValue()).toBe(`❤️${words.hello}😃`);
      expect(await counted()).toBe(500 - [...`❤️${words.hello}😃`].length);

      // @ by keyboard: the list of people opens under the box; ↓ / Enter accepts.
      await box.press('End');
      await page.keyboard.type(` @${carol.handle.slice(0, 9)}`);
      const list = page.getByRole('listbox');
      const carolOption = list.getByRole('option').filter({ hasText: `@${carol.handle}` });
      await carolOption.waitFor();
      expect(await box.getAttribute('aria-expanded')).toBe('true');
      const activeId = await box.getAttribute('aria-activedescendant');
      expect(activeId).toBeTruthy();
      expect(await page.locator(`[id="${activeId}"]`).getAttribute('aria-selected')).toBe('true');
      await expectAccessible(page, `suggestions open (${locale}, ${width})`);
      // Move until carol's is the active option, then accept with Enter.
      for (let i = 0; i < 6 && (await carolOption.getAttribute('aria-selected')) !== 'true'; i++)
        await page.keyboard.press('ArrowDown');
      await page.keyboard.press('Enter');
      await list.waitFor({ state: 'hidden' });
      expect(await box.inputValue()).toBe(`❤️${words.hello}😃 @${carol.handle} `);
      expect(await box.getAttribute('aria-expanded')).toBe('false');

      // Escape closes the list, and the text stays as typed.
      await page.keyboard.type('#话');
      await list.getByRole('option').first().waitFor();
      await page.keyboard.press('Escape');
      await list.waitFor({ state: 'hidden' });
      expect(await box.inputValue()).toBe(`❤️${words.hello}😃 @${carol.handle} #话`);

      // # by mouse: more of the name typed, the topic clicked: Weibo's #topic# form.
      await page.keyboard.type(topic.slice(1));
      const topicOption = list.getByRole('option', { name: `#${topic}#` });
      await topicOption.click();
      await list.waitFor({ state: 'hidden' });
      expect(await focused(page)).toBe('compose-text');
      const text = `❤️${words.hello}😃 @${carol.handle} #${topic}# `;
      expect(await box.inputValue()).toBe(text);

      // Published: a post whose mention and topic are links, the topic's through to its page.
      await page.getByRole('button', { name: words.post, exact: true }).click();
      await page.getByText(words.posted).waitFor();
      const card = postCard(page, `@${carol.handle}`);
      await card.waitFor();
      expect(await card.getByRole('link', { name: `@${carol.handle}` }).getAttribute('href')).toBe(
        `#/u/${carol.handle}`,
      );
      const topicLink = card.getByRole('link', { name: `#${topic}#` });
      expect(await topicLink.getAttribute('href')).toBe(`#/topics/${encodeURIComponent(topic)}`);
      await topicLink.click();
      await show(page, `#/topics/${encodeURIComponent(topic)}`, postCard(page, `@${carol.handle}`));
      await t.close();
    });
});
