// shared/observability/correlation-id.ts — the id that ties every log line of one request, and
// of the queue work it causes, together. A caller may send its own in `x-correlation-id`; it is
// taken only when well-formed, since it is copied into logs, a response header and queue
// messages (no newlines, quotes or unbounded lengths from the outside).
import { randomUUID } from 'node:crypto';

export const CORRELATION_HEADER = 'x-correlation-id';
/** The SQS message attribute that carries it to the fan-out worker (the body stays as it was). */
export const CORRELATION_ATTRIBUTE = 'correlationId';

/** UUIDs, API Gateway request ids (base64: `+`, `/`, `=`), SQS message ids, a caller's own tokens. */
const WELL_FORMED = /^[A-Za-z0-9][A-Za-z0-9._:+/=-]{0,99}$/;

/** `value` when it is a usable correlation id, else undefined. */
export function parseCorrelationId(value: unknown): string | undefined {
  return typeof value === 'string' && WELL_FORMED.test(value) ? value : undefined;
}

/**
 * serverless-offline (14.x) puts this same requestContext.requestId on every request; as a
 * correlation id it would join every local request into one, so the Lambda request id stands in.
 */
const EMULATOR_REQUEST_ID = 'offlineContext_resourceId';

/**
 * An HTTP request's id: the caller's well-formed `x-correlation-id` (header names arrive
 * lower-cased in payload 2.0), else API Gateway's request id, else `fallback` (the Lambda
 * request id), else a fresh one.
 */
export function httpCorrelationId(
  event: { headers?: Record<string, string | undefined>; requestContext?: { requestId?: string } },
  fallback?: string,
): string {
  const gatewayId =
    event.requestContext?.requestId === EMULATOR_REQUEST_ID ? undefined : event.requestContext?.requestId;
  return (
    parseCorrelationId(event.headers?.[CORRELATION_HEADER]) ??
    parseCorrelationId(gatewayId) ??
    parseCorrelationId(fallback) ??
    randomUUID()
  );
}

/** A queue record's id: the one its sender attached, else the record's own message id. */
export function recordCorrelationId(record: {
  messageId: string;
  messageAttributes?: Record<string, { stringValue?: string } | undefined>;
}): string {
  return parseCorrelationId(record.messageAttributes?.[CORRELATION_ATTRIBUTE]?.stringValue) ?? record.messageId;
}
