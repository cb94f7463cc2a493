// test/e2e/hostile-input.test.ts — generated bad requests against every endpoint, over HTTP on
// the real stack. Every one must get a 4xx with the JSON error shape (never a 5xx), and HBase
// must hold exactly the rows it held before. Later endpoints add their own arbitraries below.
import fc from 'fast-check';
import { SignJWT, UnsecuredJWT } from 'jose';
import { SQSClient } from '@aws-sdk/client-sqs';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { HBaseRestClient } from '../../shared/hbase/index.js';
import { HANDLE_PATTERN } from '../../shared/schema/row-keys.js';
import { apiClient, isErrorShape, type RequestOptions } from '../support/api.js';
import { rowCounts } from '../support/hbase-rows.js';
import { queueDrained } from '../support/queue.js';

const api = apiClient(inject('apiUrl'));
const namespace = inject('e2eNamespace');
const hbase = new HBaseRestClient({ baseUrl: inject('hbaseRestUrl') });
const RUNS = Number(process.env.HOSTILE_RUNS ?? 800);

interface BadRequest {
  kind: string;
  method: string;
  path: string;
  opts: RequestOptions;
}

let alice: { handle: string; token: string };
let bob: { handle: string; token: string };

// ---- building blocks ---------------------------------------------------------------------
/** Percent-encodes every byte but the unreserved ones (lone surrogates become U+FFFD's bytes). */
const pathSegment = (s: string) =>
  [...Buffer.from(s, 'utf8')].map((b) => (/[A-Za-z0-9._~-]/.test(String.fromCharCode(b)) ? String.fromCharCode(b) : `%${b.toString(16).toUpperCase().padStart(2, '0')}`)).join('');

const nasty = ['/', ',', '+', '*', '%', '%2F', '..', '\u0000', '\u0007', '\u202e', '\u200b', '\ufeff', '\ud800', '\udc00', ' ', '\n', '"', "'", '<', '\\', 'Ω', 'Ａ'];
/** Strings that are never valid handles: uppercase, nasty bytes, empty, too long. */
const badHandle = fc.oneof(
  fc.constantFrom('', 'A', 'UPPER', 'x'.repeat(31), 'a-b', 'a.b', 'exists', 'schema*'),
  fc.tuple(fc.stringMatching(/^[a-z0-9_]{0,10}$/), fc.constantFrom(...nasty), fc.string({ maxLength: 5, unit: 'binary' }))
    .map(([a, b, c]) => a + b + c),
  fc.string({ unit: 'binary', minLength: 1, maxLength: 40 }),
).filter((h) => !HANDLE_PATTERN.test(h));

/** Display names that break the documented rules. */
const badDisplayName = fc.oneof(
  fc.constantFrom('', '   ', '\u200b\u200b', '\ufeff', 'a\u0000b', 'bell\u0007', '\u202eevil', 'lone \ud800 surrogate', 'x'.repeat(51), '😀'.repeat(51)),
  fc.string({ unit: 'binary', maxLength: 20 }).map((s) => `${s}\u0001`),
);

/** Any JSON value of the wrong type for a string field. */
const notAString = fc.oneof(fc.integer(), fc.boolean(), fc.constant(null), fc.array(fc.string(), { maxLength: 3 }), fc.object({ maxDepth: 1 }));

const malformedJson = fc
  .oneof(
    fc.constantFrom('{', '{"handle":', '[1,2', '{"a":1,}', "{'a':1}", 'undefined', 'NaN', '{"a":"\\x"}', '\u0000', '{}}'),
    fc.string({ unit: 'binary', minLength: 1, maxLength: 60 }),
  )
  .filter((s) => {
    try {
      JSON.parse(s);
      return false;
    } catch {
      return true;
    }
  });

const oversize = fc.integer({ min: 16 * 1024 + 1, max: 64 * 1024 }).map((n) => JSON.stringify({ handle: 'a', displayName: 'x'.repeat(n), password: 'p' }));

// ---- requests per endpoint ------------------------------------------------------------------
const register: fc.Arbitrary<BadRequest> = fc.oneof(
  malformedJson.map((raw) => ({ kind: 'register malformed json', method: 'POST', path: '/users', opts: { rawBody: raw, headers: { 'content-type': 'application/json' } } })),
  oversize.map((raw) => ({ kind: 'register oversize', method: 'POST', path: '/users', opts: { rawBody: raw, headers: { 'content-type': 'application/json' } } })),
  fc.record({ handle: badHandle, displayName: fc.constant('Fine Name'), password: fc.constant('a fine password') })
    .map((body) => ({ kind: 'register bad handle', method: 'POST', path: '/users', opts: { body } })),
  fc.record({ handle: fc.constant('fine_handle_zz'), displayName: badDisplayName, password: fc.constant('a fine password') })
    .map((body) => ({ kind: 'register bad display name', method: 'POST', path: '/users', opts: { body } })),
  fc.record({ handle: fc.constant('fine_handle_zz'), displayName: fc.constant('Fine'), password: fc.oneof(fc.string({ maxLength: 7 }), fc.constant('x'.repeat(129)), fc.constant('pass\u0000word'), fc.constant('\ud800\ud800\ud800\ud800\ud800\ud800\ud800\ud800')) })
    .map((body) => ({ kind: 'register bad password', method: 'POST', path: '/users', opts: { body } })),
  fc.record({ handle: notAString, displayName: notAString, password: notAString }, { requiredKeys: [] })
    .map((body) => ({ kind: 'register wrong types / missing', method: 'POST', path: '/users', opts: { body } })),
  fc.record({ extra: fc.string() }).map((extra) => ({ kind: 'register unknown field', method: 'POST', path: '/users', opts: { body: { handle: 'fine_handle_zz', displayName: 'Fine', password: 'a fine password', ...extra } } })),
  fc.constantFrom('text/plain', 'application/x-www-form-urlencoded', 'application/xml', '').map((type) => ({ kind: 'register content-type', method: 'POST', path: '/users', opts: { rawBody: '{"handle":"fine_handle_zz","displayName":"F","password":"a fine password"}', headers: (type ? { 'content-type': type } : {}) as Record<string, string> } })),
  fc.constant({ kind: 'register json null', method: 'POST', path: '/users', opts: { rawBody: 'null', headers: { 'content-type': 'application/json' } } }),
);

const login: fc.Arbitrary<BadRequest> = fc.oneof(
  malformedJson.map((raw) => ({ kind: 'login malformed json', method: 'POST', path: '/sessions', opts: { rawBody: raw, headers: { 'content-type': 'application/json' } } })),
  oversize.map((raw) => ({ kind: 'login oversize', method: 'POST', path: '/sessions', opts: { rawBody: raw, headers: { 'content-type': 'application/json' } } })),
  fc.record({ handle: notAString, password: notAString }, { requiredKeys: [] }).map((body) => ({ kind: 'login wrong types', method: 'POST', path: '/sessions', opts: { body } })),
  // A well-typed login with an impossible handle: 401, and no throttle row for it.
  fc.record({ handle: badHandle.filter((h) => h.length <= 64), password: fc.string({ maxLength: 30 }) }).map((body) => ({ kind: 'login impossible handle', method: 'POST', path: '/sessions', opts: { body } })),
);

const profilePath = fc.oneof(
  badHandle.map((h) => ({ kind: 'profile bad handle (encoded)', method: 'GET', path: `/users/${pathSegment(h)}`, opts: {} })),
  fc.constantFrom('/users/a/b', '/users/%2e%2e', '/users/%00', '/users/a%2Cb', '/users/a+b', '/users/a*', '/users/%25').map((path) => ({ kind: 'profile raw path', method: 'GET', path, opts: {} })),
);

const forgedToken = fc.oneof(
  fc.string({ maxLength: 80 }),
  fc.constantFrom('a.b.c', 'eyJhbGciOiJub25lIn0.e30.', 'Bearer', '..', 'x'.repeat(5000)),
);

function patchRequests(): fc.Arbitrary<BadRequest> {
  return fc.oneof(
    forgedToken.map((t) => ({ kind: 'patch forged token', method: 'PATCH', path: `/users/${alice.handle}`, opts: { body: { displayName: 'Hacked' }, headers: { authorization: `Bearer ${t}` } } })),
    fc.constantFrom('Basic YWxpY2U6cGFzcw==', 'bearer', `Token ${'x'}`, '').map((h) => ({ kind: 'patch odd auth header', method: 'PATCH', path: `/users/${alice.handle}`, opts: { body: { displayName: 'Hacked' }, headers: { authorization: h } } })),
    fc.constant(null).map(() => ({ kind: 'patch other user', method: 'PATCH', path: `/users/${bob.handle}`, opts: { body: { displayName: 'Hacked' }, token: alice.token } })),
    badDisplayName.map((displayName) => ({ kind: 'patch bad display name', method: 'PATCH', path: `/users/${alice.handle}`, opts: { body: { displayName }, token: alice.token } })),
    malformedJson.map((raw) => ({ kind: 'patch malformed json', method: 'PATCH', path: `/users/${alice.handle}`, opts: { rawBody: raw, token: alice.token, headers: { 'content-type': 'application/json' } } })),
    badHandle.map((h) => ({ kind: 'patch bad handle path', method: 'PATCH', path: `/users/${pathSegment(h)}`, opts: { body: { displayName: 'Fine' }, token: alice.token } })),
  );
}

let bobPostId: string;

const tooLongPost = fc.integer({ min: 501, max: 700 }).map((n) => '字'.repeat(n));
const badPostBody = fc.oneof(
  fc.constantFrom('', '   ', '\u200b', 'nul\u0000', 'bell\u0007', '\u202eflip', 'lone \udfff', '😀'.repeat(501)),
  tooLongPost,
  notAString,
);
const badPostId = fc.oneof(
  fc.constantFrom('x', 'a.b.c', 'alice.123.zzzzzzzzzzzz', 'alice.99999999999999999.000000000000', 'ALICE.1.000000000000', 'a.1.00000000000g'),
  fc.tuple(fc.constantFrom(...nasty), fc.string({ maxLength: 10 })).map(([n, t]) => `alice.1.${n}${t}`),
);
const badQuery = fc.constantFrom('?limit=0', '?limit=-1', '?limit=101', '?limit=1.5', '?limit=abc', '?cursor=%2A', '?cursor=Zm9vL2Jhcg', '?cursor=' + 'A'.repeat(700), '?x=1', '?limit=1&limit=2');

function feedRequests(): fc.Arbitrary<BadRequest> {
  const me = () => alice.handle;
  return fc.oneof(
    badPostBody.map((body) => ({ kind: 'publish bad body', method: 'POST', path: '/posts', opts: { body: { body }, token: alice.token } })),
    fc.record({ body: fc.constant('fine'), extra: fc.string() }).map((body) => ({ kind: 'publish unknown field', method: 'POST', path: '/posts', opts: { body, token: alice.token } })),
    fc.oneof(fc.constantFrom('', 'a/b', 'a,b', 'a+b', 'a*', 'a%', 'k'.repeat(65), 'ключ'), fc.tuple(fc.string({ maxLength: 5 }), fc.constantFrom(...nasty)).map(([a, b]) => a + b))
      // Header values must be Latin-1 and lose surrounding spaces on the wire: send what survives.
      .map((key) => key.replace(/[\u0000-\u001f\u007f-\uffff]/g, '?').trim())
      .filter((key) => key.length > 0 && !/^[A-Za-z0-9_-]{1,64}$/.test(key))
      .map((key) => ({ kind: 'publish bad idempotency key', method: 'POST', path: '/posts', opts: { body: { body: 'fine' }, token: alice.token, headers: { 'idempotency-key': key } } })),
    forgedToken.map((t) => ({ kind: 'publish forged token', method: 'POST', path: '/posts', opts: { body: { body: 'fine' }, headers: { authorization: `Bearer ${t}` } } })),
    fc.constant(null).map(() => ({ kind: 'publish no token', method: 'POST', path: '/posts', opts: { body: { body: 'fine' } } })),
    badPostId.map((id) => ({ kind: 'get post bad id', method: 'GET', path: `/posts/${pathSegment(id)}`, opts: {} })),
    badPostId.map((id) => ({ kind: 'delete post bad id', method: 'DELETE', path: `/posts/${pathSegment(id)}`, opts: { token: alice.token } })),
    fc.constant(null).map(() => ({ kind: 'delete someone else’s post', method: 'DELETE', path: `/posts/${bobPostId}`, opts: { token: alice.token } })),
    fc.constant(null).map(() => ({ kind: 'delete post no token', method: 'DELETE', path: `/posts/${bobPostId}`, opts: {} })),
    badHandle.map((h) => ({ kind: 'follow bad target', method: 'PUT', path: `/users/${me()}/following/${pathSegment(h)}`, opts: { token: alice.token } })),
    fc.constantFrom('PUT', 'DELETE').map((m) => ({ kind: 'follow/unfollow self', method: m, path: `/users/${me()}/following/${me()}`, opts: { token: alice.token } })),
    fc.constantFrom('PUT', 'DELETE').map((m) => ({ kind: 'follow/unfollow unknown user', method: m, path: `/users/${me()}/following/no_such_user_zz`, opts: { token: alice.token } })),
    fc.constantFrom('PUT', 'DELETE').map((m) => ({ kind: 'follow/unfollow as someone else', method: m, path: `/users/${bob.handle}/following/${me()}`, opts: { token: alice.token } })),
    fc.constantFrom('PUT', 'DELETE').map((m) => ({ kind: 'follow/unfollow no token', method: m, path: `/users/${me()}/following/${bob.handle}`, opts: {} })),
    fc.constant(null).map(() => ({ kind: 'timeline of someone else', method: 'GET', path: `/users/${bob.handle}/timeline`, opts: { token: alice.token } })),
    badQuery.map((q) => ({ kind: 'timeline bad query', method: 'GET', path: `/users/${me()}/timeline${q}`, opts: { token: alice.token } })),
    fc.constantFrom('posts', 'following', 'followers').chain((what) =>
      fc.oneof(
        badQuery.map((q) => ({ kind: `${what} bad query`, method: 'GET', path: `/users/${me()}/${what}${q}`, opts: {} })),
        badHandle.map((h) => ({ kind: `${what} bad handle`, method: 'GET', path: `/users/${pathSegment(h)}/${what}`, opts: {} })),
        fc.constant({ kind: `${what} unknown user`, method: 'GET', path: `/users/no_such_user_zz/${what}`, opts: {} }),
      ),
    ),
  );
}

/** Comment ids that are not ours (the real ones: 13 digits, '-', 8 hex). */
const badCommentId = fc.oneof(
  fc.constantFrom('x', '1795000000000', '1795000000000-', '1795000000000-zzzzzzzz', '179500000000-00000000', '1795000000000-0000000g', 'multiget'),
  fc.tuple(fc.constantFrom(...nasty), fc.string({ maxLength: 8 })).map(([n, t]) => `1795000000000-${n}${t}`),
);
const badCommentQuery = fc.oneof(badQuery, fc.constantFrom('?order=random', '?order=', '?order=NEWEST', '?order=newest&order=oldest', '?cursor=MTc5NTAwMDAwMDAwMA'));

function reactionRequests(): fc.Arbitrary<BadRequest> {
  const me = () => alice.handle;
  const comments = () => `/posts/${bobPostId}/comments`;
  return fc.oneof(
    // comments
    badPostBody.map((body) => ({ kind: 'comment bad body', method: 'POST', path: comments(), opts: { body: { body }, token: alice.token } })),
    badCommentId.map((replyTo) => ({ kind: 'comment bad replyTo', method: 'POST', path: comments(), opts: { body: { body: 'fine', replyTo }, token: alice.token } })),
    fc.constant(null).map(() => ({ kind: 'comment replyTo unknown comment', method: 'POST', path: comments(), opts: { body: { body: 'fine', replyTo: '1795000000000-00000000' }, token: alice.token } })),
    fc.record({ body: fc.constant('fine'), extra: fc.string() }).map((body) => ({ kind: 'comment unknown field', method: 'POST', path: comments(), opts: { body, token: alice.token } })),
    malformedJson.map((raw) => ({ kind: 'comment malformed json', method: 'POST', path: comments(), opts: { rawBody: raw, token: alice.token, headers: { 'content-type': 'application/json' } } })),
    fc.constant(null).map(() => ({ kind: 'comment no token', method: 'POST', path: comments(), opts: { body: { body: 'fine' } } })),
    forgedToken.map((t) => ({ kind: 'comment forged token', method: 'POST', path: comments(), opts: { body: { body: 'fine' }, headers: { authorization: `Bearer ${t}` } } })),
    badPostId.map((id) => ({ kind: 'comment on bad post id', method: 'POST', path: `/posts/${pathSegment(id)}/comments`, opts: { body: { body: 'fine' }, token: alice.token } })),
    fc.constant(null).map(() => ({ kind: 'comment on unknown post', method: 'POST', path: '/posts/alice.1795000000000.000000000000/comments', opts: { body: { body: 'fine' }, token: alice.token } })),
    badCommentQuery.map((q) => ({ kind: 'comments bad query', method: 'GET', path: `${comments()}${q}`, opts: {} })),
    badPostId.map((id) => ({ kind: 'comments of bad post id', method: 'GET', path: `/posts/${pathSegment(id)}/comments`, opts: {} })),
    badCommentId.map((id) => ({ kind: 'delete comment bad id', method: 'DELETE', path: `${comments()}/${pathSegment(id)}`, opts: { token: alice.token } })),
    fc.constant(null).map(() => ({ kind: 'delete unknown comment', method: 'DELETE', path: `${comments()}/1795000000000-00000000`, opts: { token: alice.token } })),
    fc.constant(null).map(() => ({ kind: 'delete comment no token', method: 'DELETE', path: `${comments()}/1795000000000-00000000`, opts: {} })),
    // likes
    fc.constantFrom('PUT', 'DELETE').map((m) => ({ kind: 'like as someone else', method: m, path: `/users/${bob.handle}/likes/${bobPostId}`, opts: { token: alice.token } })),
    fc.constantFrom('PUT', 'DELETE').map((m) => ({ kind: 'like no token', method: m, path: `/users/${me()}/likes/${bobPostId}`, opts: {} })),
    fc.tuple(fc.constantFrom('PUT', 'DELETE'), badPostId).map(([m, id]) => ({ kind: 'like bad post id', method: m, path: `/users/${me()}/likes/${pathSegment(id)}`, opts: { token: alice.token } })),
    fc.constantFrom('PUT', 'DELETE').map((m) => ({ kind: 'like unknown post', method: m, path: `/users/${me()}/likes/alice.1795000000000.000000000000`, opts: { token: alice.token } })),
    fc.tuple(fc.constantFrom('PUT', 'DELETE'), badHandle).map(([m, h]) => ({ kind: 'like bad handle', method: m, path: `/users/${pathSegment(h)}/likes/${bobPostId}`, opts: { token: alice.token } })),
    badQuery.map((q) => ({ kind: 'likers bad query', method: 'GET', path: `/posts/${bobPostId}/likes${q}`, opts: {} })),
    fc.constant(null).map(() => ({ kind: 'likers of unknown post', method: 'GET', path: '/posts/alice.1795000000000.000000000000/likes', opts: {} })),
    // reposts
    badPostBody.filter((b) => b !== undefined).map((comment) => ({ kind: 'repost bad comment', method: 'POST', path: `/posts/${bobPostId}/reposts`, opts: { body: { comment }, token: alice.token } })),
    fc.record({ extra: fc.string() }).map((body) => ({ kind: 'repost unknown field', method: 'POST', path: `/posts/${bobPostId}/reposts`, opts: { body, token: alice.token } })),
    fc.constant(null).map(() => ({ kind: 'repost unknown post', method: 'POST', path: '/posts/alice.1795000000000.000000000000/reposts', opts: { body: {}, token: alice.token } })),
    fc.constant(null).map(() => ({ kind: 'repost no token', method: 'POST', path: `/posts/${bobPostId}/reposts`, opts: { body: {} } })),
    badPostId.map((id) => ({ kind: 'repost bad post id', method: 'POST', path: `/posts/${pathSegment(id)}/reposts`, opts: { body: {}, token: alice.token } })),
    // optional-auth reads: a token, if sent, must be valid
    forgedToken.map((t) => ({ kind: 'get post forged token', method: 'GET', path: `/posts/${bobPostId}`, opts: { headers: { authorization: `Bearer ${t}` } } })),
  );
}

async function specialTokens(): Promise<BadRequest[]> {
  const secret = new TextEncoder().encode(inject('jwtSecret'));
  const claims = () => new SignJWT({}).setSubject(alice.handle).setIssuer('weibo-serverless').setAudience('weibo-api').setIssuedAt();
  const tokens = [
    await claims().setProtectedHeader({ alg: 'HS256' }).setExpirationTime(Math.floor(Date.now() / 1000) - 10).sign(secret),
    await claims().setProtectedHeader({ alg: 'HS256' }).setExpirationTime('5m').sign(new TextEncoder().encode('w'.repeat(40))),
    await claims().setProtectedHeader({ alg: 'HS512' }).setExpirationTime('5m').sign(new TextEncoder().encode(inject('jwtSecret').padEnd(64, 'p'))),
    new UnsecuredJWT({ sub: alice.handle }).setIssuer('weibo-serverless').setAudience('weibo-api').setExpirationTime('5m').encode(),
    await new SignJWT({}).setSubject(alice.handle).setIssuer('evil').setAudience('weibo-api').setIssuedAt().setExpirationTime('5m').setProtectedHeader({ alg: 'HS256' }).sign(secret),
  ];
  return tokens.map((token) => ({ kind: 'patch expired/none/wrong-secret token', method: 'PATCH', path: `/users/${alice.handle}`, opts: { body: { displayName: 'Hacked' }, token } }));
}

/**
 * Every table but the write quota: a refused comment, like or repost still counts against its
 * author's per-minute limit, by design (abuse that fails is still abuse).
 */
const withoutQuota = ({ quota: _quota, ...rest }: Record<string, number>) => rest;

// ---- the suite -------------------------------------------------------------------------------
describe('hostile input', () => {
  let before: Record<string, number>;
  const seen = new Map<string, number>();
  let total = 0;

  beforeAll(async () => {
    alice = await api.newUser('h_alice');
    bob = await api.newUser('h_bob');
    const bobPost = await api.call('POST', '/posts', { token: bob.token, body: { body: 'bob was here' } });
    bobPostId = bobPost.json.id;
    // Let the post's fan-out (and any queued work of earlier files) finish, so the row counts below are stable.
    const sqs = new SQSClient({ endpoint: inject('sqsEndpoint'), region: 'us-east-1', credentials: { accessKeyId: 'local', secretAccessKey: 'local' } });
    await queueDrained(sqs, inject('fanoutQueueUrl'));
    sqs.destroy();
    before = withoutQuota(await rowCounts(hbase, namespace));
  });
  afterAll(async () => {
    console.log(`[hostile] ${total} generated bad requests by kind:`, Object.fromEntries(seen));
    await hbase.close();
  });

  async function expectRejected(req: BadRequest): Promise<void> {
    total++;
    seen.set(req.kind, (seen.get(req.kind) ?? 0) + 1);
    const res = await api.call(req.method, req.path, req.opts);
    const where = `${req.kind}: ${req.method} ${req.path} ${JSON.stringify(req.opts).slice(0, 200)} → ${res.status} ${res.text.slice(0, 200)}`;
    expect(res.status, where).toBeGreaterThanOrEqual(400);
    expect(res.status, where).toBeLessThan(500);
    expect(isErrorShape(res.json), where).toBe(true);
  }

  it('rejects every generated bad request with a JSON 4xx', async () => {
    const all = fc.oneof(register, login, profilePath, patchRequests(), { arbitrary: feedRequests(), weight: 4 }, { arbitrary: reactionRequests(), weight: 4 });
    await fc.assert(fc.asyncProperty(all, expectRejected), { numRuns: RUNS });
    for (const req of await specialTokens()) await expectRejected(req);
    expect(total).toBeGreaterThanOrEqual(Math.min(RUNS, 500));
  });

  it('invalid percent-encoding is refused by the gateway itself, before any handler (400)', async () => {
    // API Gateway / serverless-offline reject a path like this with their own body, so it can
    // not carry our error shape; what matters is that it is a 4xx and reaches no code of ours.
    const res = await api.call('GET', '/users/%ZZ', { notOurResponse: 'the gateway refuses the path before any handler' });
    expect(res.status).toBe(400);
  });

  it('left every table exactly as it was, and alice unchanged', async () => {
    expect(withoutQuota(await rowCounts(hbase, namespace))).toEqual(before);
    const profile = await api.call('GET', `/users/${alice.handle}`);
    expect(profile.json.displayName).toBe(`User ${alice.handle}`);
  });
});
