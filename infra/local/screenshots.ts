// infra/local/screenshots.ts — `npm run screenshots`: every page of the web client at a phone's
// width (375 × 812) and a desktop's (1280 × 800), in 中文 and English, into docs/screenshots/
// (with an index, docs/screenshots/README.md). Runs against the system `npm start` runs (API
// and web client URLs from API_URL / WEB_URL, else npm start's defaults), after seeding a small
// story of its own through the API: fresh users each run, so it never depends on what is there.
import { randomBytes } from 'node:crypto';
import { mkdirSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { chromium, type Page } from 'playwright-core';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const API = process.env.API_URL ?? 'http://127.0.0.1:13000';
const WEB = process.env.WEB_URL ?? 'http://127.0.0.1:13001';
const OUT = `${ROOT}docs/screenshots`;
const PASSWORD = `pw-${randomBytes(6).toString('hex')}`;
const tag = randomBytes(2).toString('hex');

async function call(
  method: string,
  path: string,
  token?: string,
  body?: unknown,
): Promise<{ status: number; json: { token: string; id: string } }> {
  const res = await fetch(API + path, {
    method,
    headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
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
const post = async (u: { token: string }, body: string): Promise<string> =>
  (await call('POST', '/posts', u.token, { body })).json.id;

// --- the story ---------------------------------------------------------------------------------
const ann = await user(`ann_${tag}`, '安妮 Ann');
const bob = await user(`bob_${tag}`, 'Bob 一个很长很长的名字 with a long display name');
const carol = await user(`carol_${tag}`, '卡罗尔');
const dave = await user(`dave_${tag}`, 'Dave');
const follow = (a: { handle: string; token: string }, b: { handle: string }) =>
  call('PUT', `/users/${a.handle}/following/${b.handle}`, a.token);
await follow(ann, bob);
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
await call('PUT', `/users/${bob.handle}/likes/${mine}`, bob.token);
await call('PUT', `/users/${carol.handle}/likes/${mine}`, carol.token);
await call('POST', `/posts/${mine}/comments`, bob.token, { body: '欢迎来到微博！' });
await call('POST', `/posts/${mine}/comments`, carol.token, { body: `@${bob.handle} 同意 👍` });
await call('PUT', `/users/${ann.handle}/likes/${long}`, ann.token);
await call('PUT', `/users/${ann.handle}/blocks/${dave.handle}`, ann.token);
await new Promise((r) => setTimeout(r, 3_000)); // fan-out and notifications land

// --- the pages ---------------------------------------------------------------------------------
const PAGES: [name: string, hash: string, loggedIn: boolean, ready: string][] = [
  ['login', '#/login', false, '#login-handle'],
  ['register', '#/register', false, '#reg-handle'],
  ['home', '#/', true, 'article.post'],
  ['profile', `#/u/${bob.handle}`, true, 'article.post'],
  ['own-profile', `#/u/${ann.handle}`, true, 'article.post'],
  ['post', `#/post/${encodeURIComponent(mine)}`, true, 'li.comment'],
  ['likers', `#/post/${encodeURIComponent(mine)}/likes`, true, 'ul.users li'],
  ['followers', `#/u/${ann.handle}/followers`, true, 'ul.users li'],
  ['notifications', '#/notifications', true, 'li.notification'],
  ['trending', '#/topics', true, 'ol.trending li'],
  ['topic', `#/topics/${encodeURIComponent(topic)}`, true, 'article.post'],
  ['blocked', '#/blocks', true, 'ul.users li'],
];
const WIDTHS = [
  ['phone', 375, 812],
  ['desktop', 1280, 800],
] as const;
const LOCALES = [
  ['zh', 'zh-CN'],
  ['en', 'en'],
] as const;

async function logIn(page: Page): Promise<void> {
  await page.goto(`${WEB}/#/login`);
  await page.fill('#login-handle', ann.handle);
  await page.fill('#login-password', PASSWORD);
  await page.click('form button[type=submit]');
  await page.waitForSelector('article.post');
}

mkdirSync(OUT, { recursive: true });
const browser = await chromium.launch({ executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium' });
const index: string[] = [];
for (const [lang, locale] of LOCALES) {
  for (const [width, w, h] of WIDTHS) {
    const context = await browser.newContext({ viewport: { width: w, height: h }, locale, reducedMotion: 'reduce' });
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
      const file = `${lang}-${width}-${name}.png`;
      await page.screenshot({ path: `${OUT}/${file}` });
      index.push(file);
    }
    await context.close();
  }
}
await browser.close();

const rows = PAGES.map(
  ([name]) =>
    `| ${name} | ${LOCALES.flatMap(([lang]) => WIDTHS.map(([width]) => `![${name}, ${lang}, ${width}](${lang}-${width}-${name}.png)`)).join(' | ')} |`,
);
writeFileSync(
  `${OUT}/README.md`,
  `# Screenshots\n\nEvery page of the web client, at a phone's width (375 px) and a desktop's (1280 px), in 中文 and English. Made by \`npm run screenshots\` (infra/local/screenshots.ts) against \`npm start\`.\n\n| page | 中文, phone | 中文, desktop | English, phone | English, desktop |\n|---|---|---|---|---|\n${rows.join('\n')}\n`,
);
console.log(`wrote ${index.length} screenshots and their index to ${OUT}/`);
