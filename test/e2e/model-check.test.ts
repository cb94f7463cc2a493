// test/e2e/model-check.test.ts — a model-based check of the API under concurrency. Per seed:
// fresh users, then waves of concurrent requests from a seeded plan (test/support/model/plan.ts)
// — idempotent publishes and their retries, racing deletes, refollows, unfollows racing the
// fan-out they follow; likes (racing likes of one user, like racing unlike), comments and
// their deletes (racing ones too), plain reposts (twice at once: one post) and reposts with a
// comment, reposts of reposts, deleted originals; bookmarks (收藏: racing bookmarks of one user,
// a bookmark racing its removal); users leaving (注销: the profile and their posts 404 at once),
// a like of theirs in flight, and logging in again (restored: nothing lost); a reference model
// follows the answers. Once
// the fan-out queue has drained, every timeline, author list, following/followers list, count
// and post must equal the model — every post view with its exact like / comment / repost
// counts, each reader's own liked / reposted / bookmarked, and a repost's original (live, or
// 'deleted'); each user's bookmarks; and the comments (both orders) and likers of every post
// reacted to. Blocks and mutes (racing
// follows too), refused requests across a block, and posts that mention other users: timelines
// must leave out what the reader must not see, reads across a block answer 403 `blocked`, and
// each user's like and mention notifications must equal the model wherever it can state them
// exactly (no block or mute between the two users changed while a delivery could run). All
// differences of a seed are reported together, with the seed to replay it: MODEL_SEED=<n> replays one seed;
// MODEL_SEEDS / MODEL_OPS scale it up (npm run test:soak).
import { afterAll, beforeAll, describe, inject, it } from 'vitest';
import { localSqsClient } from '../../infra/local/sqs-poller.js';
import { apiClient } from '../support/api.js';
import { compareWithModel, type CompareStats } from '../support/model/compare.js';
import { Driver, ModelLost, registerActor, type Actor } from '../support/model/driver.js';
import { handleOf, makePlan } from '../support/model/plan.js';
import { ReferenceModel } from '../support/model/reference-model.js';
import { queueCounts, queueDrained } from '../support/queue.js';

const client = apiClient(inject('apiUrl'));
type Api = typeof client;
/** The API with the requests sent counted, for a seed's log line (the cost of a seed, comparable between runs). */
function countingApi(): { api: Api; sent: () => number } {
  let requests = 0;
  return { api: { ...client, call: (...args) => (requests++, client.call(...args)) }, sent: () => requests };
}
const sqs = localSqsClient(inject('sqsEndpoint'));
afterAll(() => sqs.destroy());

/** Request groups per seed (one to three requests each): 4 seeds of 150 take 1–2 minutes, API start included. */
const OPS = Number(process.env.MODEL_OPS ?? 150);
const SEEDS = process.env.MODEL_SEED ? [Number(process.env.MODEL_SEED)] : randomSeeds(Number(process.env.MODEL_SEEDS ?? 4));

/** New seeds every run (a fixed plan would only ever test the interleavings it happens to cause). */
function randomSeeds(count: number): number[] {
  const base = Math.floor(Math.random() * 1_000_000);
  return Array.from({ length: count }, (_, i) => base + i);
}

// Work left by earlier test files (a poison message on its way to the DLQ) is not this test's.
beforeAll(() => queueDrained(sqs, inject('fanoutQueueUrl'), 170_000, 1_000), 180_000);

/**
 * Seeds checked side by side (MODEL_PARALLEL, default 2): a seed spends most of its time waiting
 * (answers, the settle window, the drain), and each has users of its own. Both wait for the
 * whole queue to drain, so each still compares a settled world.
 */
const PARALLEL = Math.max(1, Number(process.env.MODEL_PARALLEL ?? 2));

describe('model check: concurrent requests against a reference model', () => {
  for (let i = 0; i < SEEDS.length; i += PARALLEL) {
    const group = SEEDS.slice(i, i + PARALLEL);
    it(`seed${group.length > 1 ? 's' : ''} ${group.join(', ')}`, async () => {
      const failed = (await Promise.allSettled(group.map(checkSeed))).flatMap((r) => (r.status === 'rejected' ? [r.reason] : []));
      if (failed.length > 0) throw new Error(failed.map((e) => (e instanceof Error ? e.message : String(e))).join('\n'));
    }, 180_000 + OPS * 3_000 * group.length);
  }
});

async function checkSeed(seed: number): Promise<void> {
  const plan = makePlan(seed, OPS);
  const reposts = plan.slots.filter((s) => s.repost).length;
  const steps = plan.waves.flat().flatMap((g) => [...g.tasks.flat(), ...(g.decider ? [g.decider] : [])]);
  const counted = (kind: string) => steps.filter((s) => s.kind === kind).length;
  const mentioning = plan.slots.filter((s) => !s.repost && s.body.includes('@')).length;
  console.log(
    `[model-check] seed ${seed}: ${plan.waves.length} waves, ${plan.slots.length - reposts} posts (${mentioning} mentioning), ${reposts} reposts, ${plan.comments.length} comments, ` +
      `${counted('block')} blocks (${counted('followRacingBlock')} raced by a follow), ${counted('unblock')} unblocks, ${counted('refused')} refused across a block, ${counted('mute')} mutes, ${counted('unmute')} unmutes, ` +
      `${counted('bookmark')} bookmarks, ${counted('unbookmark')} unbookmarks, ${counted('edit')} edits (${steps.filter((s) => s.kind === 'edit' && s.racing).length} racing another edit or a delete), ` +
      `${counted('leave')} leaves and restores (${plan.waves.flat().filter((g) => g.label === 'leave → restore, a like in flight').length} with a like in flight)`,
  );
  const started = Date.now();
  const { api, sent } = countingApi();
  const users = await Promise.all(Array.from({ length: plan.users }, (_, i) => register(api, handleOf(seed, i))));
  const model = new ReferenceModel(users.map((u) => u.handle));
  const driver = new Driver(api, plan, users, model);
  const deadBefore = await deadLetters();
  const findings: string[] = [];
  const stats: CompareStats = { views: 0, commentLists: 0, likerLists: 0, notifications: 0, notificationsSkipped: 0 };
  try {
    for (const [wave, groups] of plan.waves.entries()) await driver.runWave(wave, groups);
    const waves = { ms: Date.now() - started, requests: sent() };
    await queueDrained(sqs, inject('fanoutQueueUrl'), 120_000, 1_000);
    const settled = Date.now();
    findings.push(...(await compareWithModel(api, model, users, stats)));
    console.log(
      `[model-check] seed ${seed}: waves ${waves.requests} requests in ${(waves.ms / 1000).toFixed(0)} s; settled after ${((settled - started - waves.ms) / 1000).toFixed(0)} s; ` +
        `compare ${sent() - waves.requests} requests in ${((Date.now() - settled) / 1000).toFixed(0)} s: ${stats.views} post views, ${stats.commentLists} comments lists, ${stats.likerLists} likers lists, ` +
        `${stats.notifications} like/repost/mention notifications (${stats.notificationsSkipped} not exact, skipped)`,
    );
    const dead = (await deadLetters()) - deadBefore;
    if (dead > 0) findings.push(`${dead} fan-out message(s) reached the DLQ during this seed: work the worker gave up on`);
  } catch (err) {
    // Whatever stopped the seed is reported with what the waves found before it.
    findings.push(err instanceof ModelLost ? err.message : `stopped: ${err instanceof Error ? err.stack : String(err)}`);
  }
  const all = [...driver.mismatches, ...findings];
  if (all.length > 0) {
    throw new Error(`seed ${seed}: ${all.length} mismatch(es) — replay with MODEL_SEED=${seed} MODEL_OPS=${OPS}\n${all.map((m) => `  - ${m}`).join('\n')}`);
  }
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
