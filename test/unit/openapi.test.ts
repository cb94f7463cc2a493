// test/unit/openapi.test.ts — the committed contract is the generated one: docs/openapi.json,
// the web client's types (web/src/api/schema.d.ts) and input limits (web/src/api/limits.ts) are
// what `npm run openapi` writes from the route table today, the document passes Redocly's recommended lint, and the deployed routes
// (infra/functions/http.yml) are exactly the route table's.
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import yaml from 'js-yaml';
import openapiTS, { astToString } from 'openapi-typescript';
import { describe, expect, it } from 'vitest';
import { renderOpenApi } from '../../infra/openapi/openapi-document.js';
import { renderWebLimits } from '../../infra/openapi/web-limits.js';
import { allErrors, routes, type Route } from '../../shared/http/routes.js';
import { contractViolations, withResponsesInPlace } from '../support/contract.js';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const committed = () => readFileSync(`${ROOT}docs/openapi.json`, 'utf8');
const STALE = 'stale: run `npm run openapi` and commit the result';

describe('the OpenAPI document', () => {
  it(`is the one generated from shared/http/routes.ts (${STALE})`, () => {
    expect(committed(), STALE).toBe(renderOpenApi());
  });

  it(`types the web client exactly as generated from the committed document (${STALE})`, async () => {
    const ts = astToString(await openapiTS(JSON.parse(committed())));
    const file = readFileSync(`${ROOT}web/src/api/schema.d.ts`, 'utf8');
    // The CLI prepends a banner; the types themselves must be identical.
    expect(file.slice(file.indexOf('export '))).toBe(ts.slice(ts.indexOf('export ')));
  });

  it(`gives the web client its input limits exactly as generated from the committed document (${STALE})`, () => {
    expect(readFileSync(`${ROOT}web/src/api/limits.ts`, 'utf8'), STALE).toBe(renderWebLimits(JSON.parse(committed())));
  });

  it('passes `redocly lint` (recommended rules, redocly.yaml)', () => {
    const run = () =>
      execFileSync(process.execPath, [`${ROOT}node_modules/@redocly/cli/bin/cli.js`, 'lint', 'docs/openapi.json'], {
        cwd: ROOT,
        encoding: 'utf8',
        stdio: 'pipe',
      });
    expect(run).not.toThrow();
  }, 60_000);

  it('documents every status the shared middleware can answer with, 429 with Retry-After, and 503 timeout with Retry-After on every operation', () => {
    const doc = withResponsesInPlace(JSON.parse(committed()));
    for (const [name, r] of Object.entries(routes) as [string, Route][]) {
      const op = doc.paths[r.path][r.method.toLowerCase()];
      expect(op.operationId).toBe(name);
      const statuses = Object.keys(op.responses).map(Number).sort();
      expect(statuses).toEqual([...Object.keys(r.success), ...Object.keys(allErrors(r))].map(Number).sort());
      if (op.responses['429']) expect(op.responses['429'].headers['Retry-After']).toBeDefined();
      // Every operation can run out of time (answered at the invocation's deadline).
      expect(op.responses['503'].headers['Retry-After'], name).toMatchObject({ required: true });
      const codes503 =
        op.responses['503'].content['application/json'].schema.properties.error.properties.code.allOf[1].enum;
      expect(codes503, name).toEqual(expect.arrayContaining(['service_unavailable', 'timeout']));
      expect(op.security).toEqual(
        r.auth === 'optional' ? [{}, { bearerAuth: [] }] : r.auth ? [{ bearerAuth: [] }] : [],
      );
    }
    expect(doc.paths['/users/{handle}/timeline'].get.responses['206']).toBeDefined();
  });
});

describe('infra/functions/http.yml', () => {
  it('deploys exactly the routes of the route table (plus the catch-all 404)', () => {
    const fns = yaml.load(readFileSync(`${ROOT}infra/functions/http.yml`, 'utf8')) as Record<
      string,
      { events: { httpApi: unknown }[] }
    >;
    const deployed = Object.values(fns)
      .flatMap((f) => f.events.map((e) => e.httpApi))
      .filter((e): e is { method: string; path: string } => typeof e === 'object')
      .map((e) => `${e.method} ${e.path}`)
      .sort();
    const declared = (Object.values(routes) as Route[]).map((r) => `${r.method} ${r.path}`).sort();
    expect(deployed).toEqual(declared);
  });
});

describe('the contract check the end-to-end suite applies to every response', () => {
  const counts = {
    version: 0,
    editedAt: null,
    mentions: [],
    topics: [],
    media: [],
    likeCount: 0,
    commentCount: 0,
    repostCount: 0,
    liked: false,
    reposted: false,
    bookmarked: false,
  };
  const post = {
    id: 'ann.8230174987654321.a1b2c3d4e5f6',
    author: 'ann',
    authorName: 'Ann',
    authorAvatar: null,
    body: 'hi',
    createdAt: '2026-11-22T08:30:00.000Z',
    ...counts,
    repostOf: null,
  };
  const res = (
    status: number,
    body: unknown,
    headers: Record<string, string> = { 'content-type': 'application/json' },
  ) => ({
    status,
    headers: new Headers(headers),
    text: body === undefined ? '' : JSON.stringify(body),
    json: body,
  });

  it('accepts a documented status with a body of its schema', () => {
    expect(contractViolations('GET', `/posts/${post.id}`, res(200, post))).toEqual([]);
    expect(contractViolations('DELETE', `/posts/${post.id}`, res(204, undefined, {}))).toEqual([]);
    expect(
      contractViolations('GET', '/nowhere', res(404, { error: { code: 'route_not_found', message: 'No such route' } })),
    ).toEqual([]);
    const original = {
      state: 'live',
      id: 'bob.8230174987654321.a1b2c3d4e5f6',
      author: 'bob',
      authorName: 'Bob',
      authorAvatar: 'https://cdn.example/media/x/avatar-96.webp',
      body: 'o',
      createdAt: post.createdAt,
      ...counts,
    };
    expect(contractViolations('GET', `/posts/${post.id}`, res(200, { ...post, repostOf: original }))).toEqual([]);
    expect(
      contractViolations(
        'GET',
        `/posts/${post.id}`,
        res(200, { ...post, repostOf: { state: 'deleted', id: original.id } }),
      ),
    ).toEqual([]);
    // A deleted original carries nothing of its content.
    expect(
      contractViolations(
        'GET',
        `/posts/${post.id}`,
        res(200, { ...post, repostOf: { ...original, state: 'deleted' } }),
      ),
    ).toHaveLength(1);
  });

  it('refuses an undocumented status, an undocumented field, an undocumented error code and a missing Retry-After', () => {
    expect(
      contractViolations('GET', `/posts/${post.id}`, res(409, { error: { code: 'conflict', message: 'x' } })),
    ).toHaveLength(1);
    expect(contractViolations('GET', `/posts/${post.id}`, res(200, { ...post, extra: 1 }))).toHaveLength(1);
    expect(
      contractViolations('GET', `/posts/${post.id}`, res(404, { error: { code: 'user_not_found', message: 'x' } })),
    ).toHaveLength(1);
    expect(
      contractViolations('POST', '/sessions', res(429, { error: { code: 'rate_limited', message: 'x' } })),
    ).toHaveLength(1);
    expect(contractViolations('POST', '/posts', res(503, { error: { code: 'timeout', message: 'x' } }))).toHaveLength(
      1,
    );
    expect(
      contractViolations(
        'POST',
        '/posts',
        res(
          503,
          { error: { code: 'timeout', message: 'x' } },
          { 'content-type': 'application/json', 'retry-after': '2' },
        ),
      ),
    ).toEqual([]);
    expect(contractViolations('GET', '/nowhere', res(200, {}))).toHaveLength(1);
  });
});
