// test/e2e/serial/model-check.test.ts — a model-based check of the API under concurrency. Per seed:
// fresh users, then waves of concurrent requests from a seeded plan (test/support/model/plan.ts)
// — idempotent publishes and their retries, racing deletes, refollows, unfollows racing the
// fan-out they follow; likes (racing likes of one user, like racing unlike), comments and
// their deletes (racing ones too), plain reposts (twice at once: one post) and reposts with a
// comment, reposts of reposts, deleted originals; bookmarks (收藏: racing bookmarks of one user,
// a bookmark racing its removal); users leaving (注销: the profile and their posts 404 at once),
// a like of theirs in flight, and logging in again (restored: nothing lost); groups (分组: adds
// of followed and unfollowed users, removes, an add racing an unfollow); a reference model
// follows the answers. Once the fan-out queue has drained, every timeline, author list,
// following/followers list, count and post must equal the model — each user's groups, their
// members and group timelines too; every post view with its exact like / comment / repost
// counts, each reader's own liked / reposted / bookmarked, and a repost's original (live, or
// 'deleted'); each user's bookmarks; and the comments (both orders) and likers of every post
// reacted to. Blocks and mutes (racing
// follows too), refused requests across a block, and posts that mention other users: timelines
// must leave out what the reader must not see, reads across a block answer 403 `blocked`, and
// each user's like and mention notifications must equal the model wherever it can state them
// exactly (no block or mute between the two users changed while a delivery could run). Beside
// the waves, private messages among users of the seed's own (test/support/model/messages.ts):
// sends and their retries (some at once: one message), both sides at once, recalls, read markers,
// blocks, requests accepted and declined; once settled every conversation page, conversation list
// and message badge of theirs must equal that model. All
// differences of a seed are reported together, with the seed to replay it: MODEL_SEED=<n> replays one seed;
// MODEL_SEEDS / MODEL_OPS scale it up (npm run test:soak).
//
// Under pressure (docs/testing.md, "Pressure"): a CPU burner per core and the suite's REST
// gateway paused for 0.5–2.5 s every few seconds on the seed's schedule, while the seed's users
// register and its waves run (test/support/pressure.ts); 20 users. The suite runs
// MODEL_PRESSURE_SEEDS (default 1) seed of MODEL_PRESSURE_OPS (default 100) that way beside the
// others; MODEL_PRESSURE=1 puts every seed under it (npm run test:pressure). Replay one:
//   MODEL_PRESSURE=1 E2E_SETTLE_SECONDS=20 MODEL_USERS=20 MODEL_OPS=<ops> MODEL_SEED=<seed> npx vitest run --project e2e-serial test/e2e/serial/model-check.test.ts
// (MODEL_SEED takes a comma-separated list). A seed under pressure ends with a probe (MODEL_PROBE):
// once settled, every user publishes once more, so a follower who lost a celebrity's marker (D)
// misses that post even where the author's earlier posts all sit in the inbox already.
// The interleavings a seed meets under pressure vary
// from run to run: a seed that failed once may pass the next time, so replay it a few times.
// PRESSURE_FINDINGS below says where each failed: the e2e stack, or an npm start on a stack of
// its own with two seeds side by side. MODEL_SEED=findings replays them all on the run's API;
// against an npm start (one per replay: its namespace is the run's):
//   API_PORT=13600 OFFLINE_LAMBDA_PORT=13602 WEB_PORT=13601 HBASE_NAMESPACE=<fresh> CELEBRITY_FOLLOWERS=3 POLLER_TRACE=1 npm start
//   E2E_EXTERNAL_API_PORT=13600 OFFLINE_LAMBDA_PORT=13602 HBASE_NAMESPACE=<the same> MODEL_SEED=findings \
//     npx vitest run --project e2e-serial test/e2e/serial/model-check.test.ts
import { closeSync, openSync, readSync, statSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { afterAll, beforeAll, describe, inject, it } from 'vitest';
import { localSqsClient } from '../../../infra/local/sqs-poller.js';
import { apiClient } from '../../support/api.js';
import { compareWithModel, type CompareStats } from '../../support/model/compare.js';
import { Driver, ModelLost, registerActor, type Actor } from '../../support/model/driver.js';
import { DmDriver, makeDmPlan } from '../../support/model/messages.js';
import { handleOf, makePlan, type Group, type Plan } from '../../support/model/plan.js';
import { ReferenceModel } from '../../support/model/reference-model.js';
import { findGateway, stackDir, startPressure, type Pressure } from '../../support/pressure.js';
import { queueCounts, queueDrained } from '../../support/queue.js';
import { AnswerTally, countLogTimeouts } from '../../support/timeouts.js';

const client = apiClient(inject('apiUrl'));
type Api = typeof client;
/**
 * The API with the requests sent counted (the cost of a seed, comparable between runs), the
 * answers of its waves tallied, and every request kept as a line of its trace: when it was sent,
 * how long it took, its answer (0: none), what it was; for a publish, its text.
 */
function countingApi(): { api: Api; sent: () => number; answers: AnswerTally; endWaves: () => void; trace: string[] } {
  let requests = 0;
  let waves = true;
  const answers = new AnswerTally();
  const trace: string[] = [];
  const call: Api['call'] = async (method, path, opts = {}) => {
    requests++;
    const started = Date.now();
    const what = `${method} ${path}${method === 'POST' && path === '/posts' ? ` ${JSON.stringify((opts.body as { body?: string } | undefined)?.body)}` : ''}`;
    let answer = '0';
    try {
      const res = await client.call(method, path, opts);
      answer = String(res.status);
      if (waves) answers.add(res);
      return res;
    } catch (err) {
      answer = `0 (${err instanceof Error ? err.message.slice(0, 120) : String(err)})`;
      if (waves) answers.addThrown(err);
      throw err;
    } finally {
      trace.push(`${new Date(started).toISOString()} ${String(Date.now() - started).padStart(6)} ms ${answer} ${what}`);
    }
  };
  return { api: { ...client, call }, sent: () => requests, answers, endWaves: () => (waves = false), trace };
}
/** Beside the API's log (offline-setup.ts). */
const LOG_DIR = dirname(inject('offlineLogFile'));
const sqs = localSqsClient(inject('sqsEndpoint'));
afterAll(() => sqs.destroy());

/** One seed's run: its plan's size, and whether the machine is under pressure meanwhile. */
interface SeedRun {
  seed: number;
  ops: number;
  users: number;
  pressure: boolean;
}

/**
 * Seeds that failed under pressure, each group run side by side as it failed, with what it found
 * and the commit it failed on. Replay them all with MODEL_SEED=findings (the recipe in the header:
 * against an npm start, MODEL_PARALLEL as the group); a seed's interleavings vary between runs, so
 * a pass needs a few replays before it says the cause is gone.
 */
const PRESSURE_FINDINGS: readonly { seeds: readonly number[]; ops: number; users: number; found: string }[] = [
  {
    seeds: [203],
    ops: 600,
    users: 20,
    found:
      'dcab5f1, the e2e stack (MODEL_PRESSURE=1 POLLER_TRACE=1, poller concurrency 1), before the probe: passed, but the kept namespace held ' +
      'm203_u15 following celebrity m203_u11 with no c:m203_u11 — the settle of u15’s follow ran in one batch with u11’s promotion, read the flag ' +
      'before the promotion wrote it, backfilled (13:44:01.167), and dropped the marker the walk had set; flag 1 at 13:44:01.185',
  },
  {
    seeds: [801, 802],
    ops: 600,
    users: 20,
    found:
      'dcab5f1, npm start (CELEBRITY_FOLLOWERS=3): seed 801, notifications of m801_u3 show like ×0 for post #74, model ×1 — the group state ' +
      'holds count -1 with m801_u1 recorded as counted: a double like’s losing fact, delivered while the winner’s delivery was cut between member and group, moved the count down',
  },
  {
    seeds: [803, 804],
    ops: 600,
    users: 20,
    found:
      'dcab5f1, npm start (CELEBRITY_FOLLOWERS=3): 9 fan-out messages dead-lettered (worker out of time on 5 receives); seed 804, comment c35 deleted ' +
      '(both DELETEs cut by the Lambda timeout after the tombstone, resent: 404) is still listed: m:d written, m:v never removed',
  },
  {
    seeds: [168967],
    ops: 200,
    users: 20,
    found:
      'd785c2d, the e2e stack (MODEL_PRESSURE=1): m168967_u16’s plain repost #34 of #9 missing from their own timeline for good — both requests of a ' +
      'double plain repost answered 503 timeout after the row landed (the gateway stalled 6 s), and their retries found the claimed repost live and ' +
      'answered 200 without finishing it (inbox, outbox, fan-out)',
  },
  {
    seeds: [518572],
    ops: 300,
    users: 20,
    found:
      'f5228fb, the e2e stack (MODEL_PRESSURE=1 E2E_SETTLE_SECONDS=20, another job loading the machine): m518572_u11’s profile said 3 posts over a ' +
      'list of 2 — the delete of #11 answered 503 timeout after its tombstone, and the posts counter, not tallied then, waited for the repair job',
  },
  {
    seeds: [903, 904],
    ops: 600,
    users: 20,
    found:
      'dcab5f1, npm start (CELEBRITY_FOLLOWERS=3), PRESSURE_BURNERS=4: seed 903, an unfollow answered 500 internal_error after 10 s (middy’s ' +
      'timeout) although every write of it had landed within 0.6 s of its start',
  },
];

/** Request groups per seed (one to three requests each): 2 seeds of 150 take about a minute. */
const OPS = Number(process.env.MODEL_OPS ?? 150);
const PRESSURE_ALL = process.env.MODEL_PRESSURE === '1' || process.env.MODEL_SEED === 'findings';
/** Users per plan: 6 races edges and posts most; under pressure 20, as on the machine where posts were lost. */
const USERS = Number(process.env.MODEL_USERS ?? (PRESSURE_ALL ? 20 : 6));
/** The suite's own seeds under pressure (none when MODEL_PRESSURE puts every seed under it, or a seed is replayed). */
const PRESSURE_SEEDS = PRESSURE_ALL || process.env.MODEL_SEED ? 0 : Number(process.env.MODEL_PRESSURE_SEEDS ?? 1);
const PRESSURE_OPS = Number(process.env.MODEL_PRESSURE_OPS ?? 100);
const PRESSURE_USERS = Number(process.env.MODEL_USERS ?? 20);
/**
 * Private messages (test/support/model/messages.ts): users of their own per seed (MODEL_DM_USERS,
 * default 4: every pair of them talks; 0: none), each pair a script of MODEL_DM_STEPS steps run
 * beside the waves.
 */
const DM_USERS = Number(process.env.MODEL_DM_USERS ?? 4);
const DM_STEPS = Number(process.env.MODEL_DM_STEPS ?? 8);
/** MODEL_SEED=findings replays PRESSURE_FINDINGS, each with its own recipe. */
const REPLAY_FINDINGS = process.env.MODEL_SEED === 'findings';
const SEEDS = REPLAY_FINDINGS
  ? []
  : process.env.MODEL_SEED
    ? process.env.MODEL_SEED.split(',').map(Number)
    : // Two side by side in the suite; the upgrade and backup tests run a seed of their own each.
      randomSeeds(Number(process.env.MODEL_SEEDS ?? 2));

/** New seeds every run (a fixed plan would only ever test the interleavings it happens to cause). */
function randomSeeds(count: number): number[] {
  const base = Math.floor(Math.random() * 1_000_000);
  return Array.from({ length: count }, (_, i) => base + i);
}

// Work left by earlier test files (a poison message on its way to the DLQ) is not this test's.
beforeAll(() => queueDrained(sqs, inject('fanoutQueueUrl'), 170_000, 1_000), 180_000);

/**
 * Seeds checked side by side (MODEL_PARALLEL, default 2; 1 under pressure, whose load is the
 * point): a seed spends most of its time waiting (answers, the settle window, the drain), and
 * each has users of its own. Both wait for the whole queue to drain, so each still compares a
 * settled world.
 */
const PARALLEL = Math.max(1, Number(process.env.MODEL_PARALLEL ?? (PRESSURE_ALL ? 1 : 2)));

const runs: SeedRun[][] = [];
for (let i = 0; i < SEEDS.length; i += PARALLEL)
  runs.push(SEEDS.slice(i, i + PARALLEL).map((seed) => ({ seed, ops: OPS, users: USERS, pressure: PRESSURE_ALL })));
for (const seed of randomSeeds(PRESSURE_SEEDS))
  runs.push([{ seed, ops: PRESSURE_OPS, users: PRESSURE_USERS, pressure: true }]);
if (REPLAY_FINDINGS)
  for (const { seeds, ops, users } of PRESSURE_FINDINGS)
    runs.push(seeds.map((seed) => ({ seed, ops, users, pressure: true })));

/** The pressure of the group running now: ended after the file whatever happened to the test. */
let pressure: Pressure | undefined;
afterAll(async () => {
  await pressure?.stop();
});

describe('model check: concurrent requests against a reference model', () => {
  for (const group of runs) {
    const underPressure = group.some((r) => r.pressure);
    const title = `seed${group.length > 1 ? 's' : ''} ${group.map((r) => r.seed).join(', ')}${underPressure ? ` under pressure (${group[0]!.users} users, ${group[0]!.ops} groups)` : ''}`;
    it(
      title,
      async () => {
        const logFrom = logSize();
        // The group's first seed decides the pause schedule.
        if (underPressure) pressure = startPressure({ seed: group[0]!.seed, ...gatewayToPause(), ...burners() });
        const wavesDone = group.map(() => latch());
        const stopPressure = Promise.all(wavesDone.map((w) => w.done)).then(async () => {
          const report = await pressure?.stop();
          pressure = undefined;
          return report;
        });
        // Whatever ends a seed also ends its part of the pressure (a seed that threw before its waves too).
        const checks = group.map((run, i) => checkSeed(run, wavesDone[i]!.open).finally(wavesDone[i]!.open));
        const results = await Promise.allSettled(checks);
        await stopPressure;
        if (underPressure) {
          const log = countLogTimeouts(readLog(logFrom));
          console.log(
            `[model-check] ${title}: the API's log during the group: ${log.workerTimeouts} worker Lambda timeout(s), ${log.ranOutOfTime} 'Invocation ran out of time' line(s)`,
          );
        }
        const failed = results.flatMap((r) => (r.status === 'rejected' ? [r.reason] : []));
        if (failed.length > 0)
          throw new Error(failed.map((e) => (e instanceof Error ? e.message : String(e))).join('\n'));
      },
      180_000 + Math.max(...group.map((r) => r.ops)) * (underPressure ? 6_000 : 3_000) * group.length,
    );
  }
});

/**
 * The gateway the pressure pauses: the suite's own, found by the pid file of the stack it runs
 * on. A gateway this checkout's stack did not start (another one's, reused) is never paused: with
 * MODEL_PRESSURE=1 that fails the run; the suite's own pressure seed runs on the burners alone.
 */
function gatewayToPause(): { gatewayPid?: number } {
  const found = findGateway(stackDir(), new URL(inject('hbaseRestUrl')).port || '80');
  if ('pid' in found) return { gatewayPid: found.pid };
  if (PRESSURE_ALL)
    throw new Error(
      `MODEL_PRESSURE=1: cannot pause the REST gateway (${found.reason}); run on a stack of this checkout (WEIBO_LOCAL_DIR and its ports)`,
    );
  console.log(`[model-check] pressure without gateway pauses: ${found.reason}`);
  return {};
}

/** PRESSURE_BURNERS=<n>: that many CPU burners instead of one per core (a heavier machine). */
function burners(): { burners?: number } {
  const n = Number(process.env.PRESSURE_BURNERS);
  return Number.isInteger(n) && n > 0 ? { burners: n } : {};
}

function latch(): { done: Promise<void>; open: () => void } {
  let open!: () => void;
  const done = new Promise<void>((r) => (open = r));
  return { done, open };
}

/** The API's log (offline-setup.ts writes it) from `from` bytes on. */
function logSize(): number {
  try {
    return statSync(inject('offlineLogFile')).size;
  } catch {
    return 0;
  }
}

function readLog(from: number): string {
  const file = inject('offlineLogFile');
  const size = logSize();
  if (size <= from) return '';
  const fd = openSync(file, 'r');
  try {
    const buf = Buffer.alloc(size - from);
    readSync(fd, buf, 0, buf.length, from);
    return buf.toString('utf8');
  } finally {
    closeSync(fd);
  }
}

/** Runs one seed; `wavesDone` is called once its waves are over (or it stopped before). */
async function checkSeed(run: SeedRun, wavesDone: () => void): Promise<void> {
  const { seed, ops } = run;
  const plan = makePlan(seed, ops, run.users);
  const reposts = plan.slots.filter((s) => s.repost).length;
  const steps = plan.waves.flat().flatMap((g) => [...g.tasks.flat(), ...(g.decider ? [g.decider] : [])]);
  const counted = (kind: string) => steps.filter((s) => s.kind === kind).length;
  const mentioning = plan.slots.filter((s) => !s.repost && s.body.includes('@')).length;
  console.log(
    `[model-check] seed ${seed}: ${plan.waves.length} waves, ${plan.slots.length - reposts} posts (${mentioning} mentioning), ${reposts} reposts, ${plan.comments.length} comments, ` +
      `${counted('block')} blocks (${counted('followRacingBlock')} raced by a follow), ${counted('unblock')} unblocks, ${counted('refused')} refused across a block, ${counted('mute')} mutes, ${counted('unmute')} unmutes, ` +
      `${counted('bookmark')} bookmarks, ${counted('unbookmark')} unbookmarks, ${counted('edit')} edits (${steps.filter((s) => s.kind === 'edit' && s.racing).length} racing another edit or a delete), ` +
      `${counted('leave')} leaves and restores (${plan.waves.flat().filter((g) => g.label === 'leave → restore, a like in flight').length} with a like in flight), ` +
      `${counted('createGroup')} groups made, ${counted('groupAdd')} group adds (${steps.filter((s) => s.kind === 'groupAdd' && s.racing).length} racing an unfollow), ${counted('groupRemove')} group removes`,
  );
  const dmPlan = makeDmPlan(seed, DM_USERS, DM_STEPS);
  const started = Date.now();
  const { api, sent, answers, endWaves, trace } = countingApi();
  const [users, dmUsers] = await Promise.all([
    Promise.all(Array.from({ length: plan.users }, (_, i) => register(api, handleOf(seed, i)))),
    // The message users have names of their own: nothing of the plan touches or mentions them.
    Promise.all(Array.from({ length: DM_USERS }, (_, i) => register(api, `m${seed}_d${i}`))),
  ]);
  const model = new ReferenceModel(users.map((u) => u.handle));
  const driver = new Driver(api, plan, users, model);
  const dm = new DmDriver(api, seed, dmPlan, dmUsers);
  const deadBefore = await deadLetters();
  const findings: string[] = [];
  const stats: CompareStats = { views: 0, commentLists: 0, likerLists: 0, notifications: 0, notificationsSkipped: 0 };
  try {
    // The messages' scripts run beside the waves (their own users: neither changes what the other expects).
    let talked = 0;
    let wavesEnded = 0;
    const talks = dm
      .setUp()
      .then(() => dm.run())
      .finally(() => (talked = Date.now()));
    try {
      for (const [wave, groups] of plan.waves.entries()) await driver.runWave(wave, groups);
    } finally {
      wavesEnded = Date.now();
      await talks.catch(
        (err: unknown) => void findings.push(`messages stopped: ${err instanceof Error ? err.stack : String(err)}`),
      );
      endWaves();
      wavesDone();
    }
    const waves = { ms: Date.now() - started, requests: sent() };
    console.log(`[model-check] seed ${seed}: the waves' ${answers.describe()}`);
    await queueDrained(sqs, inject('fanoutQueueUrl'), 120_000, 1_000);
    if (probes(run)) {
      // Settled: every user publishes once more, and the queue drains again. A follower of a
      // celebrity whose marker is gone (D) misses that post, where every earlier post of the
      // author may sit in the inbox already (a settle's backfill) and hide the loss from the compare.
      const groups = users.map(
        (_, u): Group => ({ label: 'probe publish', tasks: [[{ kind: 'publish', slot: probeSlot(plan, u) }]] }),
      );
      await driver.runWave(plan.waves.length, groups);
      await queueDrained(sqs, inject('fanoutQueueUrl'), 120_000, 1_000);
    }
    const settled = Date.now();
    const timed = async <T>(p: Promise<T>): Promise<[T, number]> => [await p, Date.now() - settled];
    const [[compared, compareMs], [dmRequests, dmCompareMs]] = await Promise.all([
      timed(compareWithModel(api, model, users, stats)),
      timed(dm.compare()),
    ]);
    findings.push(...compared);
    console.log(
      `[model-check] seed ${seed}: messages ${dm.describe()}; their scripts ended ${((talked - wavesEnded) / 1000).toFixed(1)} s after the waves (negative: before); ` +
        `compared with ${dmRequests} requests in ${(dmCompareMs / 1000).toFixed(1)} s, beside the rest's ${(compareMs / 1000).toFixed(1)} s`,
    );
    console.log(
      `[model-check] seed ${seed}: waves ${waves.requests} requests in ${(waves.ms / 1000).toFixed(0)} s; settled after ${((settled - started - waves.ms) / 1000).toFixed(0)} s; ` +
        `compare ${sent() - waves.requests} requests in ${((Date.now() - settled) / 1000).toFixed(0)} s: ${stats.views} post views, ${stats.commentLists} comments lists, ${stats.likerLists} likers lists, ` +
        `${stats.notifications} like/repost/mention notifications (${stats.notificationsSkipped} not exact, skipped), ` +
        `${stats.groups} groups holding ${stats.groupMembers} members and ${stats.groupPosts} timeline posts`,
    );
    // A 5xx other than a 503 `timeout` is a defect anywhere; under MODEL_PRESSURE=1 (the bar of
    // npm run test:pressure, whose settle window gives every request npm start's budget) a 503 is too.
    const refused = answers.total5xx - (PRESSURE_ALL ? 0 : answers.api503);
    if (refused > 0)
      findings.push(
        `${refused} answer(s) 5xx during the waves (${answers.describe()})${PRESSURE_ALL ? '' : ', beside the 503 timeouts an overloaded run may answer'}`,
      );
    const dead = (await deadLetters()) - deadBefore;
    if (dead > 0)
      findings.push(`${dead} fan-out message(s) reached the DLQ during this seed: work the worker gave up on`);
  } catch (err) {
    // Whatever stopped the seed is reported with what the waves found before it.
    findings.push(
      err instanceof ModelLost ? err.message : `stopped: ${err instanceof Error ? err.stack : String(err)}`,
    );
  }
  const all = [...driver.mismatches, ...dm.mismatches, ...findings];
  // Under pressure (or MODEL_TRACE=1) the seed's requests are kept, to read beside the API's log.
  const traceFile =
    run.pressure || process.env.MODEL_TRACE === '1' ? `${LOG_DIR}/model-${seed}.requests.log` : undefined;
  if (traceFile) writeFileSync(traceFile, `${trace.join('\n')}\n`);
  if (all.length > 0) {
    const recipe = `${run.pressure ? 'MODEL_PRESSURE=1 ' : ''}${process.env.E2E_SETTLE_SECONDS ? `E2E_SETTLE_SECONDS=${process.env.E2E_SETTLE_SECONDS} ` : ''}${run.users !== 6 ? `MODEL_USERS=${run.users} ` : ''}MODEL_SEED=${seed} MODEL_OPS=${ops}`;
    const kept = traceFile ? `; its requests: ${traceFile}, the API's log: ${inject('offlineLogFile')}` : '';
    throw new Error(
      `seed ${seed}: ${all.length} mismatch(es) — replay with ${recipe}${kept}\n${all.map((m) => `  - ${m}`).join('\n')}`,
    );
  }
}

/** The probe after the settle: under pressure, or when MODEL_PROBE=1 asks (MODEL_PROBE=0: never). */
function probes(run: SeedRun): boolean {
  return process.env.MODEL_PROBE === '1' || (run.pressure && process.env.MODEL_PROBE !== '0');
}

/** A keyed post of `author`'s after the plan's last wave. */
function probeSlot(plan: Plan, author: number): number {
  plan.slots.push({ author, body: `seed ${plan.seed} probe by u${author}`, key: `s${plan.seed}-probe${author}` });
  return plan.slots.length - 1;
}

/**
 * Handles named after the seed: unique in the run's fresh namespace, and short in mismatch lines.
 * Sent again when the machine gives no answer; a 409 then means an earlier send registered it.
 */
function register(api: Api, handle: string): Promise<Actor> {
  return registerActor(api, handle, `model check ${handle}`);
}

async function deadLetters(): Promise<number> {
  return (await queueCounts(sqs, inject('fanoutDlqUrl'))).ApproximateNumberOfMessages;
}
