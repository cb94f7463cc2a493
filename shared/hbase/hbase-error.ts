// shared/hbase/hbase-error.ts — the one error type of the HBase REST client: every failed call carries status, body, method and path.

// The server appends full Java stack traces to many error bodies; keep enough to diagnose.
const MAX_BODY_CHARS = 2000;
const MAX_PATH_IN_MESSAGE = 200;

export interface HBaseErrorInit {
  status: number;
  body: string;
  method: string;
  path: string;
  message?: string;
  cause?: unknown;
  /** The invocation's deadline ended the call: it was never sent, or its answer had not come by then. */
  deadline?: boolean;
}

export class HBaseError extends Error {
  /** HTTP status, or 0 when no response arrived (network error, timeout). */
  readonly status: number;
  /** Response body, truncated. */
  readonly body: string;
  readonly method: string;
  readonly path: string;
  /**
   * True when the invocation's deadline ended the call (shared/runtime/deadline.ts): refused
   * before sending because the deadline had passed or was too close (nothing reached HBase), or
   * failed without an answer with no time left — an attempt the deadline cut short, which HBase
   * may still have applied. Either way the invocation ran out of time.
   */
  readonly deadline: boolean;

  constructor(init: HBaseErrorInit) {
    const body = init.body.length > MAX_BODY_CHARS ? `${init.body.slice(0, MAX_BODY_CHARS)}…` : init.body;
    const shortPath =
      init.path.length > MAX_PATH_IN_MESSAGE ? `${init.path.slice(0, MAX_PATH_IN_MESSAGE)}…` : init.path;
    const firstLine = body.split(/\r?\n/, 1)[0]?.trim() ?? '';
    super(
      init.message ?? `HBase REST ${init.method} ${shortPath} -> ${init.status}${firstLine ? `: ${firstLine}` : ''}`,
      {
        cause: init.cause,
      },
    );
    this.name = 'HBaseError';
    this.status = init.status;
    this.body = body;
    this.method = init.method;
    this.path = init.path;
    this.deadline = init.deadline ?? false;
  }
}
