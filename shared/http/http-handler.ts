// shared/http/http-handler.ts — the middy chain every HTTP handler uses. A handler names its
// operation's entry in routes.ts (zod schemas, whether it needs a token) and supplies a short
// function that calls a use case. Order on the way in: invocation scope, Lambda context and
// metrics (shared/observability/invocation.ts) → Server-Timing → size/type limits → token →
// JSON parse → validation.
//
// No CORS middleware: the HTTP API answers CORS itself (serverless.yml provider.httpApi.cors,
// applied by serverless-offline too), and API Gateway ignores a function's CORS headers when the
// API has CORS configured, so a second copy here could only disagree with the one that counts.
import middy from '@middy/core';
import httpJsonBodyParser from '@middy/http-json-body-parser';
import type { APIGatewayProxyEventV2, APIGatewayProxyStructuredResultV2 } from 'aws-lambda';
import type { z } from 'zod';
import { authenticate, type AuthContext } from './authenticate.js';
import { RequestError, errorMapper } from './error-mapper.js';
import { requestLimits } from './request-limits.js';
import { serverTimingHeaders } from './server-timing.js';
import { httpCorrelationId } from '../observability/correlation-id.js';
import { answeredAtDeadline, inInvocation, invocationMiddlewares } from '../observability/invocation.js';
import { operationBudget } from '../config/config.js';

export interface HttpRequest<B, P, Q, H = undefined> {
  body: B;
  /** The path parameters, validated. */
  params: P;
  query: Q;
  headers: H;
  /** The verified token's user: always present when the route requires auth, '' for an anonymous request to an optional-auth route. */
  actor: string;
  /**
   * The caller's address as API Gateway saw it (requestContext.http.sourceIp: the peer of its own
   * connection, which a client cannot forge — X-Forwarded-For is never read); '' when unknown.
   */
  sourceIp: string;
  /** The request's cookies as `name=value` (payload 2.0 `cookies`); only the session routes read one. */
  cookies: readonly string[];
}

export interface HttpResult {
  status: number;
  body?: unknown;
  headers?: Record<string, string>;
  /** Set-Cookie values (payload 2.0 `cookies`: API Gateway sends one header each). */
  cookies?: string[];
}

/** What the middleware chain needs of a route (routes.ts entries are RouteSpecs). */
export interface RouteSpec<B extends z.ZodType, P extends z.ZodType, Q extends z.ZodType, H extends z.ZodType> {
  /** 'optional': anonymous requests pass; a token, if sent, must be valid. */
  auth: boolean | 'optional';
  body?: B;
  params?: P;
  query?: Q;
  /** Header names are lowercase (API Gateway HTTP API payload 2.0). */
  headers?: H;
}

type Out<T> = T extends z.ZodType ? z.output<T> : undefined;

function parse<T extends z.ZodType>(schema: T | undefined, value: unknown, where: string): Out<T> {
  if (!schema) return undefined as Out<T>;
  const result = schema.safeParse(value ?? {});
  if (!result.success) {
    // Name the fields and rules, never echo the input back (it may hold a password).
    const detail = result.error.issues
      .slice(0, 5)
      .map((i) => `${[where, ...i.path.map(String)].join('.')}: ${i.message}`)
      .join('; ');
    throw new RequestError(422, 'validation_failed', detail);
  }
  return result.data as Out<T>;
}

export function json(status: number, body?: unknown, headers?: Record<string, string>): HttpResult {
  return { status, body, ...(headers ? { headers } : {}) };
}

/**
 * Builds `{ run, handler }`: `run` is the raw function (validated input in, HttpResult out) for
 * unit tests; `handler` is the middy-wrapped Lambda handler for deployment.
 */
export function httpRoute<
  B extends z.ZodType,
  P extends z.ZodType,
  Q extends z.ZodType,
  H extends z.ZodType = z.ZodType,
>(spec: RouteSpec<B, P, Q, H>, run: (req: HttpRequest<Out<B>, Out<P>, Out<Q>, Out<H>>) => Promise<HttpResult>) {
  const core = async (
    event: APIGatewayProxyEventV2,
    context: AuthContext,
  ): Promise<APIGatewayProxyStructuredResultV2> => {
    const result = await run({
      body: parse(spec.body, event.body, 'body'),
      params: parse(spec.params, event.pathParameters, 'path'),
      query: parse(spec.query, event.queryStringParameters, 'query'),
      headers: parse(spec.headers, event.headers, 'headers'),
      actor: context.actor ?? '',
      sourceIp: event.requestContext?.http?.sourceIp ?? '',
      cookies: event.cookies ?? [],
    });
    return {
      statusCode: result.status,
      headers: { 'Content-Type': 'application/json', ...result.headers },
      ...(result.cookies ? { cookies: result.cookies } : {}),
      body: result.body === undefined ? '' : JSON.stringify(result.body),
    };
  };

  // A handler still running at the invocation's deadline is answered for: 503 `timeout`
  // (answeredAtDeadline → error-mapper.ts), before Lambda's own timeout could cut it off.
  const chain = middy<APIGatewayProxyEventV2, APIGatewayProxyStructuredResultV2, Error, AuthContext>(answeredAtDeadline)
    .use(invocationMiddlewares())
    .use(serverTimingHeaders())
    .use(requestLimits({ expectsBody: spec.body !== undefined }));
  if (spec.auth) chain.use(authenticate({ optional: spec.auth === 'optional' }));
  if (spec.body) chain.use(httpJsonBodyParser());
  chain.use(errorMapper());
  // The invocation scope wraps the whole chain, error mapping included (middy has no "around"
  // hook, and AsyncLocalStorage needs one): the Server-Timing middleware reads it.
  const correlationIdOf = (event: APIGatewayProxyEventV2, context: AuthContext) =>
    httpCorrelationId(event, context.awsRequestId);
  // The operation budget bounds every request's writes in time (shared/runtime/deadline.ts).
  return { run, handler: inInvocation(correlationIdOf, chain.handler(core), { budgetMs: () => operationBudget() }) };
}
