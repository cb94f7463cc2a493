// test/browser/edit-post.test.ts — 编辑 in Chromium (issue 23): ann (中文) edits her post from its
// ⋯ menu; the card shows the new text and 已编辑, which opens the edit history, newest first; bob
// (English) follows her and reads the edited text in his timeline with "Edited"; an edit made
// from a card that read an older version is refused with a sentence (412), never saved over the
// newer text. Every page visited passes axe, in both languages.
import { randomBytes } from 'node:crypto';
import { describe, expect, inject, it } from 'vitest';
import { apiClient } from '../support/api.js';
import { annAndBob, expectAccessible, postCard, screenshot, show, useBrowser } from '../support/browser.js';

const api = apiClient(inject('apiUrl'));
const browser = useBrowser();

describe('editing a post (编辑), in Chromium', () => {
  it('edit from the ⋯ menu; 已编辑 opens the history; a follower reads the new text; a stale edit is refused', async () => {
    const { ann, password, a, b } = await annAndBob(browser);
    const tag = randomBytes(3).toString('hex');
    const [first, second] = [`第一版 ${tag}`, `第二版 ${tag}`];
    await a.page.fill('#compose-text', first);
    await a.page.getByRole('button', { name: '发布', exact: true }).click();
    await postCard(a.page, first).waitFor();

    await postCard(a.page, first).getByRole('button', { name: '更多操作', exact: true }).click();
    await a.page.getByRole('menuitem', { name: '编辑' }).click();
    const box = a.page.getByRole('textbox', { name: '微博的新内容' });
    await box.fill(second);
    await Promise.all([
      a.page.waitForResponse((r) => r.request().method() === 'PATCH' && r.status() === 200),
      a.page.getByRole('button', { name: '保存' }).click(),
    ]);
    const edited = postCard(a.page, second);
    await edited.getByRole('link', { name: '已编辑' }).waitFor();
    await expectAccessible(a.page, 'edited post (zh)');

    await edited.getByRole('link', { name: '已编辑' }).click();
    await a.page.getByRole('heading', { name: '编辑记录' }).waitFor();
    await a.page.locator('ol.versions li').nth(1).waitFor();
    const versions = await a.page.locator('ol.versions .post-body').allInnerTexts();
    expect(versions.map((v) => v.trim())).toEqual([second, first]);
    await expectAccessible(a.page, 'edit history (zh)');
    await screenshot(a.page, 'edit-history-zh');

    // bob follows ann and reads the edited text, marked.
    await show(b.page, `#/u/${ann}`, b.page.getByRole('button', { name: 'Follow', exact: true }));
    await b.page.getByRole('button', { name: 'Follow', exact: true }).click();
    await show(b.page, '#/', postCard(b.page, second));
    await postCard(b.page, second).getByRole('link', { name: 'Edited' }).waitFor();
    await expectAccessible(b.page, 'timeline with an edited post (en)');

    // A card that read version 1 while ann edits it again elsewhere (another session): refused
    // with a sentence, and the newer text is kept.
    await show(a.page, `#/u/${ann}`, postCard(a.page, second));
    const postId = await postCard(a.page, second).getAttribute('data-post-id');
    const elsewhere = (await api.call('POST', '/sessions', { body: { handle: ann, password } })).json.token as string;
    const third = `第三版 ${tag}`;
    expect(
      (
        await api.call('PATCH', `/posts/${postId}`, {
          token: elsewhere,
          headers: { 'if-match': '"1"' },
          body: { body: third },
        })
      ).status,
    ).toBe(200);
    await postCard(a.page, second).getByRole('button', { name: '更多操作', exact: true }).click();
    await a.page.getByRole('menuitem', { name: '编辑' }).click();
    await a.page.getByRole('textbox', { name: '微博的新内容' }).fill(`过时的 ${tag}`);
    await Promise.all([
      a.page.waitForResponse((r) => r.request().method() === 'PATCH' && r.status() === 412),
      a.page.getByRole('button', { name: '保存' }).click(),
    ]);
    await a.page.getByText('这条微博在你打开后已被修改').waitFor();
    expect((await api.call('GET', `/posts/${postId}`)).json.body).toBe(third);
  });
});
