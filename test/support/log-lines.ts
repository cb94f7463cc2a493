// test/support/log-lines.ts — the JSON lines the handlers write (Powertools logs and EMF
// metrics), as the tests that capture them read them.

/** The directive of an EMF line: its namespace, its dimension sets and its metrics. */
export interface EmfDirective {
  Namespace: string;
  Dimensions: string[][];
  Metrics: { Name: string; Unit: string }[];
}

/** One line: a log line (`message`), or an EMF line (`_aws`, beside the metrics' values); any other field as written. */
export type LogLine = {
  message?: string;
  _aws?: { CloudWatchMetrics: EmfDirective[] };
  [field: string]: unknown;
};
