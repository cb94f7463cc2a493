// infra/openapi/openapi-document.ts — builds the OpenAPI 3.1 document from the route table
// (shared/http/routes.ts) and the zod schemas the handlers validate with. zod-openapi renders
// each schema with zod 4's own JSON Schema emitter (no monkey-patching of zod, unlike
// @asteasolutions/zod-to-openapi's `extendZodWithOpenApi`), takes request parameters as the
// same z.object the handler parses, and turns `.meta({ id })` into a named component.
import { z } from 'zod';
import {
  createDocument,
  type ZodOpenApiOperationObject,
  type ZodOpenApiPathsObject,
  type ZodOpenApiResponseObject,
} from 'zod-openapi';
import { ERROR_CODES, type ErrorCode } from '../../shared/domain/error-codes.js';
import { allErrors, RETRY_AFTER_HEADER, routes, type Route } from '../../shared/http/routes.js';

const ERROR_TEXT: Record<number, string> = {
  400: 'Malformed request',
  401: 'Missing, malformed or expired token, or wrong credentials',
  403: 'Authenticated, but not allowed to act on this resource',
  404: 'Not found',
  409: 'Conflict',
  410: 'Gone for good',
  413: 'Request body too large (16 KiB at most)',
  415: 'Content-Type must be application/json',
  422: 'The request breaks a rule',
  429: 'Too many attempts: wait `Retry-After` seconds',
  500: 'Internal error (no details are given)',
  503: 'Storage temporarily unavailable (`service_unavailable`) or the request ran out of time (`timeout`): whether a write took effect is unknown, and retrying it after `Retry-After` seconds is safe (a create with the same `Idempotency-Key`)',
};

/**
 * Every code the API sends (shared/domain/error-codes.ts), one named component: a client types
 * its handling against it (the web client's messages must cover it, web/src/i18n/messages.ts).
 */
const ErrorCodeSchema = z
  .enum(ERROR_CODES)
  .meta({ id: 'ErrorCode', description: 'Every machine-readable error code this API sends' });

/**
 * One error response per status; `code` is an ErrorCode, and exactly one of the codes this
 * operation can send. Operations that answer a status with the same codes share one named
 * response (`#/components/responses/…`): the document states each once, not once per route.
 */
const sharedErrors = new Map<string, ZodOpenApiResponseObject>();
function errorResponse(status: number, codes: ErrorCode[]): ZodOpenApiResponseObject {
  const id = `Error${status}_${codes.join('_')}`;
  const known = sharedErrors.get(id);
  if (known) return known;
  const response = { id, ...errorResponseBody(status, codes) };
  sharedErrors.set(id, response);
  return response;
}

function errorResponseBody(status: number, codes: ErrorCode[]) {
  const schema = z.strictObject({
    error: z.strictObject({
      code: z
        .intersection(ErrorCodeSchema, z.enum(codes))
        .meta({ description: 'Stable machine-readable code: clients branch on it' }),
      message: z.string().meta({ description: 'A human-readable English sentence; never echoes secrets or input' }),
    }),
  });
  return {
    description: `${ERROR_TEXT[status] ?? 'Error'}: ${codes.map((c) => `\`${c}\``).join(', ')}`,
    content: { 'application/json': { schema } },
    ...(status === 429 || status === 503 ? { headers: RETRY_AFTER_HEADER } : {}),
  };
}

function operation(name: string, r: Route): ZodOpenApiOperationObject {
  const responses: Record<string, ZodOpenApiResponseObject> = {};
  for (const [status, s] of Object.entries(r.success)) {
    responses[status] = {
      description: s.description,
      ...(s.schema ? { content: { 'application/json': { schema: s.schema } } } : {}),
      ...(s.headers ? { headers: s.headers } : {}),
    };
  }
  for (const [status, codes] of Object.entries(allErrors(r))) responses[status] = errorResponse(Number(status), codes);
  const params = {
    ...(r.params ? { path: r.params as z.ZodObject } : {}),
    ...(r.query ? { query: r.query as z.ZodObject } : {}),
    ...(r.headers ? { header: r.headers as z.ZodObject } : {}),
  };
  return {
    operationId: name,
    summary: r.summary,
    ...(r.description ? { description: r.description } : {}),
    tags: [r.tag],
    // Public operations say so explicitly (`[]`), so a missing declaration is a lint error.
    // 'optional': anonymous reads work; with a token the answer adds the reader's own state.
    security: r.auth === 'optional' ? [{}, { bearerAuth: [] }] : r.auth ? [{ bearerAuth: [] }] : [],
    ...(Object.keys(params).length ? { requestParams: params } : {}),
    ...(r.body ? { requestBody: { required: true, content: { 'application/json': { schema: r.body } } } } : {}),
    responses,
  };
}

export function openApiDocument() {
  const paths: ZodOpenApiPathsObject = {};
  for (const [name, r] of Object.entries(routes) as [string, Route][]) {
    const item = paths[r.path] ?? {};
    paths[r.path] = item;
    (item as Record<string, ZodOpenApiOperationObject>)[r.method.toLowerCase()] = operation(name, r);
  }
  return createDocument({
    openapi: '3.1.0',
    info: {
      title: 'weibo-serverless API',
      version: '1.0.0',
      description: [
        'A Weibo-style microblog: accounts, posts, follows and a home timeline.',
        '',
        '**Authentication.** `POST /sessions` returns a short-lived bearer token and a refresh token; send the bearer token as `Authorization: Bearer <token>`. An expired one is refused with 401 `token_expired`: exchange the refresh token at `POST /sessions/refresh` for new ones (each refresh token works once), or log in again. `POST /sessions/logout` revokes the session.',
        '',
        '**Errors.** Every 4xx and 5xx body is `{"error":{"code","message"}}`; each operation lists the codes it can send. `code` is stable, `message` is for people.',
        '',
        '**Timeouts.** A request that runs out of time answers 503 `timeout` with `Retry-After` (and storage that is unavailable, 503 `service_unavailable`): whether a write took effect is then unknown. Retrying is safe: every create (`POST /posts`, reposts, comments, `POST /media`) takes an `Idempotency-Key`, and a retry with the same key and body answers the first outcome; the other writes are idempotent.',
        '',
        '**Lists and cursors.** Lists are newest first. The first page has no `cursor`; each page returns `nextCursor`, `null` on the last page. Cursors are opaque strings this API made; items added above a cursor never shift the pages after it. `limit` is 1–100 (default 20).',
        '',
        '**Text.** Lengths are Unicode code points (an emoji or a CJK character counts 1). Control and bidirectional-override characters are refused.',
      ].join('\n'),
    },
    servers: [{ url: 'http://127.0.0.1:13000', description: '`npm start` (local)' }],
    tags: [
      { name: 'accounts', description: 'Registration, login, profiles' },
      { name: 'posts', description: 'Publishing, reading and deleting posts' },
      { name: 'relations', description: 'Following and followers' },
      { name: 'timeline', description: 'The home timeline' },
      { name: 'messages', description: 'Private conversations (私信)' },
      { name: 'meta', description: 'This description' },
    ],
    components: { securitySchemes: { bearerAuth: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT' } } },
    paths,
  });
}

/** The document as committed: stable key order, two-space indent, trailing newline. */
export const renderOpenApi = () => `${JSON.stringify(openApiDocument(), null, 2)}\n`;
