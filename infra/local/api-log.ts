// infra/local/api-log.ts — the local API's log: where `npm start` keeps it (serverless-offline's
// output and the SQS pollers' lines, also printed to the terminal), and how many invocations ran
// out of time according to it. `npm run load` reads the stretch of it its run covered.

/** The message of the WARN line an invocation logs when it runs out of time. */
export const RAN_OUT_OF_TIME = 'Invocation ran out of time';

/** The log of the API `npm start` serves on `apiPort`, under the stack's state dir. */
export function apiLogFile(stackDir: string, apiPort: string): string {
  return `${stackDir}/logs/api-${apiPort}.log`;
}

export interface LogTimeouts {
  /** Structured lines whose message is exactly RAN_OUT_OF_TIME. */
  ranOutOfTime: number;
  /** Worker invocations the poller saw end in serverless-offline's Lambda timeout. */
  workerTimeouts: number;
}

/**
 * What one log line says ran out of time. A worker's Lambda timeout is the poller's line
 * `worker <name> failed (…): {…"[504] - Lambda timeout."…}` (sqs-poller.ts); serverless-offline's
 * own "Unhandled Lambda Error" line for the same invocation is not counted again.
 */
export function timeoutIn(line: string): keyof LogTimeouts | undefined {
  if (line.includes(RAN_OUT_OF_TIME) && messageOf(line) === RAN_OUT_OF_TIME) return 'ranOutOfTime';
  if (/\bworker \S+ failed \(/.test(line) && line.includes('[504] - Lambda timeout')) return 'workerTimeouts';
  return undefined;
}

export function countLogTimeouts(text: string): LogTimeouts {
  const counts: LogTimeouts = { ranOutOfTime: 0, workerTimeouts: 0 };
  for (const line of text.split('\n')) {
    const kind = timeoutIn(line);
    if (kind) counts[kind]++;
  }
  return counts;
}

/** The `message` of a JSON log line (a prefix such as `[sqs-poller] ` allowed), or undefined. */
function messageOf(line: string): string | undefined {
  const start = line.indexOf('{');
  if (start < 0) return undefined;
  try {
    const item = JSON.parse(line.slice(start)) as { message?: unknown };
    return typeof item.message === 'string' ? item.message : undefined;
  } catch {
    return undefined;
  }
}

/** Splits a stream's chunks into lines (a line may span chunks) and hands each complete one on. */
export function lineSplitter(onLine: (line: string) => void): (chunk: Buffer | string) => void {
  let rest = '';
  return (chunk) => {
    const parts = (rest + String(chunk)).split('\n');
    rest = parts.pop() ?? '';
    if (rest.length > 1_000_000) rest = ''; // no newline for a megabyte: not a log line worth keeping
    for (const line of parts) onLine(line);
  };
}
