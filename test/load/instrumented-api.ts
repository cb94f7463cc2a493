// test/load/instrumented-api.ts — the load run's view of the HTTP API: the e2e client
// (test/support/api.ts, every answer checked against the OpenAPI document) wrapped so that each
// request is timed under its route class and the run's phase, and each failure counted. A
// failure is an answer the machine did not give: no answer at all (connection error, 30 s
// timeout), a 5xx, serverless-offline's own 200 with {errorType, errorMessage} (a Lambda
// timeout or a crashed handler: the emulator's failure dressed as a success), or a 429 (the
// run keeps under the quotas, so a 429 is a bug of the run or of the limits).
import { performance } from 'node:perf_hooks';
import { apiClient, type ApiResponse, type RequestOptions } from '../support/api.js';
import type { Api } from '../support/model/http.js';
import { AnswerTally } from '../support/timeouts.js';

export type Phase = 'setup' | 'run' | 'burst' | 'compare';

/** The classes p50/p99 are reported for: one per kind of work, reads apart by what they read. */
export type RouteClass =
  | 'read timeline'
  | 'read user posts'
  | 'read post'
  | 'read relations'
  | 'read reactions'
  | 'read profile'
  | 'read other'
  | 'publish'
  | 'delete'
  | 'like'
  | 'comment'
  | 'follow'
  | 'account';

export function routeClass(method: string, path: string): RouteClass {
  const p = path.split('?')[0]!;
  if (method === 'GET') {
    if (/^\/users\/[^/]+\/timeline/.test(p)) return 'read timeline';
    if (/^\/users\/[^/]+\/posts$/.test(p)) return 'read user posts';
    if (/^\/posts\/[^/]+$/.test(p)) return 'read post';
    if (/^\/users\/[^/]+\/(followers|following)$/.test(p)) return 'read relations';
    if (/^\/posts\/[^/]+\/(likes|comments)$/.test(p)) return 'read reactions';
    if (/^\/users\/[^/]+$/.test(p)) return 'read profile';
    return 'read other';
  }
  if (p === '/posts') return 'publish';
  if (/^\/users\/[^/]+\/likes\//.test(p)) return 'like';
  if (/\/comments/.test(p)) return 'comment';
  if (/^\/users\/[^/]+\/following\//.test(p)) return 'follow';
  if (method === 'DELETE' && /^\/posts\/[^/]+$/.test(p)) return 'delete';
  return 'account';
}

export interface Failure {
  phase: Phase;
  at: number;
  what: string;
}

/** Failures quoted in full; the rest are counted. */
const FAILURES_KEPT = 40;

export class Recorder {
  phase: Phase = 'setup';
  /** Per route class; the bursts' requests apart, under `burst <class>`. */
  readonly latencies = new Map<RouteClass | `burst ${RouteClass}`, number[]>();
  readonly requests: Record<Phase, number> = { setup: 0, run: 0, burst: 0, compare: 0 };
  readonly failures: Record<Phase, number> = { setup: 0, run: 0, burst: 0, compare: 0 };
  readonly quoted: Failure[] = [];
  /** The workload's answers (run and bursts) by kind: its 5xx and its timeouts. */
  readonly answers = new AnswerTally();
  inFlight = 0;
  maxInFlight = 0;
  /**
   * The chaos run's rule: a 503 with Retry-After is the API saying storage is away for now (a
   * REST gateway restart), not a failure; such answers are counted here, by phase and time.
   */
  retryLaterIsAnswer = false;
  readonly retryLater: Record<Phase, number> = { setup: 0, run: 0, burst: 0, compare: 0 };
  readonly retryLaterAt: number[] = [];

  /** `thrown`: what the request threw instead of answering. */
  record(phase: Phase, method: string, path: string, ms: number, res: ApiResponse | undefined, thrown?: unknown): void {
    this.requests[phase]++;
    if (phase === 'run' || phase === 'burst') {
      const cls = phase === 'burst' ? (`burst ${routeClass(method, path)}` as const) : routeClass(method, path);
      const list = this.latencies.get(cls) ?? [];
      list.push(ms);
      this.latencies.set(cls, list);
      if (res) this.answers.add(res);
      else this.answers.addThrown(thrown);
    }
    if (this.retryLaterIsAnswer && res?.status === 503 && res.headers.get('retry-after')) {
      this.retryLater[phase]++;
      this.retryLaterAt.push(Date.now());
      return;
    }
    const problem =
      thrown !== undefined ? (thrown instanceof Error ? thrown.message : String(thrown)) : res && failureOf(res);
    if (!problem) return;
    this.failures[phase]++;
    if (this.quoted.length < FAILURES_KEPT)
      this.quoted.push({ phase, at: Date.now(), what: `${method} ${path}: ${problem}`.slice(0, 300) });
  }

  get totalFailures(): number {
    return Object.values(this.failures).reduce((a, b) => a + b, 0);
  }
}

/** Why an answer is a failure of the machine, or undefined for an answer of the product. */
export function failureOf(res: ApiResponse): string | undefined {
  if (res.status >= 500) return `${res.status} ${res.text.slice(0, 160)}`;
  if (res.status === 429) return `429 ${res.text.slice(0, 120)}`;
  if (typeof res.json?.errorType === 'string')
    return `${res.status} with serverless-offline's ${res.json.errorType}: ${String(res.json.errorMessage).slice(0, 120)}`;
  return undefined;
}

/**
 * An Api (the model driver's and compare's client) whose every request the recorder sees, under
 * the recorder's current phase, or always under `phase` (the bursts, which run beside the run).
 */
export function instrumentedApi(baseUrl: string, recorder: Recorder, phase?: Phase): Api {
  const client = apiClient(baseUrl);
  const call = async (method: string, path: string, opts: RequestOptions = {}): Promise<ApiResponse> => {
    const t0 = performance.now();
    const at = phase ?? recorder.phase;
    recorder.inFlight++;
    recorder.maxInFlight = Math.max(recorder.maxInFlight, recorder.inFlight);
    try {
      const res = await client.call(method, path, opts);
      recorder.record(at, method, path, performance.now() - t0, res);
      return res;
    } catch (err) {
      recorder.record(at, method, path, performance.now() - t0, undefined, err);
      throw err;
    } finally {
      recorder.inFlight--;
    }
  };
  return { ...client, call };
}
