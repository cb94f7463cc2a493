// test/browser/api-docs.test.ts — the API reference page (/api-docs/, Swagger UI on the served
// OpenAPI document; web/api-docs.html, web/api-docs-init.js, web/api-docs/reference.css) held to
// the client's own bar: axe finds nothing serious or critical, whether the document is only
// rendered, an operation is open or tried (also at 375 px), the schemas are expanded, or the
// Authorize dialog is up; the page has its icon (no
// 404 in the console); "Try it out" reaches the API through the page's CSP (a violation fails
// the test: test/support/browser.ts); and a deep link still opens its operation.
import { describe, expect, inject, it } from 'vitest';
import { apiClient } from '../support/api.js';
import { expectAccessible, setUp, useBrowser } from '../support/browser.js';

const api = apiClient(inject('apiUrl'));
const browser = useBrowser();

describe('the API reference page', () => {
  it('is accessible rendered, with an operation open and tried, schemas expanded and the Authorize dialog up; it has its icon', async () => {
    const user = await setUp(() => api.newUser('ad_ref'));
    const t = await browser.open('en');
    const page = t.page;
    // Every resource the page fails to load (the favicon was one) is reported on the console.
    const failedLoads: string[] = [];
    page.on(
      'console',
      (m) =>
        m.type() === 'error' &&
        m.text().startsWith('Failed to load resource') &&
        failedLoads.push(`${m.text()} ${m.location().url}`),
    );

    await page.goto('/api-docs/');
    await page.getByText('/users/{handle}/timeline').first().waitFor();
    await expectAccessible(page, 'API reference');

    // The icon the page declares loads (a data: URL needs no request); without a declared
    // icon Chromium asks for /favicon.ico, which the build has not.
    const icon = await page.locator('link[rel~="icon"]').getAttribute('href');
    expect(icon, 'the page declares an icon').toBeTruthy();
    if (!icon!.startsWith('data:'))
      expect((await page.request.get(new URL(icon!, page.url()).href)).status()).toBe(200);

    // Opening an operation: its summary is one button (no link inside), and the address follows.
    const operation = page.locator('#operations-accounts-getProfile');
    const summary = operation.locator('.opblock-summary-control');
    await summary.click();
    await expect.poll(() => summary.getAttribute('aria-expanded')).toBe('true');
    await operation.locator('.opblock-body').waitFor();
    expect(new URL(page.url()).hash).toBe('#/accounts/getProfile');
    await expectAccessible(page, 'API reference, an operation open');

    // "Try it out" sends to the API the page is served with (/api, allowed by connect-src 'self').
    await operation.getByRole('button', { name: 'Try it out' }).click();
    await operation.getByPlaceholder('handle').fill(user.handle);
    await expectAccessible(page, 'API reference, trying an operation');
    await operation.getByRole('button', { name: 'Execute' }).click();
    const answer = operation.locator('.live-responses-table tr.response');
    await expect.poll(() => answer.locator('.response-col_status').textContent(), { timeout: 20_000 }).toContain('200');
    expect(await answer.locator('.response-col_description').textContent()).toContain(user.handle);
    expect(await operation.locator('.request-url').textContent()).toContain(`/api/users/${user.handle}`);
    await expectAccessible(page, 'API reference, a response shown');
    // On a phone the curl command and the response scroll sideways in their boxes.
    await page.setViewportSize({ width: 375, height: 812 });
    await expectAccessible(page, 'API reference, a response shown at 375 px');
    await page.setViewportSize({ width: 900, height: 800 });

    // Every schema, expanded all the way down.
    // Three schemas opened all the way down, enough to draw every kind of schema element whose
    // colour reference.css sets (a string's constraints among them). Each click re-renders the
    // whole reference (about 1 s here), so not all 34. Held as the elements themselves: a
    // clicked toggle turns into "Collapse all" and reveals nested toggles, which would shift a
    // list of nth() locators under our feet.
    const expandAll = page.locator('section.models').getByRole('button', { name: 'Expand all', exact: true });
    const schemas = await expandAll.elementHandles();
    expect(schemas.length, 'the schemas section lists schemas').toBeGreaterThan(3);
    for (const button of schemas.slice(0, 3)) await button.click();
    expect(await page.locator('section.models .json-schema-2020-12__constraint--string').count()).toBeGreaterThan(0);
    await expectAccessible(page, 'API reference, schemas expanded');

    await page.getByRole('button', { name: 'Authorize' }).first().click();
    const dialog = page.locator('.modal-ux');
    await dialog.waitFor();
    await expectAccessible(page, 'API reference, the Authorize dialog');
    await dialog.getByRole('button', { name: 'Close', exact: true }).first().click();
    await dialog.waitFor({ state: 'hidden' });

    // A deep link opens its operation on arrival.
    // (A goto that only changes the hash stays in the document: reloaded, the page starts there.)
    await page.goto('/api-docs/#/posts/getPost');
    await page.reload();
    await page.locator('#operations-posts-getPost .opblock-body').waitFor();

    expect(failedLoads).toEqual([]);
    await t.close();
  });
});
