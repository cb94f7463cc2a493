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

/** Wraps LambdaFunction's prototype once per process (serverless-offline's own module instance). */
async function patchEmulator() {
  // The module serverless-offline itself loads: same real path, so the same class.
  const entry = realpathSync(require.resolve('serverless-offline'));
  const { default: LambdaFunction } = await import(pathToFileURL(join(dirname(entry), 'lambda', 'LambdaFunction.js')).href);
  patchLambdaFunction(LambdaFunction);
}

function patchLambdaFunction(LambdaFunction) {
  const proto = LambdaFunction.prototype;
  if (proto[PATCHED]) return;
  proto[PATCHED] = true;
  // Each instance runs one invocation at a time, and its callers set the event right before
  // running it (same tick), so the event read at the start of runHandler is that invocation's.
  const events = new WeakMap();
  const setEvent = proto.setEvent;
  proto.setEvent = function (event) {
    events.set(this, event);
    return setEvent.call(this, event);
  };
  const runHandler = proto.runHandler;
  proto.runHandler = async function () {
    const event = events.get(this);
    try {
      return await runHandler.call(this);
    } catch (err) {
      if (!isHttpApiEvent(event)) throw err;
      return emulatorFailure(err, this.functionName);
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
