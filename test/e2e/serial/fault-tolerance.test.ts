// test/e2e/serial/fault-tolerance.test.ts — the outage drill on the real stack: while 600 posts fan
// out through the real queue, poller and worker, 50 of them are deleted (their retractions
// queued) and the HBase REST gateway is stopped for several seconds and started again. After
// the queue redelivers what failed: every follower's inbox holds exactly the live posts (no
// post lost, no deleted post left behind or written back by a late fan-out), every publish
// retried with its idempotency key creates nothing new, and not one message reached the DLQ (the
// retries absorbed the outage; that a genuinely poisonous message does reach it is
// test/e2e/fanout-queue.test.ts's). It stops the gateway everyone uses, and waits for the whole
// queue to drain: it runs in the serial e2e project (vitest.config.ts), alone.
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { SendMessageBatchCommand, SQSClient } from '@aws-sdk/client-sqs';
import { afterAll, describe, expect, inject, it } from 'vitest';
import { hbaseFeedStores } from '../../../shared/wiring/feed.js';
import { forEachLimit, mapLimit } from '../../../shared/runtime/concurrency.js';
import { HBaseRestClient } from '../../../shared/hbase/index.js';
import { postKeyFromInboxQualifier, userKey } from '../../../shared/schema/row-keys.js';
import { postIdFromKey } from '../../../shared/schema/row-keys.js';
import { queueCounts, queueDrained } from '../../support/queue.js';
import { qualifiedTableName } from '../../../shared/schema/tables.js';
import type { FanoutMessage } from '../../../shared/ports/fanout-queue.js';
import { SqsFanoutQueue } from '../../../shared/adapters/sqs/sqs-queues.js';
import { GoneError } from '../../../shared/domain/errors.js';
import type { FeedDeps } from '../../../shared/use-cases/feed-deps.js';
import { deletePost } from '../../../shared/use-cases/posts.js';
import { publishPost } from '../../../shared/use-cases/publish-post.js';

const ROOT = fileURLToPath(new URL('../../..', import.meta.url));
const STACK = `${ROOT}infra/local/stack.sh`;
const ns = inject('e2eNamespace');
const queueUrl = inject('fanoutQueueUrl');
const hbase = new HBaseRestClient({ baseUrl: inject('hbaseRestUrl'), timeoutMs: 30_000, retries: 6 });
const sqs = new SQSClient({
  endpoint: inject('sqsEndpoint'),
  region: 'us-east-1',
  credentials: { accessKeyId: 'local', secretAccessKey: 'local' },
});
afterAll(async () => {
  sqs.destroy();
  await hbase.close();
});

// 600 posts: the outage lands after 50 to 150 of them (the first follower's 50, then the deletes
// and the stop, which take longer on a busy machine), with most of the fan-out still ahead
// (asserted below). At 1,000 the drain after the outage alone took 90 s of the suite's serial
// phase, and proved nothing more.
const POSTS = 600;
const FOLLOWERS = 8;
/** Deleted while the fan-out runs, just before the outage: their retractions hit it too. */
const DELETED = 50;
/** Only drill a gateway this project's stack script runs (never someone else's cluster). */
const ownsGateway = !process.env.HBASE_REST_URL?.startsWith('https://') && existsSync(`${ROOT}.local/hbase/rest.pid`);

async function inboxPostIds(reader: string): Promise<string[]> {
  const row = await hbase
    .getRow(qualifiedTableName(ns, 'inbox'), userKey(reader), { columns: ['i'] })
    .catch(() => null);
  return (row?.cells ?? []).map((c) => postIdFromKey(postKeyFromInboxQualifier(c.qualifier)));
}

describe.runIf(ownsGateway)('outage drill', () => {
  it('loses nothing, resurrects nothing and creates nothing twice when the REST gateway disappears mid fan-out; nothing reaches the DLQ', async () => {
    const stores = hbaseFeedStores(hbase, ns);
    // Fan-out messages are held back while publishing, then enqueued in quick batches, so the
    // outage can be placed early in the fan-out rather than wherever publishing happens to end.
    const held: FanoutMessage[] = [];
    const deps: FeedDeps = {
      ...stores,
      queue: { send: async (m) => void held.push(m) },
      limits: {
        fanoutChunkSize: 1000,
        fanoutChunksPerMessage: 5,
        backfillLimit: 200,
        inboxCap: 5000,
        maxFollowing: 5000,
        celebrityFollowers: 10_000,
        inactiveAfterMs: 30 * 86_400_000,
        settleSeconds: 1,
        writesPerMinute: { comment: 1000, like: 1000, repost: 1000 },
      },
    };
    const run = Date.now().toString(36);
    const author = `drill_${run}`;
    const followers = Array.from({ length: FOLLOWERS }, (_, i) => `drill_${run}_f${i}`);
    for (const h of [author, ...followers])
      await stores.users.create({ handle: h, displayName: h, passwordHash: 'x', createdAt: Date.now() });
    for (const f of followers) await stores.relations.follow(f, author, Date.now()); // an existing graph: no backfill messages

    // Every message in the DLQ, counted: visible, received by an earlier reader, or delayed.
    // Earlier files' work is drained first, so nothing of theirs can land there meanwhile.
    const dlq = inject('fanoutDlqUrl');
    const allOf = async (url: string) => Object.values(await queueCounts(sqs, url)).reduce((a, b) => a + b, 0);
    await queueDrained(sqs, queueUrl, 170_000);
    const deadBefore = await allOf(dlq);

    const published: string[] = [];
    const request = (i: number) => ({ body: `drill post ${i}`, idempotencyKey: `drill-${i}` });
    // Eight at a time, as clients would: the drill is about the fan-out, not a publish queue.
    const indexes = Array.from({ length: POSTS }, (_, i) => i);
    published.push(...(await mapLimit(indexes, 8, async (i) => (await publishPost(deps, author, request(i))).post.id)));
    for (let i = 0; i < held.length; i += 10) {
      const batch = held.slice(i, i + 10);
      await sqs.send(
        new SendMessageBatchCommand({
          QueueUrl: queueUrl,
          Entries: batch.map((m, j) => ({ Id: String(j), MessageBody: JSON.stringify(m) })),
        }),
      );
    }

    // The outage, early in the fan-out: as soon as the first follower holds 50 posts. Right
    // before it, the first DELETED posts (already fanned out to some followers, not yet to
    // others) are deleted, their retractions queued through the real queue.
    let before = (await inboxPostIds(followers[0]!)).length;
    while (before < 50) {
      await new Promise((r) => setTimeout(r, 50));
      before = (await inboxPostIds(followers[0]!)).length;
    }
    const live = { ...deps, queue: new SqsFanoutQueue({ queueUrl, endpoint: inject('sqsEndpoint') }) };
    const deleted = published.slice(0, DELETED);
    await Promise.all(deleted.map((id) => deletePost(live, author, id)));
    const alive = published.slice(DELETED);
    execFileSync('bash', [STACK, 'stop', 'rest'], { stdio: 'inherit' });
    // The outage's length: the gateway is meant to stay away this long (no condition to await).
    await new Promise((r) => setTimeout(r, 6_000));
    execFileSync('bash', [STACK, 'start', 'hbase'], { stdio: 'inherit', timeout: 240_000 });
    // What the first follower holds the moment the gateway is back bounds what the fan-out had
    // done when it went (nothing was written meanwhile). `before` (read when it reached 50)
    // could not fail this check; this read, without the catch-all of inboxPostIds, can: an
    // outage that came after the fan-out would find it (nearly) complete.
    const row = await hbase.getRow(qualifiedTableName(ns, 'inbox'), userKey(followers[0]!), { columns: ['i'] });
    const atOutage = row?.cells.length ?? 0;
    const back = Date.now();
    console.log(
      `[drill] gateway was down ~6 s; first follower had ${before} entries before the deletes, ${atOutage}/${POSTS} when it came back`,
    );
    expect(atOutage).toBeGreaterThanOrEqual(before - DELETED); // the read is real (not an error read as empty)
    // The outage really hit with part of the fan-out ahead (one that came after it would find
    // all 600). The fan-out runs on while the 50 deletes are made, and faster since issue 22:
    // fresh-clone runs found 291, 421 and 451 of 600 delivered at the outage, so the bound is
    // a tenth ahead (60 posts the first follower still had to get), not a quarter.
    expect(atOutage).toBeLessThan(POSTS * 0.9);

    // Redelivery (visibility timeout) completes the fan-out and the retractions: exactly the
    // live posts, everywhere — a lost retraction, or a fan-out writing a deleted post back after
    // its retraction, would leave a deleted post in some inbox.
    await queueDrained(sqs, queueUrl, 240_000);
    console.log(`[drill] the queue drained ${((Date.now() - back) / 1000).toFixed(0)} s after the gateway came back`);
    for (const f of followers) {
      const ids = await inboxPostIds(f);
      expect(ids.length, f).toBe(alive.length);
      expect(new Set(ids), f).toEqual(new Set(alive));
    }

    // Every client retries every publish with its key (as after a timeout): nothing is created
    // twice, nothing deleted comes back.
    await forEachLimit(indexes, 8, async (i) => {
      const retry = publishPost(deps, author, request(i));
      if (i < DELETED) await expect(retry).rejects.toBeInstanceOf(GoneError);
      else expect((await retry).post.id).toBe(published[i]);
    });
    expect(await stores.counters.get(author, 'posts')).toBe(alive.length);
    const listed: string[] = [];
    let cursor: string | undefined;
    do {
      const page = await stores.posts.listByAuthor(author, 100, cursor);
      listed.push(...page.items.map((p) => p.id));
      cursor = page.nextCursor;
    } while (cursor);
    expect(listed.length).toBe(alive.length); // (same-millisecond posts order by their random suffix)
    expect(new Set(listed)).toEqual(new Set(alive));

    // Nothing was dead-lettered: every message the outage failed was retried to success (five
    // receives, a visibility timeout apart, outlast the outage), and the queue is empty.
    expect(await allOf(dlq), 'messages dead-lettered during the drill').toBe(deadBefore);
    expect(await allOf(queueUrl)).toBe(0);
  }, 600_000);
});
