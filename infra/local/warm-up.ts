// infra/local/warm-up.ts — serverless-offline loads each function's bundle on the function's
// first call, which takes seconds on a small machine (a first profile view took 6.6 s). `npm
// start` and the end-to-end harness call every function once before anyone else does.
import { routes } from '../../shared/http/routes.js';

/**
 * Every HTTP function, called once with its path parameters filled with a value that fails
 * validation: a 4xx, no HBase work. Retried while the answer is a Lambda timeout (the load alone
 * can pass the 10 s timeout on a busy 2-core machine). Two at a time: the loads compete for CPU.
 */
export async function warmHttpFunctions(apiUrl: string): Promise<{ functions: number; ms: number }> {
  const started = Date.now();
  const pending = Object.values(routes).map((r) => ({ method: r.method, path: r.path.replace(/\{[^}]+\}/g, '~') }));
  const worker = async (): Promise<void> => {
    for (let next = pending.shift(); next; next = pending.shift()) {
      for (let attempt = 1; ; attempt++) {
        const res = await fetch(`${apiUrl}${next.path}`, { method: next.method, signal: AbortSignal.timeout(60_000) });
        const text = await res.text();
        if (!text.includes('LambdaTimeoutError')) break;
        if (attempt === 3)
          throw new Error(`serverless-offline: ${next.method} ${next.path} timed out 3 times while warming up`);
      }
    }
  };
  await Promise.all([worker(), worker()]);
  return { functions: Object.keys(routes).length, ms: Date.now() - started };
}

/** Queue workers, invoked once with an empty batch (nothing to do, nothing written). */
export async function warmWorkers(lambdaUrl: string, functionNames: string[]): Promise<void> {
  for (const name of functionNames) await invokeOnce(lambdaUrl, name, { Records: [] });
}

/**
 * The WebSocket API's three functions (infra/functions/live.yml), each invoked once as API
 * Gateway would for a connection that does not exist: $connect without a token (refused), a
 * frame and a $disconnect of an unknown connection (one HBase get each, nothing written). Needs
 * the schema in place.
 */
export async function warmLiveFunctions(lambdaUrl: string, stage: string): Promise<number> {
  const requestContext = { connectionId: 'warm-up' };
  const live: [string, object][] = [
    ['liveConnect', { requestContext, headers: {} }],
    ['liveMessage', { requestContext, body: '{"action":"ping"}' }],
    ['liveDisconnect', { requestContext }],
  ];
  for (const [name, event] of live) await invokeOnce(lambdaUrl, `weibo-${stage}-${name}`, event);
  return live.length;
}

async function invokeOnce(lambdaUrl: string, name: string, event: object): Promise<void> {
  const res = await fetch(`${lambdaUrl}/2015-03-31/functions/${name}/invocations`, {
    method: 'POST',
    body: JSON.stringify(event),
    signal: AbortSignal.timeout(60_000),
  });
  await res.text();
  if (!res.ok) throw new Error(`warming ${name}: HTTP ${res.status}`);
}
