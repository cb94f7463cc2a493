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
 * Beyond MAX_SENDS, a request with no answer is sent again until this long after its first send
 * (0: never). The chaos load run raises it past a REST gateway restart, as a client honouring
 * Retry-After would keep trying.
 */
let resendForMs = 0;
export function resendFor(ms: number): void {
  resendForMs = ms;
}

/**
 * Sends an idempotent request again while it gets no answer (after 1 s, then 2 s: long enough
 * for a Lambda to warm up; beyond that, while resendFor allows, after its Retry-After or 2 s);
 * the next answer tells as much as the lost one would have.
 */
export async function sendUntilAnswered(
  request: () => Promise<ApiResponse>,
  onNoAnswer: (res: ApiResponse) => void = () => {},
) {
  const first = Date.now();
  let res = await request();
  let resent = false;
  for (let send = 2; isNoAnswer(res) && (send <= MAX_SENDS || Date.now() - first < resendForMs); send++) {
    onNoAnswer(res);
    await sleep(send <= MAX_SENDS ? 1_000 * (send - 1) : retryAfterMs(res));
    res = await request();
    resent = true;
  }
  return { res, resent };
}

/** The wait an answer asks for (Retry-After, at most 10 s), else 2 s. */
function retryAfterMs(res: ApiResponse): number {
  const seconds = Number(res.headers.get('retry-after'));
  return Number.isFinite(seconds) && seconds > 0 ? Math.min(seconds, 10) * 1000 : 2_000;
}

export async function read(api: Api, path: string, opts: RequestOptions = {}): Promise<ApiResponse> {
  return (await sendUntilAnswered(() => callSafely(api, 'GET', path, opts))).res;
}

export const isSuccess = (res: ApiResponse) => res.status >= 200 && res.status < 300;

export const errorCode = (res: ApiResponse): string | undefined => res.json?.error?.code;

/** "404 post_not_found", or just the status when the body is not an API error. */
export const describeAnswer = (res: ApiResponse) => `${res.status}${errorCode(res) ? ` ${errorCode(res)}` : ''}`;
