// test/support/api.ts — a tiny HTTP client for end-to-end tests, plus account factories. Every
// response it receives is checked against the OpenAPI document (contract.ts) before a test sees it.
import { randomBytes } from 'node:crypto';
import { assertContract } from './contract.js';

export interface ApiResponse {
  status: number;
  headers: Headers;
  text: string;
  // biome-ignore lint/suspicious/noExplicitAny: test assertions inspect arbitrary bodies
  json: any;
}

export interface RequestOptions {
  body?: unknown;
  /** Sent verbatim (for malformed bodies); wins over `body`. */
  rawBody?: string;
  token?: string;
  headers?: Record<string, string>;
  /**
   * Why this response is not ours to check against docs/openapi.json — only for answers the
   * gateway gives before any handler runs (they cannot carry our shapes).
   */
  notOurResponse?: string;
}

export class LambdaTimeout extends Error {
  constructor(request: string) {
    super(`${request}: the Lambda timed out under serverless-offline`);
  }
}

export function apiClient(baseUrl: string) {
  async function call(method: string, path: string, opts: RequestOptions = {}): Promise<ApiResponse> {
    const headers: Record<string, string> = { ...opts.headers };
    let body: string | undefined;
    if (opts.rawBody !== undefined) body = opts.rawBody;
    else if (opts.body !== undefined) {
      body = JSON.stringify(opts.body);
      headers['content-type'] ??= 'application/json';
    }
    if (opts.token) headers.authorization = `Bearer ${opts.token}`;
    const res = await fetch(`${baseUrl}${path}`, { method, headers, body, signal: AbortSignal.timeout(30_000) });
    const text = await res.text();
    let json: unknown;
    try {
      json = text ? JSON.parse(text) : undefined;
    } catch {
      json = undefined;
    }
    const response = { status: res.status, headers: res.headers, text, json };
    // serverless-offline answers a Lambda timeout (a loaded 2-core machine) with 200 and this
    // body: name it for what it is rather than as a contract violation.
    if ((json as { errorType?: unknown } | undefined)?.errorType === 'LambdaTimeoutError')
      throw new LambdaTimeout(`${method} ${path}`);
    if (!opts.notOurResponse) assertContract(method, path, response);
    return response;
  }

  /**
   * A setup step that may be retried: a request that ran out of time (our 503 `timeout`, or the
   * emulator's own Lambda timeout) gets one more try.
   */
  async function retried(method: string, path: string, opts: RequestOptions): Promise<ApiResponse> {
    try {
      const res = await call(method, path, opts);
      const outOfTime =
        res.status === 503 && (res.json as { error?: { code?: unknown } } | undefined)?.error?.code === 'timeout';
      return outOfTime ? await call(method, path, opts) : res;
    } catch (err) {
      if (!(err instanceof LambdaTimeout)) throw err;
      return call(method, path, opts);
    }
  }

  /** Registers a fresh user and logs in; handles are unique per call. */
  async function newUser(
    prefix = 'u',
  ): Promise<{ handle: string; password: string; token: string; refreshToken: string }> {
    const handle = `${prefix}_${randomBytes(5).toString('hex')}`.slice(0, 30);
    const password = `pw-${randomBytes(8).toString('hex')}`;
    const reg = await retried('POST', '/users', { body: { handle, displayName: `User ${handle}`, password } });
    // 409 only when a timed-out first try did create the account: the handle is random.
    if (reg.status !== 201 && reg.status !== 409) throw new Error(`register ${handle}: ${reg.status} ${reg.text}`);
    const login = await retried('POST', '/sessions', { body: { handle, password } });
    if (login.status !== 200) throw new Error(`login ${handle}: ${login.status} ${login.text}`);
    return { handle, password, token: login.json.token, refreshToken: login.json.refreshToken };
  }

  return { call, newUser };
}

/** The JSON error shape every 4xx/5xx must have. */
export function isErrorShape(body: unknown): boolean {
  if (typeof body !== 'object' || body === null) return false;
  const err = (body as { error?: unknown }).error;
  return (
    typeof err === 'object' &&
    err !== null &&
    typeof (err as { code?: unknown }).code === 'string' &&
    typeof (err as { message?: unknown }).message === 'string'
  );
}
