// test/support/model/http.ts — the model check's view of an HTTP answer. A request that fails
// outright (connection reset, 30 s timeout) becomes status 0 instead of an exception, so one bad
// request is reported like any other wrong answer instead of hiding the rest of a seed's findings.
import { setTimeout as sleep } from 'node:timers/promises';
import type { ApiResponse, RequestOptions, apiClient } from '../api.js';
import { ContractViolation } from '../contract.js';

export type Api = ReturnType<typeof apiClient>;

/** Sends of a request that gets no answer (Lambda timeouts happen on a loaded machine). */
const MAX_SENDS = 3;

export async function callSafely(
  api: Api,
  method: string,
  path: string,
  opts: RequestOptions = {},
): Promise<ApiResponse> {
  try {
    return await api.call(method, path, opts);
  } catch (err) {
    // A contract violation is an answer, and a wrong one: report it, never resend it away.
    if (err instanceof ContractViolation) throw err;
    return { status: 0, headers: new Headers(), text: String(err), json: undefined };
  }
}

/**
 * The machine gave no answer: a network error, a 502–504 (storage or gateway away), or
 * serverless-offline's 200 with {errorMessage, errorType} for a Lambda timeout. The request may
 * or may not have taken effect. A 500 is not in this list: it is the product failing, reported.
 */
export const isNoAnswer = (res: ApiResponse) =>
  res.status === 0 || res.status > 500 || typeof res.json?.errorType === 'string';

/**
 * Sends an idempotent request again while it gets no answer (after 1 s, then 2 s: long enough
 * for a Lambda to warm up); the next answer tells as much as the lost one would have.
 */
export async function sendUntilAnswered(
  request: () => Promise<ApiResponse>,
  onNoAnswer: (res: ApiResponse) => void = () => {},
) {
  let res = await request();
  let resent = false;
  for (let send = 2; send <= MAX_SENDS && isNoAnswer(res); send++) {
    onNoAnswer(res);
    await sleep(1_000 * (send - 1));
    res = await request();
    resent = true;
  }
  return { res, resent };
}

export async function read(api: Api, path: string, opts: RequestOptions = {}): Promise<ApiResponse> {
  return (await sendUntilAnswered(() => callSafely(api, 'GET', path, opts))).res;
}

export const isSuccess = (res: ApiResponse) => res.status >= 200 && res.status < 300;

export const errorCode = (res: ApiResponse): string | undefined => res.json?.error?.code;

/** "404 post_not_found", or just the status when the body is not an API error. */
export const describeAnswer = (res: ApiResponse) => `${res.status}${errorCode(res) ? ` ${errorCode(res)}` : ''}`;
