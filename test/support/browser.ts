// test/support/browser.ts — real Chromium (Debian's `chromium` package; browser downloads are
// impossible on these machines) driven by playwright-core, plus the checks every page gets:
// axe-core with no serious or critical violation, and no uncaught page error.
import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { chromium, type Browser, type BrowserContext, type Locator, type Page } from 'playwright-core';
import { afterAll, beforeAll, expect, inject } from 'vitest';
import { LambdaTimeout } from './api.js';
import { contractViolations } from './contract.js';
import { eventually } from './eventually.js';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const AXE = readFileSync(`${ROOT}node_modules/axe-core/axe.min.js`, 'utf8');
export const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

export async function launch(): Promise<Browser> {
  if (!existsSync(CHROMIUM))
    throw new Error(`no Chromium at ${CHROMIUM}: apt-get install -y chromium fonts-noto-cjk (.ci/run does)`);
  return chromium.launch({ executablePath: CHROMIUM, args: ['--no-sandbox'] });
}

export type Locale = 'zh-CN' | 'en';

/** How a page is opened beyond its language: the system's colour scheme (prefers-color-scheme,
 *  light unless said) and the window's size (900 × 800 unless said). */
export interface PageOptions {
  colorScheme?: 'light' | 'dark';
  viewport?: { width: number; height: number };
}

/** One Chromium per test file; `open(locale)` gives a fresh profile on the web client. */
export function useBrowser(): { open: (locale?: Locale, options?: PageOptions) => Promise<TestPage> } {
  let browser: Browser | undefined;
  beforeAll(async () => {
    browser = await launch();
  });
  afterAll(async () => {
    await browser?.close();
  });
  return { open: (locale, options) => newPage(browser!, inject('webUrl'), locale, options) };
}

export interface TestPage {
  context: BrowserContext;
  page: Page;
  /** API contract violations seen so far (uncaught page errors are added on close). */
  errors: string[];
  /**
   * Waits for pending contract checks, expects no error, closes the profile. `allow`: contract
   * violations the test caused on purpose (a response it rewrote), left out of the check.
   */
  close: (allow?: RegExp) => Promise<void>;
}

/**
 * A fresh browser profile (own cookies and localStorage) in the given UI language, colour scheme and size. Page errors are
 * recorded, and every API response the page receives is checked against docs/openapi.json,
 * as the end-to-end suite's own calls are (contract.ts).
 */
export async function newPage(
  browser: Browser,
  webUrl: string,
  locale: Locale = 'zh-CN',
  options: PageOptions = {},
): Promise<TestPage> {
  const context = await browser.newContext({
    baseURL: webUrl,
    locale,
    viewport: options.viewport ?? { width: 900, height: 800 },
    colorScheme: options.colorScheme ?? 'light',
  });
  await context.addInitScript((l) => {
    if (!localStorage.getItem('weibo.locale')) localStorage.setItem('weibo.locale', l);
  }, locale);
  const page = await context.newPage();
  page.setDefaultTimeout(15_000);
  const errors: string[] = [];
  const pending: Promise<void>[] = [];
  let lambdaTimeouts = 0;
  const pageErrors: string[] = [];
  page.on('pageerror', (e) => pageErrors.push(e.message));
  // The pages' CSP (web/security-headers.ts) refusing something the client does is a bug too.
  page.on(
    'console',
    (m) => m.type() === 'error' && m.text().includes('Content Security Policy') && pageErrors.push(m.text()),
  );
  page.on('response', (res) => {
    const url = new URL(res.url());
    if (!url.pathname.startsWith('/api/')) return;
    pending.push(
      (async () => {
        // A reload or navigation discards bodies still in flight: the page never read those
        // either, so there is nothing to check.
        const text = await res.text().catch(() => null);
        if (text === null) return;
        let json: unknown;
        try {
          json = text ? JSON.parse(text) : undefined;
        } catch {
          json = undefined;
        }
        // serverless-offline answers a Lambda timeout (a loaded 2-core machine) with 200 and
        // its own error body, where API Gateway would send a 503: not a response of our API.
        // Counted, not checked; the page errors it causes are the offline server's, too.
        if (text.includes('"errorType":"LambdaTimeoutError"')) {
          lambdaTimeouts++;
          return;
        }
        // The page may close while a late response is read (its test is done): nothing to check then.
        const all = await res.allHeaders().catch(() => null);
        if (all === null) return;
        const headers = new Headers(all);
        const path = url.pathname.slice('/api'.length) + url.search;
        errors.push(...contractViolations(res.request().method(), path, { status: res.status(), headers, text, json }));
      })(),
    );
  });
  const close = async (allow?: RegExp) => {
    await Promise.all(pending);
    if (lambdaTimeouts === 0) errors.push(...pageErrors);
    else
      console.warn(
        `[browser] ${lambdaTimeouts} Lambda timeout(s) under serverless-offline; page errors not counted: ${pageErrors.join('; ')}`,
      );
    expect(allow ? errors.filter((e) => !allow.test(e)) : errors).toEqual([]);
    await context.close();
  };
  return { context, page, errors, close };
}

/** axe-core on the current page: 0 serious or critical violations (WCAG 2.x A/AA rules). */
export async function expectAccessible(page: Page, label: string): Promise<void> {
  // Evaluated, not added as a <script>: the pages' CSP refuses inline scripts (as it should),
  // and evaluation from the test runner is outside its reach.
  await page.evaluate(AXE);
  // Colours are measured as they are once every transition and animation has run: a button
  // caught mid-fade (Swagger UI's buttons fade on state changes) would be judged on a colour it
  // only passes through.
  await page.evaluate(async () => {
    const d = (globalThis as unknown as { document: { getAnimations(): { finished: Promise<unknown> }[] } }).document;
    await Promise.allSettled(d.getAnimations().map((a) => a.finished));
  });
  // Runs in the page (this file is type-checked without DOM types, hence the casts).
  type AxeResult = { violations: { id: string; impact: string; help: string; nodes: { target: string[] }[] }[] };
  const violations = await page.evaluate(async () => {
    const g = globalThis as unknown as {
      axe: { run: (ctx: unknown, opts: object) => Promise<AxeResult> };
      document: unknown;
    };
    const result = await g.axe.run(g.document, {
      runOnly: { type: 'tag', values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'best-practice'] },
    });
    return result.violations.map((v) => ({
      id: v.id,
      impact: v.impact,
      help: v.help,
      targets: v.nodes.map((n) => n.target.join(' ')).slice(0, 3),
    }));
  });
  const bad = violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
  expect(bad, `${label}: axe violations ${JSON.stringify(bad, null, 1)}`).toEqual([]);
}

/** Screenshots go to .local/screenshots; with SAVE_SCREENSHOTS=1 to docs/screenshots (docs/web-client.md). */
export async function screenshot(page: Page, name: string): Promise<void> {
  const dir = process.env.SAVE_SCREENSHOTS === '1' ? `${ROOT}docs/screenshots` : `${ROOT}.local/screenshots`;
  mkdirSync(dir, { recursive: true });
  await page.screenshot({ path: `${dir}/${name}.png` });
}

/** Registers through the sign-up page (which logs in and lands on the home timeline). */
export async function signUp(page: Page, handle: string, displayName: string, password: string): Promise<void> {
  await page.goto('/#/register');
  await page.fill('#reg-handle', handle);
  await page.fill('#reg-name', displayName);
  await page.fill('#reg-password', password);
  await page.click('form button[type=submit]');
  await page.waitForSelector('#compose-text');
}

export async function logIn(page: Page, handle: string, password: string): Promise<void> {
  await page.goto('/#/login');
  await page.fill('#login-handle', handle);
  await page.fill('#login-password', password);
  await page.click('form button[type=submit]');
  // Until the answer: the page leaves the form (its own navigation could otherwise land after
  // the caller's next goto and take the page away from it), or it says why not.
  // (Runs in the page; this file is type-checked without DOM types, hence the cast.)
  await page.waitForFunction(() => {
    const g = globalThis as unknown as { location: { hash: string }; document: { querySelector(s: string): unknown } };
    return g.location.hash !== '#/login' || g.document.querySelector('.problem[role=alert]') !== null;
  });
}

/** A handle of its own for one test run: `<prefix>_<8 hex>`. */
export const uniqueHandle = (prefix: string) => `${prefix}_${randomBytes(4).toString('hex')}`;

/**
 * The two users most browser stories start with: ann in a 中文 page (安妮) and bob in an English
 * one (`bobName`), each signed up and on the home timeline, with one password.
 */
export async function annAndBob(browser: { open: (locale?: Locale) => Promise<TestPage> }, bobName = 'Bob') {
  const [ann, bob] = [uniqueHandle('ann'), uniqueHandle('bob')];
  const password = 'correct horse battery';
  const a = await browser.open('zh-CN');
  const b = await browser.open('en');
  await signUp(a.page, ann, '安妮', password);
  await signUp(b.page, bob, bobName, password);
  return { ann, bob, password, a, b };
}

/** The post card whose text contains `text`. */
export const postCard = (page: Page, text: string) =>
  page.locator('article.post').filter({ has: page.locator('.post-body', { hasText: text }) });

/** The bodies of the posts the page shows, top to bottom. */
// The bodies of the page's own list: the hot posts a newcomer's empty home suggests are not
// part of it (the hot ranking is shared by every test of the run).
export const shownBodies = (page: Page) =>
  page
    .locator('article.post .post-body')
    .evaluateAll((bodies) => bodies.filter((b) => !b.closest('.newcomer')).map((b) => b.textContent ?? ''));

/**
 * Shows the page at `hash` (reloads it when already there) and waits for `ready`. On this loaded
 * 2-core machine a Lambda under serverless-offline sometimes times out (not an answer of our API:
 * this file does not count it); the page then says so, and, as a reader would, this loads it
 * again. What the page shows once there is asserted by the caller, never retried.
 */
export async function show(page: Page, hash: string, ready: Locator): Promise<void> {
  await eventually(
    async () => {
      if (new URL(page.url()).hash !== hash) await page.goto(`/${hash}`);
      else await page.reload();
      await ready.waitFor({ timeout: 20_000 });
    },
    90_000,
    0,
  );
}

/** A setup step through the API, tried again (three tries) if its Lambda timed out — for steps safe to repeat. */
export async function setUp<T>(step: () => Promise<T>): Promise<T> {
  for (let i = 0; ; i++) {
    try {
      return await step();
    } catch (err) {
      if (!(err instanceof LambdaTimeout) || i === 2) throw err;
    }
  }
}

/** Picks `item` from the "⋯" menu named `menu` inside `scope` (a card, a comment, the page). */
export async function fromMenu(scope: Locator | Page, menu: string, item: string): Promise<void> {
  await scope.getByRole('button', { name: menu, exact: true }).click();
  await scope.getByRole('menuitem', { name: item, exact: true }).click();
}

/** The page's own confirmation dialog (not the browser's confirm()): its question, then a button. */
export async function answerDialog(page: Page, button: string): Promise<string> {
  const dialog = page.getByRole('dialog');
  await dialog.waitFor();
  const question = (await dialog.textContent()) ?? '';
  await dialog.getByRole('button', { name: button, exact: true }).click();
  await dialog.waitFor({ state: 'hidden' });
  return question;
}
