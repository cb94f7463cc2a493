// test/integration/live-log.test.ts — the event log of the live channel on the real stack
// (docs/consistency.md S): appends racing for one reader's head land at dense positions, in
// order, each once; a redelivered event is logged once; a reader never connected is not logged
// for; a client resumes from a sealed position and gets exactly what came after it, or a reset
// when the log no longer holds it; a position of another reader, forged or malformed, is refused.
import { randomBytes } from 'node:crypto';
import { describe, expect, inject, it } from 'vitest';
import { HBaseLiveStore } from '../../shared/adapters/hbase/hbase-live-store.js';
import { hmacPositionSeal } from '../../shared/auth/positions.js';
import { EVENT_LOG_READ_MAX, EVENT_LOG_TTL_SECONDS, type LiveEvent } from '../../shared/domain/live.js';
import { InvalidInputError } from '../../shared/domain/errors.js';
import { HBaseRestClient } from '../../shared/hbase/index.js';
import { userKey } from '../../shared/schema/row-keys.js';
import { qualifiedTableName } from '../../shared/schema/tables.js';
import { announce, openConnection, readEvents, receiveFrame } from '../../shared/use-cases/live.js';
import { interleaver } from '../support/interleave.js';
import { useNamespace } from '../support/namespace.js';

const hbase = new HBaseRestClient({ baseUrl: inject('hbaseRestUrl'), timeoutMs: 30_000 });
const ns = `it_live_${randomBytes(3).toString('hex')}`;
useNamespace(hbase, ns);

const gate = interleaver();
const store = new HBaseLiveStore(hbase, ns, {
  beforeWrite: (reader, position) => gate.hook('live.head-read', { reader, position: String(position) }),
});
const positions = hmacPositionSeal;
/** The reader's own seal key (made at its first connect). */
const keyOf = async (reader: string) => (await store.read(reader, 0, 1)).sealKey ?? '';
const sent: { id: string; frame: unknown }[] = [];
const push = {
  send: async (id: string, frame: unknown) => {
    sent.push({ id, frame });
    return 'sent' as const;
  },
  disconnect: async () => {},
};
const deps = { live: store, push, positions };

let n = 0;
const fresh = () => `lv${(n++).toString(36)}${randomBytes(2).toString('hex')}`;
const post = (i: number): LiveEvent => ({ kind: 'post', postId: `p${i}`, author: 'someone' });

/** A reader who connected just now (present: events are logged for them). */
async function present(reader: string, connectionId = `c-${reader}`) {
  await store.open({ id: connectionId, handle: reader, expiresAt: Date.now() + 600_000 }, Date.now());
}

describe('the event log (invariant S)', () => {
  it('two appends racing for one head: dense positions, in order, each once', async () => {
    const reader = fresh();
    await present(reader);
    const held = gate.holdAt('live.head-read', (d) => d.reader === reader);
    const first = store.append([reader], 'post.p1', post(1), Date.now());
    await held.reached; // p1 read head 0 and waits before its check-and-put at position 1
    const [second] = await store.append([reader], 'post.p2', post(2), Date.now());
    expect(second?.position).toBe(1);
    held.release();
    const [late] = await first; // lost the check on s:n, read again, landed at 2
    expect(late?.position).toBe(2);
    const read = await store.read(reader, 0, 10);
    expect(read.events.map((e) => [e.position, (e.event as { postId: string }).postId])).toEqual([
      [1, 'p2'],
      [2, 'p1'],
    ]);
    expect(read.head).toBe(2);
    expect(read.gap).toBe(false);
  });

  it('a redelivered event is logged once; a reader never connected is not logged for', async () => {
    const [reader, absent] = [fresh(), fresh()];
    await present(reader);
    const once = await store.append([reader, absent], 'post.p7', post(7), Date.now());
    const again = await store.append([reader, absent], 'post.p7', post(7), Date.now());
    expect(once.map((a) => [a.reader, a.position, a.fresh])).toEqual([[reader, 1, true]]);
    expect(again.map((a) => [a.reader, a.position, a.fresh])).toEqual([[reader, 1, false]]);
    expect((await store.read(reader, 0, 10)).events).toHaveLength(1);
    expect(await store.read(absent, 0, 10)).toMatchObject({ events: [], head: 0 });
  });

  it('an announcement pushes to each open connection of the readers it logged for', async () => {
    const reader = fresh();
    await present(reader, `a-${reader}`);
    await store.open({ id: `b-${reader}`, handle: reader, expiresAt: Date.now() + 600_000 }, Date.now());
    const outcome = await announce(deps, [reader], post(3), Date.now());
    expect(outcome).toMatchObject({ logged: 1, pushed: 2 });
    const frames = sent.filter((s) => s.id.endsWith(reader));
    expect(frames.map((f) => f.id).sort()).toEqual([`a-${reader}`, `b-${reader}`]);
    const position = (frames[0]!.frame as { event: { position: string } }).event.position;
    expect(positions.open(await keyOf(reader), position)?.position).toBe(1);
  });

  it('a delivery cut after logging, before its pushes: the repeat pushes at the same position, logs nothing', async () => {
    const reader = fresh();
    await present(reader, `r-${reader}`);
    await store.append([reader], 'post.p8', post(8), Date.now()); // logged; the invocation ends here
    const before = sent.length;
    expect(await announce(deps, [reader], post(8), Date.now())).toMatchObject({ logged: 0, pushed: 1 });
    const frame = sent.slice(before).find((s) => s.id === `r-${reader}`)?.frame as { event: { position: string } };
    expect(positions.open(await keyOf(reader), frame.event.position)?.position).toBe(1);
    expect((await store.read(reader, 0, 10)).events).toHaveLength(1);
  });

  it('resume: exactly the events after the position, in order, each once; then nothing', async () => {
    const reader = fresh();
    await present(reader);
    const start = await readEvents(deps, reader, undefined, Date.now());
    expect(start).toMatchObject({ events: [], reset: false });
    for (let i = 1; i <= 5; i++) await store.append([reader], `post.q${i}`, post(10 + i), Date.now());
    const caught = await readEvents(deps, reader, start.position, Date.now());
    expect(caught.reset).toBe(false);
    expect(caught.events.map((e) => (e as { postId: string }).postId)).toEqual(['p11', 'p12', 'p13', 'p14', 'p15']);
    const again = await readEvents(deps, reader, caught.position, Date.now());
    expect(again).toMatchObject({ events: [], reset: false });
  });

  it('a position the log no longer holds the events after (expired, too far behind, too old) is a reset', async () => {
    const reader = fresh();
    await present(reader);
    const start = await readEvents(deps, reader, undefined, Date.now());
    await store.append([reader], 'post.e1', post(21), Date.now());
    await store.append([reader], 'post.e2', post(22), Date.now());
    // The first event expired (its TTL): the second is no longer "the next".
    await hbase.deleteColumn(qualifiedTableName(ns, 'live'), userKey(reader), `e:${'1'.padStart(12, '0')}`);
    expect(await readEvents(deps, reader, start.position, Date.now())).toMatchObject({ events: [], reset: true });
    // Handed out longer ago than the presence mark it was handed under lives.
    const old = positions.seal(await keyOf(reader), 2, Date.now() - EVENT_LOG_TTL_SECONDS * 1000);
    expect(await readEvents(deps, reader, old, Date.now())).toMatchObject({ events: [], reset: true });
  });

  it('more events than one read returns: a reset, not a partial page', async () => {
    const reader = fresh();
    await present(reader);
    const start = await readEvents(deps, reader, undefined, Date.now());
    const readers = Array.from({ length: EVENT_LOG_READ_MAX + 1 }, (_, i) => i);
    for (const i of readers) await store.append([reader], `post.m${i}`, post(100 + i), Date.now());
    expect(await readEvents(deps, reader, start.position, Date.now())).toMatchObject({ events: [], reset: true });
  });

  it("another reader's position, a forged one and a malformed one are refused", async () => {
    const [reader, other] = [fresh(), fresh()];
    await Promise.all([present(reader), present(other)]);
    await store.append([other], 'post.x', post(30), Date.now());
    const theirs = (await readEvents(deps, other, undefined, Date.now())).position;
    const forged = `${positions
      .seal(await keyOf(reader), 0, Date.now())
      .split('.')
      .slice(0, 2)
      .join('.')}.${'A'.repeat(22)}`;
    for (const bad of [theirs, forged, 'not-a-position', '5']) {
      await expect(readEvents(deps, reader, bad, Date.now())).rejects.toBeInstanceOf(InvalidInputError);
    }
  });

  it('a connection lives no longer than its session: a frame after it ends the connection, a push after it is not sent', async () => {
    const reader = fresh();
    const ended: string[] = [];
    const tokens = { verify: async () => ({ handle: reader, expiresAt: Date.now() + 60_000 }) };
    const live = { ...deps, push: { ...push, disconnect: async (id: string) => void ended.push(id) }, tokens };
    const relations = { following: async () => ({ items: [] }), followSinces: async () => [] };
    const opened = await openConnection({ ...live, relations }, `x-${reader}`, 'token', Date.now());
    expect(await receiveFrame(live, opened.id, '{"action":"ping"}', Date.now())).toMatchObject({ type: 'pong' });
    // Past the session's end: the frame is answered `expired`, and the connection is gone.
    const later = opened.expiresAt + 1;
    expect(await receiveFrame(live, opened.id, '{"action":"ping"}', later)).toEqual({ type: 'expired' });
    expect(ended).toEqual([opened.id]);
    expect(await store.connection(opened.id)).toBeNull();
    // A second connection, also past its session when an event comes: not pushed to, and removed.
    await store.open({ id: `y-${reader}`, handle: reader, expiresAt: Date.now() - 1 }, Date.now());
    const before = sent.length;
    expect(await announce(live, [reader], post(40), Date.now())).toMatchObject({ logged: 1, pushed: 0, gone: 1 });
    expect(sent.length).toBe(before);
    expect(await store.connection(`y-${reader}`)).toBeNull();
  });

  it('a push that fails outright is sent once more; one that fails twice is given up, the event logged', async () => {
    const reader = fresh();
    await present(reader, `f-${reader}`);
    let calls = 0;
    const flaky = {
      ...deps,
      push: {
        ...push,
        send: async () => {
          if (++calls === 1) throw new Error('socket hang up');
          return 'sent' as const;
        },
      },
    };
    expect(await announce(flaky, [reader], post(45), Date.now())).toMatchObject({ logged: 1, pushed: 1 });
    expect(calls).toBe(2);
    const failing = {
      ...deps,
      push: {
        ...push,
        send: async () => {
          calls++;
          throw new Error('socket hang up');
        },
      },
    };
    expect(await announce(failing, [reader], post(46), Date.now())).toMatchObject({ logged: 1, pushed: 0, gone: 0 });
    expect(calls).toBe(4);
    expect(await store.connection(`f-${reader}`)).not.toBeNull();
    expect((await store.read(reader, 0, 10)).events).toHaveLength(2);
  });

  it('a push that finds the connection gone (410) removes it; the event stays in the log', async () => {
    const reader = fresh();
    await present(reader, `g-${reader}`);
    const gone = { ...deps, push: { ...push, send: async () => 'gone' as const } };
    expect(await announce(gone, [reader], post(50), Date.now())).toMatchObject({ logged: 1, pushed: 0, gone: 1 });
    expect(await store.connection(`g-${reader}`)).toBeNull();
    expect((await store.read(reader, 0, 10)).events).toHaveLength(1);
  });
});
