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
  /** The call was never sent: its invocation's deadline had passed (or was too close). */
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
   * True when the call was refused before sending because the invocation's deadline had passed:
   * the invocation ran out of time (shared/runtime/deadline.ts). Nothing of this call reached HBase.
   */
  readonly deadline: boolean;

  constructor(init: HBaseErrorInit) {
    const body = init.body.length > MAX_BODY_CHARS ? `${init.body.slice(0, MAX_BODY_CHARS)}…` : init.body;
    const shortPath =
      init.path.length > MAX_PATH_IN_MESSAGE ? `${init.path.slice(0, MAX_PATH_IN_MESSAGE)}…` : init.path;
    const firstLine = body.split(/\r?\n/, 1)[0]?.trim() ?? '';
    super(init.message ?? `HBase REST ${init.method} ${shortPath} -> ${init.status}${firstLine ? `: ${firstLine}` : ''}`, {
      cause: init.cause,
    });
    this.name = 'HBaseError';
    this.status = init.status;
    this.body = body;
    this.method = init.method;
    this.path = init.path;
    this.deadline = init.deadline ?? false;
  }
}
