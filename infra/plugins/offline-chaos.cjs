// infra/plugins/offline-chaos.cjs — local only: kills a worker invocation part-way through its
// work, on request (`npm run load -- --chaos`, docs/operations.md "Chaos load").
//
// serverless-offline runs each function instance's handler in a worker thread of its own. A kill
// ends that thread with Worker.terminate() a chosen time into the invocation of a queue batch: no
// more of the handler runs, what it had written stays written, what it had not stays unwritten,
// and its open connections are dropped. The thread never answers, so the emulator fails the
// invocation when the function's timeout passes (and starts a fresh thread for the next call);
// the poller then deletes nothing and SQS hands the batch out again after the visibility timeout,
// as with a Lambda whose runtime died.
//
// Active only when LOCAL_CHAOS_DIR names a directory (`npm start` sets it). Requests: a client
// writes kill-<httpPort>.json there (write, then rename) holding {id, functionName, afterMs}. The
// kill lands `afterMs` after the start of an invocation of that function with a non-empty batch
// (one running and not yet that far, else the next to start); when that one ends first, the next
// is tried, for up to ARMED_MS. What happened is appended to events-<httpPort>.jsonl, one
// JSON object a line: {type: 'killed', id, at, intoMs, functionName, messageIds}; {type:
// 'missed', id, at, tries} when no invocation could be killed; and {type: 'redone', id, at,
// messageId} for each message of a killed batch once a later invocation completed it.
'use strict';

const { AsyncLocalStorage } = require('node:async_hooks');
const { appendFileSync, mkdirSync, readFileSync, rmSync, watch, writeFileSync } = require('node:fs');
const { syncBuiltinESMExports } = require('node:module');
const { dirname, join, resolve } = require('node:path');
const { pathToFileURL } = require('node:url');
const { realpathSync } = require('node:fs');
const workerThreads = require('node:worker_threads');

const PATCHED = Symbol.for('weibo.offline-chaos');
/** How long a kill request waits for an invocation long enough to kill. */
const ARMED_MS = 30_000;

/** The call of runHandler a worker's postMessage belongs to. */
const calls = new AsyncLocalStorage();
/** Invocations of a non-empty batch, running now: {functionName, worker, started, messageIds}. */
const running = new Set();
/** Messages of killed batches not completed since: message id → kill id. */
const killedMessages = new Map();
/** The kill request waiting for its invocation, if any. */
let armed;
let files;

const say = (line) => console.log(`[offline-chaos] ${line}`);

function record(event) {
  appendFileSync(files.events, `${JSON.stringify({ ...event, at: new Date().toISOString() })}\n`);
}

/** The emulator's Worker, made to note which thread runs which batch (its ESM binding follows). */
function patchWorker() {
  const Base = workerThreads.Worker;
  if (Base[PATCHED]) return;
  class TrackedWorker extends Base {
    postMessage(value, transferList) {
      const call = calls.getStore();
      const records = value?.event?.Records;
      if (call && !call.invocation && Array.isArray(records) && records.length > 0) {
        call.invocation = {
          functionName: call.functionName,
          worker: this,
          started: Date.now(),
          messageIds: records.map((r) => r.messageId),
        };
        running.add(call.invocation);
        aim();
      }
      return super.postMessage(value, transferList);
    }
  }
  TrackedWorker[PATCHED] = true;
  workerThreads.Worker = TrackedWorker;
  syncBuiltinESMExports();
}

async function patchLambdaFunction() {
  const dir = join(dirname(realpathSync(require.resolve('serverless-offline'))), 'lambda');
  const { default: LambdaFunction } = await import(pathToFileURL(join(dir, 'LambdaFunction.js')).href);
  const proto = LambdaFunction.prototype;
  if (proto[PATCHED]) return;
  proto[PATCHED] = true;
  const runHandler = proto.runHandler;
  proto.runHandler = async function () {
    const call = { functionName: this.functionName, invocation: undefined };
    try {
      const result = await calls.run(call, () => runHandler.call(this));
      if (call.invocation) completed(call.invocation, result);
      return result;
    } finally {
      if (call.invocation) {
        running.delete(call.invocation);
        if (armed?.target === call.invocation) {
          armed.target = undefined;
          clearTimeout(armed.timer);
          aim();
        }
      }
    }
  };
}

/** A batch's messages the handler did not report failed are done: a killed one among them is redone. */
function completed(invocation, result) {
  const failed = new Set((result?.batchItemFailures ?? []).map((f) => f?.itemIdentifier));
  for (const messageId of invocation.messageIds) {
    const id = killedMessages.get(messageId);
    if (id === undefined || failed.has(messageId)) continue;
    killedMessages.delete(messageId);
    record({ type: 'redone', id, messageId });
  }
}

/**
 * Points the armed request at the invocation of its function that comes to the chosen point next
 * (one already past it is left alone: the kill lands `afterMs` into a batch, not later), if none yet.
 */
function aim() {
  if (!armed || armed.target) return;
  const now = Date.now();
  const target = [...running]
    .filter((i) => i.functionName === armed.functionName && !i.killed && now - i.started <= armed.afterMs)
    .sort((a, b) => a.started - b.started)[0];
  if (!target) return;
  armed.target = target;
  armed.tries++;
  const request = armed;
  request.timer = setTimeout(() => kill(request, target), Math.max(0, target.started + request.afterMs - Date.now()));
}

function kill(request, invocation) {
  if (armed !== request || !running.has(invocation)) return;
  clearTimeout(request.expiry);
  armed = undefined;
  invocation.killed = true;
  const intoMs = Date.now() - invocation.started;
  const threadId = invocation.worker.threadId;
  invocation.worker.terminate().catch(() => {});
  for (const messageId of invocation.messageIds) killedMessages.set(messageId, request.id);
  record({
    type: 'killed',
    id: request.id,
    intoMs,
    functionName: invocation.functionName,
    messageIds: invocation.messageIds,
  });
  say(
    `killed ${invocation.functionName} ${intoMs} ms into a batch of ${invocation.messageIds.length} message(s): worker thread ${threadId} terminated`,
  );
}

function arm(request) {
  if (armed) {
    clearTimeout(armed.timer);
    clearTimeout(armed.expiry);
    record({ type: 'missed', id: armed.id, tries: armed.tries });
  }
  const next = { ...request, tries: 0, target: undefined, timer: undefined };
  next.expiry = setTimeout(() => {
    if (armed !== next) return;
    clearTimeout(next.timer);
    armed = undefined;
    record({ type: 'missed', id: next.id, tries: next.tries });
    say(`no invocation of ${next.functionName} outlasted ${next.afterMs} ms within ${ARMED_MS / 1000} s`);
  }, ARMED_MS);
  next.expiry.unref();
  armed = next;
  aim();
}

function readRequest() {
  let request;
  try {
    request = JSON.parse(readFileSync(files.request, 'utf8'));
  } catch {
    return; // not there (yet), or being replaced
  }
  rmSync(files.request, { force: true });
  const ok =
    typeof request?.id === 'string' &&
    typeof request.functionName === 'string' &&
    Number.isFinite(request.afterMs) &&
    request.afterMs >= 0;
  if (!ok) return say(`ignored a malformed kill request: ${JSON.stringify(request).slice(0, 200)}`);
  arm({ id: request.id, functionName: request.functionName, afterMs: request.afterMs });
}

function listen(dir, port) {
  mkdirSync(dir, { recursive: true });
  files = {
    request: join(dir, `kill-${port}.json`),
    events: join(dir, `events-${port}.jsonl`),
    ready: join(dir, `ready-${port}.json`),
  };
  rmSync(files.request, { force: true });
  writeFileSync(files.events, '');
  const watcher = watch(dir, (_, name) => {
    if (name === `kill-${port}.json`) readRequest();
  });
  watcher.unref();
  writeFileSync(files.ready, `${JSON.stringify({ pid: process.pid })}\n`);
  say(`worker kills on request in ${dir} (port ${port})`);
}

class OfflineChaos {
  constructor(serverless) {
    const dir = process.env.LOCAL_CHAOS_DIR;
    const start = async () => {
      if (!dir || files) return;
      const port = String(serverless.service.custom?.['serverless-offline']?.httpPort ?? 3000);
      patchWorker();
      await patchLambdaFunction();
      listen(resolve(dir), port);
    };
    this.hooks = { 'before:offline:start:init': start, 'before:offline:start': start };
  }
}

module.exports = OfflineChaos;
