// test/browser/pages.test.ts — every page of the client, in 中文 and in English: rendered with
// no page error, axe-core finds no serious or critical violation, and a screenshot is taken
// (.local/screenshots; `SAVE_SCREENSHOTS=1` writes docs/screenshots). Also: the
// language switch, and the API reference page showing the served OpenAPI document.
import { describe, expect, inject, it } from 'vitest';
import { apiClient } from '../support/api.js';
import { expectAccessible, logIn, screenshot, useBrowser, type Locale } from '../support/browser.js';
import { eventually } from '../support/eventually.js';

const api = apiClient(inject('apiUrl'));
const browser = useBrowser();

describe('every page, both languages', () => {
  for (const locale of ['zh-CN', 'en'] as Locale[]) {
    it(`renders accessibly in ${locale}`, async () => {
      const [me, friend] = [await api.newUser('pg_me'), await api.newUser('pg_fr')];
      await api.call('PUT', `/users/${me.handle}/following/${friend.handle}`, { token: me.token });
      await api.call('PUT', `/users/${friend.handle}/following/${me.handle}`, { token: friend.token });
      const samples =
        locale === 'en'
          ? ['Morning run done, 5 km 🏃', 'Reading about HBase row keys today.']
          : ['今天北京天气不错 ☀️', '刚读完《三体》，推荐！'];
      const ids: string[] = [];
      for (const body of samples)
        ids.push((await api.call('POST', '/posts', { token: friend.token, body: { body } })).json.id);
      await eventually(async () =>
        expect((await api.call('GET', `/users/${me.handle}/timeline`, { token: me.token })).json.posts).toHaveLength(2),
      );

      const t = await browser.open(locale);
      const visit = async (name: string, hash: string, ready: string) => {
        await t.page.goto(`/${hash}`);
        await t.page.locator(ready).first().waitFor();
        await expectAccessible(t.page, `${name} (${locale})`);
        await screenshot(t.page, `${locale === 'en' ? 'en' : 'zh'}-${name}`);
      };
      await visit('login', '#/login', '#login-handle');
      await visit('register', '#/register', '#reg-handle');
      await logIn(t.page, me.handle, me.password);
      await visit('home', '#/', 'article.post');
      await visit('post', `#/post/${encodeURIComponent(ids[0]!)}`, 'article.post');
      await visit('profile', `#/u/${friend.handle}`, 'article.post');
      await visit('own-profile', `#/u/${me.handle}`, '.list-end');
      await visit('followers', `#/u/${me.handle}/followers`, 'ul.users li');
      await visit('groups', '#/groups', '.group-row');
      await visit('special-tab', '#/?group=special', '.list-end');
      await visit('not-found', '#/nowhere', 'h1');
      expect(
        await t.page.evaluate(
          () =>
            (globalThis as unknown as { document: { documentElement: { lang: string } } }).document.documentElement
              .lang,
        ),
      ).toBe(locale);
      await t.close();
    });
  }

  it('switches language from the header and remembers the choice', async () => {
    const t = await browser.open();
    await t.page.goto('/#/login');
    await t.page.getByRole('heading', { name: '登录微博' }).waitFor();
    await t.page.getByLabel('语言').selectOption('en');
    await t.page.getByRole('heading', { name: 'Log in to Weibo' }).waitFor();
    await t.page.reload();
    await t.page.getByRole('heading', { name: 'Log in to Weibo' }).waitFor();
    await t.close();
  });

  it('links to the API reference, which renders the served OpenAPI document', async () => {
    const t = await browser.open('en');
    await t.page.goto('/#/login');
    await t.page.getByRole('link', { name: 'API reference' }).click();
    await t.page.getByText('weibo-serverless API').first().waitFor();
    await t.page.getByText('/users/{handle}/timeline').first().waitFor();
    await screenshot(t.page, 'api-reference');
    await t.close();
  });
});
