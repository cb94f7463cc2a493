// shared/hbase/transport.ts — the one request function of the HBase REST client: keep-alive agent, timeouts, retries, counting.
import { setTimeout as sleep } from 'node:timers/promises';
import type { Dispatcher } from 'undici';
import { HBaseError } from './hbase-error.js';
import type { Agent } from './undici-parts.js';
import { PROTOBUF_MEDIA_TYPE } from './protobuf.js';
import type { HBaseClientOptions, HBaseRequestEvent } from './types.js';

export type HttpMethod = 'GET' | 'PUT' | 'POST' | 'DELETE';

export interface RestRequest {
  method: HttpMethod;
  /** Path below the base URL, starting with `/`, query included. */
  path: string;
  /** Serialised as JSON; `undefined` sends no body and no Content-Type. */
  json?: unknown;
  /** A protobuf body (./protobuf.ts), sent as application/x-protobuf; instead of `json`. */
  protobuf?: Uint8Array;
  /**
   * Ask for a protobuf answer (Accept: application/x-protobuf): a 200's body then arrives as
   * `bytes`, and `body` stays empty. Errors still come back as text.
   */
  accept?: 'protobuf';
  /**
   * Safe to send twice: the request is retried on network errors and 503. Never set this for
   * increment, append, check-and-mutate or scanner page reads.
   */
  idempotent: boolean;
  /** Nothing waits on its answer (clean-up handed off): reported as such to onRequest. */
  background?: boolean;
}

export interface RestResponse {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: string;
  /** The raw body of a 200 to a request that asked for protobuf. */
  bytes?: Uint8Array;
  /** The full path that was sent (base prefix included), for errors. */
  sentPath: string;
  method: HttpMethod;
}

const DEFAULT_TIMEOUT_MS = 10_000;
const DEFAULT_RETRIES = 2;
const BACKOFF_BASE_MS = 100;
const BACKOFF_CAP_MS = 2_000;
/** Less time than this left before the deadline: not worth starting (or retrying) a request. */
export const MIN_ATTEMPT_MS = 100;
// Jetty closes idle connections after ~30 s; dropping ours well before that avoids sending a
// request down a socket the server is closing (which a non-idempotent call could not retry).
const KEEP_ALIVE_MS = 10_000;

/** Why a request was refused at the socket: its deadline passed between the call and the write. */
class PastDeadlineAtSend extends Error {
  constructor(readonly deadline: number) {
    super(`the deadline passed ${Date.now() - deadline} ms before the request could be written`);
    this.name = 'PastDeadlineAtSend';
  }
}

/**
 * The last check before a request leaves: undici calls onRequestStart synchronously just before
 * it writes the request to the socket, so a request queued before its deadline (waiting for a
 * connection, or in an invocation that Lambda froze and thawed later) is aborted unsent once the
 * deadline has passed, instead of reaching the gateway late.
 */
class DeadlineGuard implements Dispatcher.DispatchHandler {
  constructor(
    private readonly inner: Dispatcher.DispatchHandler,
    private readonly deadline: number,
  ) {}
  onRequestStart(controller: Dispatcher.DispatchController, context: unknown): void {
    if (Date.now() >= this.deadline) {
      controller.abort(new PastDeadlineAtSend(this.deadline));
      return;
    }
    this.inner.onRequestStart?.(controller, context);
  }
  onRequestUpgrade(...args: Parameters<NonNullable<Dispatcher.DispatchHandler['onRequestUpgrade']>>): void {
    this.inner.onRequestUpgrade?.(...args);
  }
  onResponseStart(...args: Parameters<NonNullable<Dispatcher.DispatchHandler['onResponseStart']>>): void {
    this.inner.onResponseStart?.(...args);
  }
  onResponseData(...args: Parameters<NonNullable<Dispatcher.DispatchHandler['onResponseData']>>): void {
    this.inner.onResponseData?.(...args);
  }
  onResponseEnd(...args: Parameters<NonNullable<Dispatcher.DispatchHandler['onResponseEnd']>>): void {
    this.inner.onResponseEnd?.(...args);
  }
  onResponseError(...args: Parameters<NonNullable<Dispatcher.DispatchHandler['onResponseError']>>): void {
    this.inner.onResponseError?.(...args);
  }
}

/** Options of one request: undici's, plus the deadline the guard checks at the socket. */
type GuardedRequest = Dispatcher.RequestOptions & { deadline?: number };

const guardDeadlines: Dispatcher.DispatcherComposeInterceptor = (dispatch) => (opts, handler) => {
  const deadline = (opts as GuardedRequest).deadline;
  return dispatch(opts, deadline === undefined ? handler : new DeadlineGuard(handler, deadline));
};

/** The keep-alive agent, the same agent with the deadline guard, and undici's request on it. */
interface Connection {
  agent: Agent;
  dispatcher: Dispatcher;
  request(dispatcher: Dispatcher, options: Dispatcher.RequestOptions): Promise<Dispatcher.ResponseData>;
}

export class RestTransport {
  /**
   * Built on the first request: undici is loaded then, not when a function's bundle is required,
   * so a cold start that has not yet sent anything pays nothing for it.
   */
  private connection: Promise<Connection> | undefined;
  private readonly origin: string;
  private readonly basePath: string;
  private readonly timeoutMs: number;
  private readonly retries: number;
  private readonly extraHeaders: Record<string, string>;
  private readonly onRequest: ((e: HBaseRequestEvent) => void) | undefined;
  private readonly authorization: (() => Promise<string | undefined>) | undefined;
  private readonly deadline: () => number | undefined;
  private sent = 0;

  constructor(opts: HBaseClientOptions) {
    const url = new URL(opts.baseUrl);
    if (url.protocol !== 'http:' && url.protocol !== 'https:') {
      throw new TypeError(`HBase REST baseUrl must be http(s): ${opts.baseUrl}`);
    }
    if (url.search || url.hash) throw new TypeError(`HBase REST baseUrl must not carry a query or fragment`);
    this.origin = url.origin;
    this.basePath = url.pathname.replace(/\/+$/, '');
    this.timeoutMs = opts.timeoutMs ?? DEFAULT_TIMEOUT_MS;
    this.retries = opts.retries ?? DEFAULT_RETRIES;
    // Lower-cased so a caller's `Accept` cannot sit next to ours as a second header.
    this.extraHeaders = Object.fromEntries(Object.entries(opts.headers ?? {}).map(([k, v]) => [k.toLowerCase(), v]));
    this.onRequest = opts.onRequest;
    this.authorization = opts.authorization;
    this.deadline = opts.deadline ?? (() => undefined);
  }

  private connect(): Promise<Connection> {
    this.connection ??= import('./undici-parts.js').then(({ Agent, request }) => {
      // TLS verification stays at undici's default (on); nothing here may turn it off.
      const agent = new Agent({
        keepAliveTimeout: KEEP_ALIVE_MS,
        keepAliveMaxTimeout: KEEP_ALIVE_MS,
        headersTimeout: this.timeoutMs,
        bodyTimeout: this.timeoutMs,
        connect: { timeout: this.timeoutMs },
      });
      return { agent, dispatcher: agent.compose(guardDeadlines), request };
    });
    return this.connection;
  }

  get requestCount(): number {
    return this.sent;
  }

  /**
   * Sends the request (with retries when idempotent) and returns whatever status came back.
   * With a deadline, each attempt's timeout is cut to the time left, and a retry happens only
   * if its backoff still leaves MIN_ATTEMPT_MS: a caller never waits past its own deadline.
   */
  async send(req: RestRequest): Promise<RestResponse> {
    const attempts = req.idempotent ? this.retries + 1 : 1;
    for (let attempt = 1; ; attempt++) {
      const pause = backoffMs(attempt);
      const canRetry = () => attempt < attempts && this.timeLeft() - pause >= MIN_ATTEMPT_MS;
      try {
        const res = await this.sendOnce(req);
        if (res.status === 503 && canRetry()) {
          await sleep(pause);
          continue;
        }
        return res;
      } catch (err) {
        if (err instanceof HBaseError && err.status === 0 && canRetry()) {
          await sleep(pause);
          continue;
        }
        throw err;
      }
    }
  }

  /** Millis until the deadline (Infinity without one). */
  private timeLeft(): number {
    const deadline = this.deadline();
    return deadline === undefined ? Number.POSITIVE_INFINITY : deadline - Date.now();
  }

  /** Sends and throws HBaseError unless the status is one of `ok`. */
  async expect(req: RestRequest, ok: readonly number[]): Promise<RestResponse> {
    const res = await this.send(req);
    if (!ok.includes(res.status)) throw errorFrom(res);
    return res;
  }

  async close(): Promise<void> {
    if (this.connection) await (await this.connection).agent.close();
  }

  private async sendOnce(req: RestRequest): Promise<RestResponse> {
    const sentPath = this.basePath + req.path;
    const left = this.timeLeft();
    if (left < MIN_ATTEMPT_MS) {
      // Nothing sent: the caller's invocation ends before an answer could arrive.
      throw new HBaseError({
        status: 0,
        deadline: true,
        body: '',
        method: req.method,
        path: sentPath,
        message: `HBase REST ${req.method} ${sentPath.slice(0, 200)} not sent: ${Math.max(0, Math.round(left))} ms left before the deadline`,
      });
    }
    const headers: Record<string, string> = {
      ...this.extraHeaders,
      accept: req.accept === 'protobuf' ? PROTOBUF_MEDIA_TYPE : 'application/json',
    };
    const authorization = await this.authorization?.();
    if (authorization) headers.authorization = authorization;
    let body: string | Uint8Array | undefined;
    if (req.protobuf !== undefined) {
      body = req.protobuf;
      headers['content-type'] = PROTOBUF_MEDIA_TYPE;
    } else if (req.json !== undefined) {
      body = JSON.stringify(req.json);
      headers['content-type'] = 'application/json';
    }
    const started = performance.now();
    const deadline = this.deadline();
    this.sent++;
    let status = 0;
    try {
      // An idempotent call waits at most timeoutMs, then retries. A call that cannot be retried
      // waits until the deadline: giving up sooner would only turn a slow answer (a gateway busy
      // or paused for a few seconds) into an outcome the caller cannot know.
      const attemptMs = req.idempotent || !Number.isFinite(left) ? Math.min(this.timeoutMs, left) : left;
      const options: GuardedRequest = {
        origin: this.origin,
        path: sentPath,
        method: req.method,
        headers,
        body,
        headersTimeout: attemptMs,
        bodyTimeout: attemptMs,
        signal: AbortSignal.timeout(attemptMs),
        ...(deadline === undefined ? {} : { deadline }),
      };
      const { dispatcher, request } = await this.connect();
      const res = await request(dispatcher, options);
      status = res.statusCode;
      if (req.accept === 'protobuf' && status === 200) {
        const bytes = new Uint8Array(await res.body.arrayBuffer());
        return { status, headers: res.headers, body: '', bytes, sentPath, method: req.method };
      }
      const text = await readBody(res.statusCode, res.body);
      return { status, headers: res.headers, body: text, sentPath, method: req.method };
    } catch (err) {
      status = 0;
      if (err instanceof PastDeadlineAtSend) {
        throw new HBaseError({
          status: 0,
          deadline: true,
          body: '',
          method: req.method,
          path: sentPath,
          message: `HBase REST ${req.method} ${sentPath.slice(0, 200)} not sent: ${err.message}`,
          cause: err,
        });
      }
      // No time left now: the deadline cut this attempt short (its timeout was the time left),
      // or would refuse a retry. Either way the invocation ran out of time.
      const outOfTime = this.timeLeft() < MIN_ATTEMPT_MS;
      throw new HBaseError({
        status: 0,
        deadline: outOfTime,
        body: '',
        method: req.method,
        path: sentPath,
        message: `HBase REST ${req.method} ${sentPath.slice(0, 200)} failed without a response${outOfTime ? ' by the deadline' : ''}: ${describe(err)}`,
        cause: err,
      });
    } finally {
      try {
        this.onRequest?.({
          method: req.method,
          path: sentPath,
          status,
          durationMs: performance.now() - started,
          ...(req.background ? { background: true } : {}),
        });
      } catch {
        // An observer (metrics, logging) must never turn a good HBase answer into a failure.
      }
    }
  }
}

/**
 * Jetty answers a failed check-and-mutate with `304` plus `Content-Length: 20` and, as HTTP
 * demands, no body. undici counts 0 of 20 bytes and fails the body with a length mismatch after
 * the status has arrived; for a bodiless status that mismatch carries no information.
 */
async function readBody(status: number, body: { text(): Promise<string> }): Promise<string> {
  try {
    return await body.text();
  } catch (err) {
    const code = (err as { code?: unknown }).code;
    if ((status === 304 || status === 204) && code === 'UND_ERR_RES_CONTENT_LENGTH_MISMATCH') return '';
    throw err;
  }
}

export function errorFrom(res: RestResponse, message?: string): HBaseError {
  return new HBaseError({
    status: res.status,
    body: res.body,
    method: res.method,
    path: res.sentPath,
    ...(message === undefined ? {} : { message }),
  });
}

/** Exponential backoff with equal jitter: attempt 1 waits 100–200 ms, attempt 2 200–400 ms, … capped at 2 s. */
export function backoffMs(attempt: number, random: () => number = Math.random): number {
  const ceiling = Math.min(BACKOFF_CAP_MS, BACKOFF_BASE_MS * 2 ** attempt);
  return Math.round(ceiling / 2 + (random() * ceiling) / 2);
}

function describe(err: unknown): string {
  if (err instanceof Error) {
    const code = (err as { code?: unknown }).code;
    return typeof code === 'string' ? `${err.name} ${code}: ${err.message}` : `${err.name}: ${err.message}`;
  }
  return String(err);
}
