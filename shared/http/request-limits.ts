// shared/http/request-limits.ts — before anything parses a body: bound its size (413) and
// insist on JSON (415), so oversize or odd payloads never reach a parser or a use case.
import type middy from '@middy/core';
import type { APIGatewayProxyEventV2 } from 'aws-lambda';
import { RequestError } from './error-mapper.js';

/** 16 KiB: a post of the maximum length, fully \u-escaped, fits several times over. */
export const MAX_BODY_BYTES = 16 * 1024;

const JSON_TYPE = /^application\/(?:[\w.+-]+\+)?json\s*(?:;.*)?$/i;

export const requestLimits = (opts: { expectsBody: boolean }): middy.MiddlewareObj<APIGatewayProxyEventV2> => ({
  before: async ({ event }) => {
    const body = event.body ?? '';
    const bytes = event.isBase64Encoded ? Math.floor((body.length * 3) / 4) : Buffer.byteLength(body, 'utf8');
    if (bytes > MAX_BODY_BYTES)
      throw new RequestError(413, 'payload_too_large', `Request body exceeds ${MAX_BODY_BYTES} bytes`);
    if (!opts.expectsBody) return;
    if (body.length === 0) throw new RequestError(400, 'missing_body', 'A JSON request body is required');
    const type = event.headers?.['content-type'] ?? '';
    if (!JSON_TYPE.test(type))
      throw new RequestError(415, 'unsupported_media_type', 'Content-Type must be application/json');
  },
});
