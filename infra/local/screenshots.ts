// infra/local/screenshots.ts — `npm run screenshots`: every page of the web client at a phone's
// width (375 × 812) and a desktop's (1280 × 800), in 中文 and English, in the light and the dark
// theme, into docs/screenshots/ (SCREENSHOTS_DIR elsewhere), named
// `<lang>-<phone|desktop>-<light|dark>-<page>.png`, with an index (README.md there). Runs against
// the system `npm start` runs (API and web client URLs from API_URL / WEB_URL, else npm start's
// defaults), after seeding a small story of its own through the API: fresh users each run, so it
// never depends on what is there.
import { randomBytes } from 'node:crypto';
import { mkdirSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { chromium, type Page } from 'playwright-core';
import sharp from 'sharp';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const API = process.env.API_URL ?? 'http://127.0.0.1:13000';
const WEB = process.env.WEB_URL ?? 'http://127.0.0.1:13001';
const OUT = process.env.SCREENSHOTS_DIR ?? `${ROOT}docs/screenshots`;
const PASSWORD = `pw-${randomBytes(6).toString('hex')}`;
const tag = randomBytes(2).toString('hex');

// biome-ignore lint/suspicious/noExplicitAny: the answers of a seeding script, read by hand below
type Json = any;

async function call(
  method: string,
  path: string,
  token?: string,
  body?: unknown,
  headers: Record<string, string> = {},
): Promise<{ status: number; json: Json }> {
  const res = await fetch(API + path, {
    method,
    headers: {
      'content-type': 'application/json',
      ...(token ? { authorization: `Bearer ${token}` } : {}),
      ...headers,
    },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  const text = await res.text();
  if (res.status >= 400) throw new Error(`${method} ${path}: ${res.status} ${text}`);
  return { status: res.status, json: text ? JSON.parse(text) : null };
}

async function user(handle: string, displayName: string): Promise<{ handle: string; token: string }> {
  await call('POST', '/users', undefined, { handle, displayName, password: PASSWORD });
  return { handle, token: (await call('POST', '/sessions', undefined, { handle, password: PASSWORD })).json.token };
}
const post = async (u: { token: string }, body: string, media?: { id: string; alt?: string }[]): Promise<string> =>
  (await call('POST', '/posts', u.token, { body, ...(media ? { media } : {}) })).json.id;

/** A picture made ready through the API, as the composer does: declared, PUT to storage, completed. */
async function picture(
  u: { token: string },
  width: number,
  height: number,
  colour: string,
  purpose: 'post' | 'cover' = 'post',
): Promise<string> {
  const bytes = await sharp({ create: { width, height, channels: 3, background: colour } })
    .png()
    .toBuffer();
  const { media, upload } = (
    await call('POST', '/media', u.token, { contentType: 'image/png', size: bytes.length, purpose })
  ).json;
  const put = await fetch(upload.url, { method: 'PUT', headers: upload.headers, body: bytes });
  if (put.status !== 200) throw new Error(`upload: ${put.status}`);
  await call('POST', `/media/${media.id}/complete`, u.token);
  for (let i = 0; i < 120; i++) {
    if ((await call('GET', `/media/${media.id}`, u.token)).json.state === 'ready') return media.id;
    await new Promise((r) => setTimeout(r, 500));
  }
  throw new Error(`picture ${media.id} never became ready`);
}

// --- the story ---------------------------------------------------------------------------------
const ann = await user(`ann_${tag}`, '安妮 Ann');
const bob = await user(`bob_${tag}`, 'Bob 一个很长很长的名字 with a long display name');
const carol = await user(`carol_${tag}`, '卡罗尔');
const dave = await user(`dave_${tag}`, 'Dave');
const erin = await user(`erin_${tag}`, 'Erin');
const follow = (a: { handle: string; token: string }, b: { handle: string }) =>
  call('PUT', `/users/${a.handle}/following/${b.handle}`, a.token);
await follow(ann, bob);
await follow(ann, carol);
await follow(bob, ann);
await follow(bob, carol);
await follow(carol, ann);
const topic = `春天${tag}`;
const first = await post(carol, `#${topic}# 公园里的花都开了 🌸 https://example.com/spring`);
await post(bob, `早上好 @${ann.handle}！今天去 #${topic}# 看花吗？`);
const long = await post(
  bob,
  Array.from({ length: 12 }, (_, i) => `第 ${i + 1} 行：一条很长的微博，折叠在六行左右。`).join('\n'),
);
await call('POST', `/posts/${first}/reposts`, bob.token, { comment: '转发一下，真好看' });
const mine = await post(ann, `我的第一条微博 #${topic}#`);
await call(
  'PATCH',
  `/posts/${mine}`,
  ann.token,
  { body: `我的第一条微博（改了一个字）#${topic}#` },
  { 'if-match': '"0"' },
);
const pictures = [
  await picture(carol, 1200, 800, '#3a7bd5'),
  await picture(carol, 600, 900, '#e0a030'),
  await picture(carol, 120, 80, '#2e8b57'),
];
await post(carol, `#${topic}# 三张照片`, [
  { id: pictures[0]!, alt: '湖面上的蓝天' },
  { id: pictures[1]!, alt: '一棵开花的树' },
  { id: pictures[2]! },
]);
await call('PUT', `/users/${bob.handle}/likes/${mine}`, bob.token);
await call('PUT', `/users/${carol.handle}/likes/${mine}`, carol.token);
const welcome = (await call('POST', `/posts/${mine}/comments`, bob.token, { body: '欢迎来到微博！' })).json.id;
await call('POST', `/posts/${mine}/comments`, carol.token, { body: `@${bob.handle} 同意 👍` });
// A thread (楼中楼) under bob's comment, and a like of it.
for (const [u, body] of [
  [ann, '谢谢！'],
  [carol, '我也是新来的'],
  [bob, '大家多多关照'],
] as const)
  await call('POST', `/posts/${mine}/comments`, u.token, { body, replyTo: welcome });
await call('PUT', `/posts/${mine}/comments/${welcome}/like`, ann.token);
await call('PUT', `/users/${ann.handle}/likes/${long}`, ann.token);
await call('PUT', `/users/${ann.handle}/blocks/${dave.handle}`, ann.token);
await call('PUT', `/users/${ann.handle}/mutes/${erin.handle}`, ann.token);
await call('PUT', `/users/${ann.handle}/bookmarks/${first}`, ann.token);
await call('PATCH', `/users/${ann.handle}`, ann.token, {
  bio: '喜欢看花，也喜欢写代码。\nLikes flowers and code.',
  location: '杭州',
});
await call('PUT', `/users/${ann.handle}/cover`, ann.token, {
  mediaId: await picture(ann, 1500, 500, '#c4161c', 'cover'),
});
await new Promise((r) => setTimeout(r, 3_000)); // fan-out and notifications land
// The visitor's screen shows what is trending: wait until the API's (cached) ranking has the story's topic.
for (let i = 0; ; i++) {
  const trending = (await call('GET', '/topics/trending')).json?.topics as { name: string }[] | undefined;
  if (trending?.some((x) => x.name === topic)) break;
  if (i === 60) throw new Error(`#${topic}# never trended`);
  await new Promise((r) => setTimeout(r, 1_000));
}

// --- the pages ---------------------------------------------------------------------------------
const PAGES: [name: string, hash: string, loggedIn: boolean, ready: string][] = [
  ['visitor', '#/', false, '.visitor-trending article.post'],
  ['login', '#/login', false, '#login-handle'],
  ['register', '#/register', false, '#reg-handle'],
  ['home', '#/', true, 'article.post'],
  ['profile', `#/u/${bob.handle}`, true, 'article.post'],
  ['own-profile', `#/u/${ann.handle}`, true, 'article.post'],
  ['post', `#/post/${encodeURIComponent(mine)}`, true, 'li.comment'],
  ['likers', `#/post/${encodeURIComponent(mine)}/likes`, true, 'ul.users li'],
  ['history', `#/post/${encodeURIComponent(mine)}/history`, true, 'ol.versions li'],
  ['followers', `#/u/${ann.handle}/followers`, true, 'ul.users li'],
  ['following', `#/u/${ann.handle}/following`, true, 'ul.users li'],
  ['notifications', '#/notifications', true, 'li.notification'],
  ['trending', '#/topics', true, 'ol.trending li'],
  ['topic', `#/topics/${encodeURIComponent(topic)}`, true, 'article.post'],
  ['blocked', '#/blocks', true, 'ul.users li'],
  ['muted', '#/mutes', true, 'ul.users li'],
  ['bookmarks', '#/bookmarks', true, 'article.post'],
  ['search', `#/search/${encodeURIComponent(bob.handle)}`, true, 'ul.users.found li'],
  ['settings', '#/settings', true, '#settings-account'],
  ['not-found', '#/nowhere', true, 'h1'],
];
const WIDTHS = [
  ['phone', 375, 812],
  ['desktop', 1280, 800],
] as const;
const LOCALES = [
  ['zh', 'zh-CN'],
  ['en', 'en'],
] as const;
/** The system's colour scheme, which the client follows when no theme is chosen. */
const THEMES = ['light', 'dark'] as const;

async function logIn(page: Page): Promise<void> {
  await page.goto(`${WEB}/#/login`);
  await page.fill('#login-handle', ann.handle);
  await page.fill('#login-password', PASSWORD);
  await page.click('form button[type=submit]');
  await page.waitForSelector('article.post');
}

mkdirSync(OUT, { recursive: true });
const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
  args: ['--no-sandbox'],
});
const index: string[] = [];
const file = (lang: string, width: string, theme: string, name: string) => `${lang}-${width}-${theme}-${name}.png`;
for (const theme of THEMES) {
  for (const [lang, locale] of LOCALES) {
    for (const [width, w, h] of WIDTHS) {
      const context = await browser.newContext({
        viewport: { width: w, height: h },
        locale,
        colorScheme: theme,
        reducedMotion: 'reduce',
      });
      await context.addInitScript(`localStorage.setItem('weibo.locale', '${locale}')`);
      const page = await context.newPage();
      let loggedIn = false;
      for (const [name, hash, needsLogin, ready] of PAGES) {
        if (needsLogin && !loggedIn) {
          await logIn(page);
          loggedIn = true;
        }
        await page.goto(`${WEB}/${hash}`);
        await page.locator(ready).first().waitFor({ timeout: 15_000 });
        await page.waitForTimeout(600); // the sidebar's boxes and avatars settle
        const name_ = file(lang, width, theme, name);
        await page.screenshot({ path: `${OUT}/${name_}` });
        index.push(name_);
      }
      await context.close();
    }
  }
}
await browser.close();

const table = (theme: string) =>
  [
    '| page | 中文, phone | 中文, desktop | English, phone | English, desktop |',
    '|---|---|---|---|---|',
    ...PAGES.map(
      ([name]) =>
        `| ${name} | ${LOCALES.flatMap(([lang]) => WIDTHS.map(([width]) => `![${name}, ${lang}, ${width}, ${theme}](${file(lang, width, theme, name)})`)).join(' | ')} |`,
    ),
  ].join('\n');
writeFileSync(
  `${OUT}/README.md`,
  `# Screenshots\n\nEvery page of the web client, at a phone's width (375 px) and a desktop's (1280 px), in 中文 and English, in the light and the dark theme. Made by \`npm run screenshots\` (infra/local/screenshots.ts) against \`npm start\`.\n\n## Light\n\n${table('light')}\n\n## Dark\n\n${table('dark')}\n`,
);
console.log(`wrote ${index.length} screenshots and their index to ${OUT}/`);
