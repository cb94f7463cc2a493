// test/support/timeouts.ts — how many invocations ran out of time, as a run under pressure counts
// them (docs/testing.md, "Pressure"): from the answers a client got here, and from the API's log
// (serverless-offline's output with the local SQS poller's lines, as offline-setup.ts and
// `npm start` write it) by infra/local/api-log.ts.
import { RAN_OUT_OF_TIME, type LogTimeouts } from '../../infra/local/api-log.js';
import { LambdaTimeout } from './api.js';

export { countLogTimeouts, type LogTimeouts } from '../../infra/local/api-log.js';

/** Why an answer is a timeout: the API's own 503 `timeout`, or serverless-offline's Lambda timeout (infra/plugins/offline-errors.cjs). */
export function answerTimeout(res: {
  status: number;
  json?: { error?: { code?: unknown } } | undefined;
}): 'api-503' | 'emulator-504' | undefined {
  const code = res.json?.error?.code;
  if (res.status === 503 && code === 'timeout') return 'api-503';
  if (res.status === 504 && code === 'EMULATOR_TIMEOUT') return 'emulator-504';
  return undefined;
}

/** Answers counted by kind, for a run's summary. */
export class AnswerTally {
  answers = 0;
  status5xx = new Map<number, number>();
  api503 = 0;
  emulator504 = 0;
  /** Requests that got no HTTP answer at all (connection error, the client's own timeout). */
  noAnswer = 0;

  /**
   * A request that threw: serverless-offline's Lambda timeout (a 504 on the wire, thrown by the
   * client as LambdaTimeout), or no answer at all.
   */
  addThrown(err: unknown): void {
    if (err instanceof LambdaTimeout) {
      this.answers++;
      this.status5xx.set(504, (this.status5xx.get(504) ?? 0) + 1);
      this.emulator504++;
    } else this.noAnswer++;
  }

  add(res: { status: number; json?: { error?: { code?: unknown } } | undefined }): void {
    this.answers++;
    if (res.status >= 500) this.status5xx.set(res.status, (this.status5xx.get(res.status) ?? 0) + 1);
    const timeout = answerTimeout(res);
    if (timeout === 'api-503') this.api503++;
    if (timeout === 'emulator-504') this.emulator504++;
  }

  get total5xx(): number {
    return [...this.status5xx.values()].reduce((a, b) => a + b, 0);
  }

  /** "120 answers, 5xx: 3 (500 ×1, 504 ×2); timeouts among them: 503 timeout 0, serverless-offline 504 2; 0 request(s) without an answer". */
  describe(): string {
    const by = [...this.status5xx].sort(([a], [b]) => a - b).map(([s, n]) => `${s} ×${n}`);
    return (
      `${this.answers} answers, 5xx: ${this.total5xx}${by.length ? ` (${by.join(', ')})` : ''}; timeouts among them: 503 timeout ${this.api503}, serverless-offline 504 ${this.emulator504}` +
      `; ${this.noAnswer} request(s) without an answer`
    );
  }
}

/**
 * One line for a run's summary, each witness apart: they overlap (an invocation that logs the
 * line may also answer 503), so they are not added up.
 */
export function describeTimeouts(
  answers: { api503: number; emulator504: number },
  log: LogTimeouts | undefined,
): string {
  const logPart = log ? `${log.workerTimeouts} worker` : 'worker ones not counted (no API log)';
  const lines = log
    ? `'${RAN_OUT_OF_TIME}' log lines ${log.ranOutOfTime}`
    : `'${RAN_OUT_OF_TIME}' log lines not counted (no API log)`;
  return (
    `ran out of time: 503 timeout answers ${answers.api503}, serverless-offline Lambda timeouts ${answers.emulator504 + (log?.workerTimeouts ?? 0)} ` +
    `(${answers.emulator504} HTTP 504s + ${logPart}), ${lines}`
  );
}
