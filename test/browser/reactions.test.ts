// test/browser/reactions.test.ts — comments, reposts and likes in Chromium (issue 10). The story:
// ann (中文) posts; bob (English, following her) likes it (the count and his state survive a
// reload; ann sees the count but not as her own like), sees himself in the who-liked list,
// unlikes, reposts with a comment (the repost shows on his profile with ann's original
// embedded), comments; ann replies to his comment ("回复 @bob"), switches the order, deletes his
// comment on her post, deletes her post — and bob's repost then says the original is deleted,
// in both languages. Also: a like the API never answered is taken back; comments page on "load
// more" in either order; an anonymous reader sees the counts and is asked to log in to comment.
// Every page visited passes axe; screenshots of the new views go to .local/screenshots.
import { randomBytes } from 'node:crypto';
import type { Locator, Page } from 'playwright-core';
import { describe, expect, inject, it } from 'vitest';
import { apiClient } from '../support/api.js';
import {
  annAndBob,
  expectAccessible,
  fromMenu,
  logIn,
  postCard,
  screenshot,
  setUp,
  show,
  shownBodies,
  useBrowser,
} from '../support/browser.js';
import { eventually } from '../support/eventually.js';

const api = apiClient(inject('apiUrl'));
const browser = useBrowser();

/** The card of the post with this text of its own (not a repost that embeds it). */
const like = (scope: Locator) => scope.getByRole('button', { name: /^(Like|赞) \d+$/ });

/** What a card shows of its like: pressed or not, and the count (its button says both). */
async function likeShown(scope: Locator): Promise<{ pressed: string | null; count: number }> {
  const name = (await like(scope).getAttribute('aria-label'))!;
  return { pressed: await like(scope).getAttribute('aria-pressed'), count: Number(name.split(' ').pop()) };
}

/** Clicks and waits for the API's answer to the request it sends. */
async function clickAndAnswer(page: Page, target: Locator, method: string, path: RegExp): Promise<number> {
  const [response] = await Promise.all([
    page.waitForResponse((r) => r.request().method() === method && path.test(new URL(r.url()).pathname)),
    target.click(),
  ]);
  return response.status();
}

describe('comments, reposts and likes, in Chromium', () => {
  it('the story: like, who liked, unlike, repost with a comment, comment, reply, delete, original deleted', async () => {
    const { ann, bob, a, b } = await annAndBob(browser);

    // bob follows ann; ann posts.
    await show(b.page, `#/u/${ann}`, b.page.getByRole('button', { name: 'Follow', exact: true }));
    await b.page.getByRole('button', { name: 'Follow', exact: true }).click();
    await b.page.getByRole('button', { name: 'Unfollow' }).waitFor();
    const text = `今天的第一条微博 🌞 ${randomBytes(3).toString('hex')}`;
    await a.page.fill('#compose-text', text);
    await a.page.getByRole('button', { name: '发布' }).click();
    const annCard = postCard(a.page, text);
    await annCard.waitFor();
    const postId = (await annCard.getAttribute('data-post-id'))!;
    expect(await likeShown(annCard)).toEqual({ pressed: 'false', count: 0 });

    // It reaches bob's timeline; he likes it there: pressed, count 1, and both survive a reload.
    await eventually(async () => {
      await b.page.goto('/#/');
      await b.page.reload();
      await b.page.waitForSelector('.list-end');
      expect(await shownBodies(b.page)).toEqual([text]);
    });
    const bobsView = postCard(b.page, text);
    expect(await clickAndAnswer(b.page, like(bobsView), 'PUT', /\/likes\//)).toBe(200);
    expect(await likeShown(bobsView)).toEqual({ pressed: 'true', count: 1 });
    await show(b.page, '#/', bobsView);
    expect(await likeShown(bobsView)).toEqual({ pressed: 'true', count: 1 });
    await expectAccessible(b.page, 'home with a liked post (en)');

    // The post page (optional auth: the token rides along) agrees; ann sees the count, not as hers.
    const postPage = `#/post/${encodeURIComponent(postId)}`;
    await show(b.page, postPage, postCard(b.page, text));
    expect(await likeShown(postCard(b.page, text))).toEqual({ pressed: 'true', count: 1 });
    await show(a.page, postPage, annCard);
    expect(await likeShown(annCard)).toEqual({ pressed: 'false', count: 1 });

    // The like count leads to who liked it.
    await postCard(b.page, text).locator('a.like-count').click();
    await b.page.getByRole('heading', { name: 'Who liked this' }).waitFor();
    await b.page.locator('ul.users li', { hasText: `@${bob}` }).waitFor();
    expect(await b.page.locator('ul.users li').count()).toBe(1);
    await expectAccessible(b.page, 'who liked (en)');
    await screenshot(b.page, 'en-likers');

    // Unlike, from the timeline: back to 0, and it stays so.
    await show(b.page, '#/', bobsView);
    expect(await clickAndAnswer(b.page, like(bobsView), 'DELETE', /\/likes\//)).toBe(200);
    expect(await likeShown(bobsView)).toEqual({ pressed: 'false', count: 0 });
    await show(b.page, '#/', bobsView);
    expect(await likeShown(bobsView)).toEqual({ pressed: 'false', count: 0 });

    // Repost with a comment (转发理由): the form opens inline, with the composer's counter.
    const why = `Worth reading ${randomBytes(2).toString('hex')}`;
    await bobsView.getByRole('button', { name: 'Repost 0' }).click();
    const reason = b.page.getByLabel('Your comment (optional)');
    await reason.fill(why);
    await b.page.getByText(`${500 - why.length} characters left`).waitFor();
    await expectAccessible(b.page, 'repost form open (en)');
    await screenshot(b.page, 'en-repost-form');
    expect(
      await clickAndAnswer(b.page, bobsView.getByRole('button', { name: 'Repost', exact: true }), 'POST', /\/reposts$/),
    ).toBe(201);
    await bobsView.getByRole('button', { name: 'Reposted 1' }).waitFor();
    // The repost is on top of bob's timeline at once, ann's original embedded.
    const repostCard = postCard(b.page, why);
    await repostCard.locator('.original', { hasText: text }).waitFor();
    expect((await shownBodies(b.page))[0]).toBe(why);

    // …and on his profile, from the server.
    const onProfile = postCard(b.page, why);
    await show(b.page, `#/u/${bob}`, onProfile);
    const original = onProfile.locator('.original');
    expect(await original.locator('.author .handle').textContent()).toBe(`@${ann}`);
    expect(await original.locator('.original-body').textContent()).toBe(text);
    expect(await original.locator('.original-counts').textContent()).toBe('1 repost · 0 comments · 0 likes');
    await expectAccessible(b.page, 'profile with a repost (en)');
    await screenshot(b.page, 'en-repost');

    // bob comments on ann's post; the card's comment count leads there.
    await show(b.page, '#/', bobsView);
    await bobsView.getByRole('link', { name: 'Comments 0' }).click();
    await b.page.getByRole('heading', { name: 'Comments' }).waitFor();
    await b.page.getByText('No comments yet.').waitFor();
    const said = 'Great post! 👍';
    await b.page.getByLabel('Write a comment').fill(said);
    await b.page.getByText(`${500 - [...said].length} characters left`).waitFor();
    expect(
      await clickAndAnswer(b.page, b.page.getByRole('button', { name: 'Comment', exact: true }), 'POST', /\/comments$/),
    ).toBe(201);
    await b.page.locator('li.comment', { hasText: said }).waitFor();
    await postCard(b.page, text).getByRole('link', { name: 'Comments 1' }).waitFor();
    await expectAccessible(b.page, 'post page with a comment (en)');

    // ann replies to bob's comment: the box says whom to, the reply says "回复 @bob".
    const bobsComment = a.page.locator('li.comment', { hasText: said });
    await show(a.page, postPage, bobsComment);
    await bobsComment.getByRole('button', { name: '回复', exact: true }).click();
    const answer = '谢谢你！';
    await a.page.getByLabel(`回复 @${bob}`).fill(answer);
    await expectAccessible(a.page, 'replying to a comment (zh)');
    expect(
      await clickAndAnswer(a.page, a.page.getByRole('button', { name: '评论', exact: true }), 'POST', /\/comments$/),
    ).toBe(201);
    const reply = a.page.locator('li.comment', { hasText: answer });
    expect(await reply.locator('.reply-to').textContent()).toBe(`回复 @${bob}`);
    await a.page.getByLabel('发表评论').waitFor(); // the box is back to a plain comment
    const commentBodies = () => a.page.locator('li.comment .comment-body').allTextContents();
    // The reply is in bob's comment's thread, under it.
    expect(await commentBodies()).toEqual([said, answer]);
    await postCard(a.page, text).getByRole('link', { name: '评论 2' }).waitFor();

    // Oldest first, one click away; the reply survives a reload (it is the server's).
    await show(a.page, postPage, reply);
    await a.page.getByRole('button', { name: '最早在前' }).click();
    await eventually(async () => expect(await commentBodies()).toEqual([said, answer]));
    await expectAccessible(a.page, 'post page, oldest first (zh)');
    await screenshot(a.page, 'zh-comments');

    // bob sees the reply in English; he may delete only his own comment.
    const annReply = b.page.locator('li.comment', { hasText: answer });
    await show(b.page, postPage, annReply);
    expect(await annReply.locator('.reply-to').textContent()).toBe(`reply to @${bob}`);
    const commentMenu = { name: 'More actions for this comment', exact: true };
    expect(await annReply.getByRole('button', commentMenu).count()).toBe(0);
    expect(await b.page.locator('li.comment', { hasText: said }).getByRole('button', commentMenu).count()).toBe(1);

    // ann deletes bob's comment on her post: from its "⋯" menu, after the page's own question.
    await fromMenu(bobsComment, '评论的更多操作', '删除');
    expect(
      await clickAndAnswer(
        a.page,
        a.page.getByRole('dialog').getByRole('button', { name: '删除', exact: true }),
        'DELETE',
        /\/comments\//,
      ),
    ).toBe(204);
    await bobsComment.waitFor({ state: 'detached' });
    // Its reply remains: the deleted comment stays as a placeholder over its thread.
    expect(await commentBodies()).toEqual(['该评论已删除', answer]);
    await postCard(a.page, text).getByRole('link', { name: '评论 1' }).waitFor();
    await show(b.page, postPage, annReply);
    expect(await b.page.locator('li.comment').allTextContents()).toEqual([
      'This comment was deleted.',
      expect.stringContaining(answer),
    ]);

    // ann deletes her post; bob's repost now says its original is gone, in both languages.
    await fromMenu(postCard(a.page, text), '更多操作', '删除');
    expect(
      await clickAndAnswer(
        a.page,
        a.page.getByRole('dialog').getByRole('button', { name: '删除', exact: true }),
        'DELETE',
        /^\/api\/posts\/[^/]+$/,
      ),
    ).toBe(204);
    await a.page.getByText('微博已删除。').waitFor();
    await show(b.page, `#/u/${bob}`, onProfile.getByText('The original post has been deleted.'));
    expect(await onProfile.locator('.original-body').count()).toBe(0);
    expect(await onProfile.getByRole('button', { name: /^Repost/ }).isDisabled()).toBe(true);
    await expectAccessible(b.page, 'repost of a deleted original (en)');
    await b.page.getByLabel('Language').selectOption('zh-CN');
    await onProfile.getByText('原微博已删除').waitFor();
    await expectAccessible(b.page, 'repost of a deleted original (zh)');
    await screenshot(b.page, 'zh-original-deleted');

    await a.close();
    await b.close();
  });

  it('takes a like back when the API never answers it', async () => {
    const [author, reader] = [await api.newUser('lk_a'), await api.newUser('lk_r')];
    const body = `like me ${randomBytes(3).toString('hex')}`;
    const { id } = (await setUp(() => api.call('POST', '/posts', { token: author.token, body: { body } })))!.json;
    const t = await browser.open('en');
    await logIn(t.page, reader.handle, reader.password);
    await t.page.waitForSelector('#compose-text');
    const shown = postCard(t.page, body);
    await show(t.page, `#/post/${encodeURIComponent(id)}`, shown);

    await t.page.route('**/api/users/*/likes/*', (route) => route.abort('connectionrefused'));
    await like(shown).click();
    await shown.getByRole('alert').getByText('Cannot reach the server').waitFor();
    expect(await likeShown(shown)).toEqual({ pressed: 'false', count: 0 });
    await t.page.unroute('**/api/users/*/likes/*');

    // A like that does reach the API sticks.
    expect(await clickAndAnswer(t.page, like(shown), 'PUT', /\/likes\//)).toBe(200);
    expect(await likeShown(shown)).toEqual({ pressed: 'true', count: 1 });
    await t.close();
  });

  it('pages comments with "load more" in either order; anonymous readers see counts and a way to log in', async () => {
    const [author, c1, c2] = [await api.newUser('cm_a'), await api.newUser('cm_1'), await api.newUser('cm_2')];
    const { id } = (await setUp(() =>
      api.call('POST', '/posts', { token: author.token, body: { body: '评论分页 📄' } }),
    ))!.json;
    // 22 comments (more than a page of 20), alternating authors to stay under the per-user limit.
    // A comment whose Lambda timed out may or may not exist: the server's list is the expectation.
    for (let i = 1; i <= 22; i++) {
      const res = await setUp(() =>
        api.call('POST', `/posts/${id}/comments`, {
          token: (i % 2 ? c1 : c2).token,
          body: { body: `comment ${String(i).padStart(2, '0')}` },
        }),
      );
      if (res) expect(res.status).toBe(201);
    }
    await setUp(() => api.call('PUT', `/users/${c1.handle}/likes/${id}`, { token: c1.token }));
    const bodies: string[] = (await api.call('GET', `/posts/${id}/comments?order=oldest&limit=100`)).json.comments.map(
      (c: { body: string }) => c.body,
    );
    expect(bodies.length).toBeGreaterThan(20);

    const t = await browser.open('en');
    const shown = () => t.page.locator('li.comment .comment-body').allTextContents();
    await show(t.page, `#/post/${encodeURIComponent(id)}`, t.page.locator('li.comment').first());
    // Nobody is logged in: counts, no reply or delete, a link to log in instead of the box.
    await postCard(t.page, '评论分页')
      .getByRole('link', { name: `Comments ${bodies.length}` })
      .waitFor();
    expect(await likeShown(postCard(t.page, '评论分页'))).toEqual({ pressed: 'false', count: 1 });
    await t.page.getByRole('link', { name: 'Log in to comment.' }).waitFor();
    expect(await t.page.getByRole('button', { name: 'Reply' }).count()).toBe(0);
    await expectAccessible(t.page, 'post page, anonymous (en)');

    // Newest first: a page of 20, then the rest on "load more" (or on scrolling to it).
    const end = t.page.locator('.comments .list-end');
    expect(await shown()).toEqual([...bodies].reverse().slice(0, 20));
    await t.page.getByRole('button', { name: 'Load more' }).waitFor();
    await eventually(async () => {
      if (!(await end.isVisible()))
        await t.page
          .getByRole('button', { name: 'Load more' })
          .click({ timeout: 1_000 })
          .catch(() => {});
      expect(await shown()).toEqual([...bodies].reverse());
    });
    await end.waitFor();

    // Oldest first: the same comments, the other way round, paged the same.
    await t.page.getByRole('button', { name: 'Oldest first' }).click();
    await eventually(async () => {
      if (!(await end.isVisible()))
        await t.page
          .getByRole('button', { name: 'Load more' })
          .click({ timeout: 1_000 })
          .catch(() => {});
      expect(await shown()).toEqual(bodies);
    });

    // The who-liked list is public too.
    await postCard(t.page, '评论分页').locator('a.like-count').click();
    await t.page.locator('ul.users li', { hasText: `@${c1.handle}` }).waitFor();
    await expectAccessible(t.page, 'who liked, anonymous (en)');
    await t.close();
  });
});
