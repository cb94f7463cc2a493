// test/e2e/scale.test.ts — the scale behaviour over HTTP on the real stack: the celebrity hybrid
// (this API runs with CELEBRITY_FOLLOWERS=3) crossed in both directions, and an inactive reader
// whose inbox is regenerated on return (206 while it happens).
import { SendMessageCommand, SQSClient } from '@aws-sdk/client-sqs';
import { afterAll, describe, expect, inject, it } from 'vitest';
import { HBaseRestClient, bytesToString } from '../../shared/hbase/index.js';
import { userKey } from '../../shared/schema/row-keys.js';
import { qualifiedTableName } from '../../shared/schema/tables.js';
import { apiClient, type ApiResponse } from '../support/api.js';
import { eventually } from '../support/eventually.js';
import { handledFor, newCorrelationId } from '../support/queue.js';

const api = apiClient(inject('apiUrl'));
const ns = inject('e2eNamespace');
const hbase = new HBaseRestClient({ baseUrl: inject('hbaseRestUrl') });
const sqs = new SQSClient({
  endpoint: inject('sqsEndpoint'),
  region: 'us-east-1',
  credentials: { accessKeyId: 'local', secretAccessKey: 'local' },
});
afterAll(async () => {
  sqs.destroy();
  await hbase.close();
});

type User = { handle: string; token: string };
const post = async (u: User, body: string, correlationId?: string) =>
  (
    await api.call('POST', '/posts', {
      token: u.token,
      body: { body },
      ...(correlationId ? { headers: { 'x-correlation-id': correlationId } } : {}),
    })
  ).json as { id: string };
const follow = (u: User, t: User) => api.call('PUT', `/users/${u.handle}/following/${t.handle}`, { token: u.token });
const unfollow = (u: User, t: User) =>
  api.call('DELETE', `/users/${u.handle}/following/${t.handle}`, { token: u.token });
const timeline = (u: User) => api.call('GET', `/users/${u.handle}/timeline`, { token: u.token });
const bodies = (r: ApiResponse) => (r.json.posts as { body: string }[]).map((p) => p.body);

/** The post ids fan-out actually wrote into a reader's inbox row (not what the read merges in). */
async function inboxCells(u: User): Promise<number> {
  const row = await hbase
    .getRow(qualifiedTableName(ns, 'inbox'), userKey(u.handle), { columns: ['i'] })
    .catch(() => null);
  return row?.cells.length ?? 0;
}
const isCelebrity = async (u: User) => {
  const row = await hbase.getRow(qualifiedTableName(ns, 'users'), userKey(u.handle), { columns: ['p:celeb'] });
  return row?.cells[0] ? bytesToString(row.cells[0].value) === '1' : false;
};

describe('celebrity hybrid (threshold 3 followers)', () => {
  it('promotes at the threshold, stops fanning out, merges at read time; demotes below it and fans out again', async () => {
    const star = await api.newUser('star');
    const fans = [await api.newUser('fan'), await api.newUser('fan'), await api.newUser('fan')];
    await follow(fans[0]!, star);
    await follow(fans[1]!, star);
    await post(star, 'one');
    await eventually(async () => expect(bodies(await timeline(fans[0]!))).toEqual(['one']));
    expect(await inboxCells(fans[0]!)).toBe(1);

    await follow(fans[2]!, star); // third follower: crosses the threshold
    await eventually(async () => expect(await isCelebrity(star)).toBe(true));
    const publishedTwo = newCorrelationId('star-two');
    await post(star, 'two', publishedTwo);
    for (const f of fans) {
      await eventually(async () => expect(bodies(await timeline(f))).toEqual(['two', 'one']));
    }
    // The post's fan-out message has run: a (wrong) fan-out would have happened by now.
    await handledFor(inject('offlineLogFile'), publishedTwo, { fanout: 1 });
    expect(await inboxCells(fans[0]!)).toBe(1); // 'two' was merged at read time, not written
    expect((await api.call('GET', `/users/${star.handle}`)).json.followers).toBe(3);

    await unfollow(fans[2]!, star);
    await unfollow(fans[1]!, star); // 1 follower < 0.9 × 3: demoted
    await eventually(async () => expect(await isCelebrity(star)).toBe(false));
    await post(star, 'three');
    await eventually(async () => expect(bodies(await timeline(fans[0]!))).toEqual(['three', 'two', 'one']));
    expect(await inboxCells(fans[0]!)).toBe(3); // 'two' copied in by the demotion, 'three' fanned out
    // fans[1]'s inbox is purged through the queue, and a demotion walk that read fans[1] as a
    // follower may copy 'two' in after that purge: its settle, W later, purges again
    // (docs/consistency.md, "the settle message"). Converged within W, not at once.
    await eventually(async () => expect(bodies(await timeline(fans[1]!))).toEqual([]), 30_000);
  });
});

describe('inactive readers', () => {
  it('get no fan-out while away; on return the timeline answers 206 until regenerated, then 200 with what fan-out would have written', async () => {
    const [author, away, active] = [await api.newUser('au'), await api.newUser('away'), await api.newUser('act')];
    await follow(away, author);
    await follow(active, author);
    expect((await timeline(away)).status).toBe(200); // records activity
    // Forty days pass for `away` (the window is 30): move its last-seen mark back.
    const seenAt = Date.now() - 40 * 86_400_000;
    await hbase.put(qualifiedTableName(ns, 'inbox'), [
      { key: userKey(away.handle), cells: [{ column: 'm:seen', value: String(seenAt) }] },
    ]);
    // What the daily away sweep queues for such a reader (its walk is tested in
    // test/integration/jobs.test.ts); the worker marks the follows, fan-out then skips them.
    await sqs.send(
      new SendMessageCommand({
        QueueUrl: inject('fanoutQueueUrl'),
        MessageBody: JSON.stringify({ v: 1, type: 'away', reader: away.handle, seenAt }),
      }),
    );
    await eventually(async () => {
      const row = await hbase.getRow(qualifiedTableName(ns, 'inbox'), userKey(away.handle), { columns: ['m:away'] });
      expect(row ? bytesToString(row.cells[0]!.value) : null).toBe(String(seenAt));
    });

    const p1 = await post(author, 'while you were away 1');
    const p2 = await post(author, 'while you were away 2');
    await eventually(async () =>
      expect(bodies(await timeline(active))).toEqual(['while you were away 2', 'while you were away 1']),
    );
    expect(await inboxCells(away)).toBe(0); // skipped by fan-out

    const back = await timeline(away);
    expect(back.status).toBe(206);
    expect(back.json.regenerating).toBe(true);
    const done = await eventually(async () => {
      const r = await timeline(away);
      expect(r.status).toBe(200);
      return r;
    });
    expect(done.json.regenerating).toBe(false);
    expect(done.json.posts.map((p: { id: string }) => p.id)).toEqual([p2.id, p1.id]);
  });
});
