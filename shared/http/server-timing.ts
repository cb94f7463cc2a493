// shared/http/server-timing.ts — the middy middleware that stamps EVERY response of an HTTP
// route (success, a 4xx from validation or auth, the catch-all 404, a 5xx) with
//   Server-Timing: the HBase work this request cost (shared/observability/server-timing.ts)
//   x-correlation-id: the id its log lines (and the queue work it caused) carry
// Both are read from the request's invocation scope, which httpRoute opens around the whole
// middy chain (middy has no "around" hook, and AsyncLocalStorage needs one).
import type middy from '@middy/core';
import type { APIGatewayProxyEventV2, APIGatewayProxyStructuredResultV2 } from 'aws-lambda';
import { performance } from 'node:perf_hooks';
import { CORRELATION_HEADER } from '../observability/correlation-id.js';
import { hbaseCost } from '../observability/hbase-requests.js';
import { serverTiming } from '../observability/server-timing.js';
import { currentScope, settleDeferred } from '../runtime/invocation-scope.js';

type Request = middy.Request<APIGatewayProxyEventV2, APIGatewayProxyStructuredResultV2>;

async function stamp(request: Request): Promise<void> {
  const scope = currentScope();
  const response = request.response;
  if (!scope || !response) return;
  // Work handed off (a scanner's delete) ends first: the header counts every request sent.
  await settleDeferred(scope);
  response.headers = {
    ...response.headers,
    'Server-Timing': serverTiming(hbaseCost(scope.hbase), performance.now() - scope.startedAt),
    [CORRELATION_HEADER]: scope.correlationId,
  };
}

/**
 * Used before errorMapper in the chain: middy runs `onError` in reverse order, so this runs
 * after the error has become a response, and stamps that response too.
 */
export const serverTimingHeaders = (): middy.MiddlewareObj<
  APIGatewayProxyEventV2,
  APIGatewayProxyStructuredResultV2
> => ({
  after: stamp,
  onError: stamp,
});
