// infra/plugins/offline-errors.cjs — local only: serverless-offline's own failures answer as 5xx.
// For an HTTP API (payload 2.0) route, serverless-offline turns a failed invocation — its own
// Lambda timeout, a handler that throws, a bundle it cannot load (ImportModuleError) — into
// `{errorMessage, errorType, stackTrace}` and then wraps that object as a 200 response body
// (src/events/http/HttpServer.js: a 2.0 result without a statusCode is a 200). A client, a test or
// the load run then counts the emulator's failure as a success. API Gateway answers 503/504 there.
//
// This wraps LambdaFunction.runHandler (the one call every HTTP route and the Lambda invoke
// endpoint go through): for an HTTP API event, a failure becomes a 504 (timeout) or 502 response
// in our error shape, which still names the emulator's errorType/errorMessage (test/support/api.ts
// recognises a timeout by errorType). Lambda invokes (the workers, the jobs) are left as they were:
// serverless-offline already answers those as a function error.
//
// It also bounds the emulator: at most OFFLINE_FUNCTION_CONCURRENCY invocations of one function at
// once (patchPool, below); a burst waits its turn on instances already loaded.
//
// And it keeps a bundle's load out of a call's timeout, as Lambda does (its init phase is not part
// of the invocation's timeout). serverless-offline loads the bundle inside the first call's timer,
// while the handler's getRemainingTimeInMillis starts after the load: on a busy machine a cold
// call ran out of the emulator's time while the handler still thought it had plenty, and answered
// 504 whatever the handler's own deadline said. A fresh instance now first takes a load call
// (loadCallOf, below) that does no work; then the real call gets the whole timeout.
'use strict';

const { realpathSync } = require('node:fs');
const { dirname, join } = require('node:path');
const { pathToFileURL } = require('node:url');

const PATCHED = Symbol.for('weibo.offline-errors');

/** True for an API Gateway HTTP API (payload 2.0) event. */
function isHttpApiEvent(event) {
  return typeof event?.requestContext?.http?.method === 'string';
}

/** The response an HTTP client gets for the emulator's own failure of one invocation. */
function emulatorFailure(err, functionName) {
  const errorMessage = String(err?.message ?? err);
  const errorType = err?.constructor?.name ?? 'Error';
  // serverless-offline puts the status it means in the message: "[504] - Lambda timeout."
  const statusCode = /\[504]/.test(errorMessage) ? 504 : 502;
  return {
    statusCode,
    headers: { 'content-type': 'application/json', 'x-emulator-error': errorType },
    body: JSON.stringify({
      error: {
        code: statusCode === 504 ? 'EMULATOR_TIMEOUT' : 'EMULATOR_FAILURE',
        message: `serverless-offline could not complete ${functionName}: ${errorMessage}`,
      },
      errorType,
      errorMessage,
    }),
    isBase64Encoded: false,
  };
}

/** serverless-offline's own timeout: "[504] - Lambda timeout." (a LambdaTimeoutError). */
function isEmulatorTimeout(err) {
  return err?.constructor?.name === 'LambdaTimeoutError' || /\[504]/.test(String(err?.message ?? ''));
}

/**
 * A call that loads a fresh instance's bundle and does no work, shaped after the call it comes
 * before; undefined where there is none (a scheduled job: its timeout is minutes). An HTTP event
 * loses its credentials, body and query, and its path parameters fail validation ('~'), so it is
 * answered 4xx at the door (as the start-up warm-up's calls are); a queue batch is empty.
 */
function loadCallOf(event) {
  if (isHttpApiEvent(event)) {
    const params = event.pathParameters
      ? Object.fromEntries(Object.keys(event.pathParameters).map((k) => [k, '~']))
      : undefined;
    return {
      ...event,
      headers: {},
      cookies: undefined,
      body: undefined,
      isBase64Encoded: false,
      queryStringParameters: undefined,
      rawQueryString: '',
      pathParameters: params,
    };
  }
  if (Array.isArray(event?.Records)) return { Records: [] };
  return undefined;
}

/** Load calls before a fresh instance's first real call gives up and lets the real call load it. */
const LOAD_ATTEMPTS = 3;

/** Wraps serverless-offline's classes once per process (its own module instances). */
async function patchEmulator() {
  // The modules serverless-offline itself loads: same real path, so the same classes.
  const dir = join(dirname(realpathSync(require.resolve('serverless-offline'))), 'lambda');
  const { default: LambdaFunction } = await import(pathToFileURL(join(dir, 'LambdaFunction.js')).href);
  const { default: LambdaFunctionPool } = await import(pathToFileURL(join(dir, 'LambdaFunctionPool.js')).href);
  patchLambdaFunction(LambdaFunction);
  patchPool(LambdaFunctionPool);
}

/**
 * Invocations of one function the emulator runs at once; more wait their turn on an instance
 * already loaded. Unbounded, serverless-offline starts a worker thread per concurrent call, each
 * loading its own copy of the bundle: a burst of 100 follows meant 100 bundle loads on 2 cores,
 * Lambda timeouts, and 8 GB of RSS kept for the idle time. Deployed, Lambda's own
 * concurrency and the API's throttling bound the same thing.
 */
const FUNCTION_CONCURRENCY = Math.max(1, Number(process.env.OFFLINE_FUNCTION_CONCURRENCY ?? 4));

/** Per instance: the calls waiting for it, in order, and the end of the last one queued. */
const queues = new WeakMap();
const queueOf = (fn) => {
  let q = queues.get(fn);
  if (!q) {
    q = {
      pending: [],
      waiting: 0,
      tail: Promise.resolve(),
      clientContext: undefined,
      set: undefined,
      loaded: false,
    };
    queues.set(fn, q);
  }
  return q;
};
const load = (fn) => queueOf(fn).waiting + (fn.status === 'BUSY' ? 1 : 0);

function patchPool(LambdaFunctionPool) {
  const proto = LambdaFunctionPool.prototype;
  if (proto[PATCHED]) return;
  proto[PATCHED] = true;
  const byPool = new WeakMap();
  const get = proto.get;
  proto.get = function (functionKey, definition) {
    const fn = get.call(this, functionKey, definition);
    let byKey = byPool.get(this);
    if (!byKey) {
      byKey = new Map();
      byPool.set(this, byKey);
    }
    let set = byKey.get(functionKey);
    if (!set) {
      set = new Set();
      byKey.set(functionKey, set);
    }
    if (set.has(fn)) return fn;
    if (set.size < FUNCTION_CONCURRENCY) {
      set.add(fn);
      queueOf(fn).set = set;
      return fn;
    }
    // At the bound: the least loaded instance takes the call (the one just made, never run, has
    // no worker yet and is dropped by the pool's idle cleaner).
    return [...set].reduce((a, b) => (load(b) < load(a) ? b : a));
  };
}

function patchLambdaFunction(LambdaFunction) {
  const proto = LambdaFunction.prototype;
  if (proto[PATCHED]) return;
  proto[PATCHED] = true;
  // Callers set the client context and the event, then run, in one tick; an instance may now
  // take calls while it runs one, so each call's event (and context) waits in its queue and is
  // set on the instance only when that call's turn comes.
  const setEvent = proto.setEvent;
  const setClientContext = proto.setClientContext;
  proto.setClientContext = function (clientContext) {
    queueOf(this).clientContext = clientContext;
  };
  proto.setEvent = function (event) {
    const q = queueOf(this);
    q.pending.push({ event, clientContext: q.clientContext });
    q.clientContext = undefined;
  };
  const cleanup = proto.cleanup;
  proto.cleanup = function () {
    queueOf(this).set?.delete(this);
    return cleanup.call(this);
  };
  const runHandler = proto.runHandler;
  /** The load calls of a fresh instance (see the header); a load that outran the timeout is tried again. */
  const loadBundle = async (fn, event) => {
    const probe = loadCallOf(event);
    if (probe === undefined) return;
    for (let attempt = 1; attempt <= LOAD_ATTEMPTS; attempt++) {
      const started = Date.now();
      setEvent.call(fn, probe);
      try {
        await runHandler.call(fn);
      } catch (err) {
        if (isEmulatorTimeout(err)) {
          console.log(
            `[offline] ${fn.functionName}: load call ${attempt} ran out of the function's timeout (${Date.now() - started} ms)`,
          );
          continue;
        }
      }
      console.log(`[offline] ${fn.functionName}: bundle loaded by a load call in ${Date.now() - started} ms`);
      queueOf(fn).loaded = true;
      return;
    }
  };
  proto.runHandler = async function () {
    const q = queueOf(this);
    const call = q.pending.shift() ?? { event: undefined, clientContext: undefined };
    const before = q.tail;
    let done;
    q.tail = new Promise((resolve) => (done = resolve));
    q.waiting++;
    await before;
    q.waiting--;
    let started;
    try {
      if (!q.loaded) await loadBundle(this, call.event);
      if (call.clientContext !== undefined) setClientContext.call(this, call.clientContext);
      setEvent.call(this, call.event);
      // The Lambda timeout starts inside runHandler: a call's wait for its turn is not counted.
      started = Date.now();
      const result = await runHandler.call(this);
      q.loaded = true;
      return result;
    } catch (err) {
      // On its timeout the emulator ends the instance's worker: its next call loads the bundle again.
      q.loaded = !isEmulatorTimeout(err);
      if (!isHttpApiEvent(call.event)) throw err;
      // serverless-offline logs nothing for an HTTP call it failed; the log must show it.
      console.log(
        `[offline] ${this.functionName}: ${isEmulatorTimeout(err) ? 'Lambda timeout' : 'failed'} after ${started === undefined ? '?' : Date.now() - started} ms, answered ${isEmulatorTimeout(err) ? 504 : 502}: ${String(err?.message ?? err)}`,
      );
      return emulatorFailure(err, this.functionName);
    } finally {
      done();
    }
  };
}

class OfflineErrors {
  constructor() {
    // After serverless-esbuild's bundling hook, before serverless-offline starts serving.
    this.hooks = {
      'before:offline:start:init': () => patchEmulator(),
      'before:offline:start': () => patchEmulator(),
    };
  }
}

module.exports = OfflineErrors;
module.exports.emulatorFailure = emulatorFailure;
module.exports.patchLambdaFunction = patchLambdaFunction;
module.exports.patchPool = patchPool;
