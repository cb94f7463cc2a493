// shared/http/error-mapper.ts — THE one place errors become HTTP statuses. Every response
// error body is {"error":{"code","message"}}; 5xx bodies never carry internals.
//
// A 503 says the truth about what is known: a request that ran out of time (`timeout`: middy
// answered at the deadline, or HBase refused or cut a call on it) and one whose storage failed
// (`service_unavailable`) may or may not have taken effect. Both carry Retry-After, and for a
// write the message says the outcome is unknown and that retrying is safe (every create takes an
// Idempotency-Key; the other writes are idempotent). Never 500: that would say "failed".
import type middy from '@middy/core';
import type { ErrorCode } from '../domain/error-codes.js';
import {
  AuthenticationError,
  ConflictError,
  DomainError,
  ForbiddenError,
  GoneError,
  InvalidInputError,
  NotFoundError,
  PreconditionFailedError,
  PreconditionRequiredError,
  RateLimitedError,
} from '../domain/errors.js';
import { HBaseError } from '../hbase/hbase-error.js';
import { logger } from '../logging/logger.js';
import { ranOutOfTime } from '../observability/out-of-time.js';

/** Thrown by the edge middlewares for requests that never reach a use case. */
export class RequestError extends Error {
  constructor(
    readonly status: 400 | 401 | 413 | 415 | 422,
    readonly code: ErrorCode,
    message: string,
  ) {
    super(message);
    this.name = 'RequestError';
  }
}

const DOMAIN_STATUS: [new (...args: never[]) => DomainError, number][] = [
  [InvalidInputError, 422],
  [NotFoundError, 404],
  [ConflictError, 409],
  [GoneError, 410],
  [PreconditionFailedError, 412],
  [PreconditionRequiredError, 428],
  [AuthenticationError, 401],
  [ForbiddenError, 403],
  [RateLimitedError, 429],
];

export interface MappedError {
  status: number;
  code: ErrorCode;
  message: string;
  headers?: Record<string, string>;
}

/** middy's own HttpErrors (from @middy/http-json-body-parser and friends). */
function isMiddyHttpError(err: unknown): err is { statusCode: number; message: string; expose?: boolean } {
  return typeof err === 'object' && err !== null && typeof (err as { statusCode?: unknown }).statusCode === 'number';
}

/** Seconds a client waits before retrying after a 503: long enough for an overload to ease. */
export const RETRY_AFTER_503_SECONDS = 2;

const UNKNOWN_OUTCOME =
  'whether it took effect is not known. Retrying is safe (a create with the same Idempotency-Key)';

/**
 * `write`: the request may change something (any method but GET), so its 503 says the outcome is
 * unknown; a read's says to retry.
 */
export function mapError(err: unknown, { write = true }: { write?: boolean } = {}): MappedError {
  if (err instanceof RequestError) return { status: err.status, code: err.code, message: err.message };
  if (err instanceof DomainError) {
    const status = DOMAIN_STATUS.find(([cls]) => err instanceof cls)?.[1] ?? 400;
    const headers = err instanceof RateLimitedError ? { 'Retry-After': String(err.retryAfterSeconds) } : undefined;
    return { status, code: err.code, message: err.message, ...(headers ? { headers } : {}) };
  }
  if (isMiddyHttpError(err) && err.statusCode < 500) {
    // @middy/http-json-body-parser reports unparsable JSON as 415; it is a malformed request.
    if (/malformed JSON/i.test(err.message))
      return { status: 400, code: 'malformed_json', message: 'Request body is not valid JSON' };
    if (err.statusCode === 415)
      return { status: 415, code: 'unsupported_media_type', message: 'Content-Type must be application/json' };
    return { status: err.statusCode, code: 'bad_request', message: err.message };
  }
  const retryAfter = { 'Retry-After': String(RETRY_AFTER_503_SECONDS) };
  if (ranOutOfTime(err)) {
    // Logged once for the invocation, with its route, by shared/observability/out-of-time.ts.
    const message = write ? `The request ran out of time: ${UNKNOWN_OUTCOME}` : 'The request ran out of time; retry it';
    return { status: 503, code: 'timeout', message, headers: retryAfter };
  }
  if (err instanceof HBaseError) {
    logger.error('HBase request failed', {
      status: err.status,
      method: err.method,
      path: err.path,
      error: err.message,
    });
    const message = write
      ? `Storage is temporarily unavailable: ${UNKNOWN_OUTCOME}`
      : 'Storage is temporarily unavailable; retry later';
    return { status: 503, code: 'service_unavailable', message, headers: retryAfter };
  }
  logger.error('Unhandled error', err instanceof Error ? err : String(err));
  return { status: 500, code: 'internal_error', message: 'Internal error' };
}

/**
 * onError: turns the error into the JSON response. Attached last in the chain so it runs
 * first on the way out (middy runs onError in reverse order).
 */
export const errorMapper = (): middy.MiddlewareObj => ({
  onError: async (request) => {
    const method = (request.event as { requestContext?: { http?: { method?: string } } } | undefined)?.requestContext
      ?.http?.method;
    const mapped = mapError(request.error, { write: method !== 'GET' && method !== 'HEAD' });
    request.response = {
      statusCode: mapped.status,
      headers: { 'Content-Type': 'application/json', ...mapped.headers },
      body: JSON.stringify({ error: { code: mapped.code, message: mapped.message } }),
    };
  },
});
