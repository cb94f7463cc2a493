// test/e2e/live.test.ts — the live channel through serverless-offline's WebSocket API, with the
// real queue and worker on the real HBase: authentication at connect, a post and a notification
// pushed to a follower's socket, catch-up across a dropped socket (the five posts arrive once
// each, in order), a position too old for the log (a reset), and the frames that are refused.
import { readFileSync } from 'node:fs';
import { afterAll, describe, expect, inject, it } from 'vitest';
import { HBaseLiveStore } from '../../shared/adapters/hbase/hbase-live-store.js';
import { HBaseRestClient } from '../../shared/hbase/index.js';
import { hmacPositionSeal } from '../../shared/auth/positions.js';
import { issueToken } from '../../shared/auth/tokens.js';
import { EVENT_LOG_TTL_SECONDS, FRAME_MAX_BYTES } from '../../shared/domain/live.js';
import { apiClient } from '../support/api.js';
import { eventually } from '../support/eventually.js';
import { openLive, type Frame, type LiveSocket } from '../support/live-socket.js';

const api = apiClient(inject('apiUrl'));
const liveUrl = inject('liveUrl');
const hbase = new HBaseRestClient({ baseUrl: inject('hbaseRestUrl'), timeoutMs: 30_000 });
const liveStore = new HBaseLiveStore(hbase, inject('e2eNamespace'));
afterAll(() => hbase.close());

interface User {
  handle: string;
  token: string;
}

/** Every token a socket of this file was opened with: none may reach the log. */
const tokens: string[] = [];
async function newUser(prefix: string): Promise<User> {
  const u = await api.newUser(prefix);
  tokens.push(u.token);
  return u;
}

async function publish(u: User, body: string): Promise<string> {
  const res = await api.call('POST', '/posts', { token: u.token, body: { body } });
  if (res.status !== 201 || typeof res.json?.id !== 'string') throw new Error(`publish: ${res.status} ${res.text}`);
  return res.json.id;
}

async function follow(u: User, other: User) {
  const res = await api.call('PUT', `/users/${u.handle}/following/${other.handle}`, { token: u.token });
  expect(res.status).toBe(200);
}

/** Opens A's socket and takes the log's position (resume without one). */
async function connected(u: User): Promise<{ socket: LiveSocket; position: string }> {
  const socket = await openLive(liveUrl, u.token);
  const answer = await socket.ask({ action: 'resume' });
  expect(answer).toMatchObject({ type: 'events', events: [], reset: false });
  return { socket, position: answer.position as string };
}

const postIds = (frames: Frame[]) =>
  frames.flatMap((f) =>
    f.type === 'event' && (f.event as { kind: string }).kind === 'post' ? [(f.event as { postId: string }).postId] : [],
  );

describe('the live channel', () => {
  it('refuses a connection without a token, with a bad or expired one, or without the protocol', async () => {
    const [a] = await Promise.all([newUser('lva')]);
    await expect(openLive(liveUrl, '', ['weibo-live.v1'])).rejects.toThrow(/401|Unexpected/);
    await expect(openLive(liveUrl, 'not.a.token')).rejects.toThrow(/401|Unexpected/);
    await expect(openLive(liveUrl, a.token, [`bearer.${a.token}`])).rejects.toThrow(/401|Unexpected/);
    // A well-signed token of the user that expired a minute ago.
    const { token: expired } = await issueToken(
      a.handle,
      { secret: inject('jwtSecret'), ttlSeconds: 60 },
      Date.now() - 120_000,
    );
    await expect(openLive(liveUrl, expired)).rejects.toThrow(/401|Unexpected/);
  });

  it("pushes a followee's post and a notification to the reader's socket", async () => {
    const [a, b] = await Promise.all([newUser('lvr'), newUser('lvb')]);
    await follow(a, b);
    const { socket } = await connected(a);
    try {
      const id = await publish(b, 'live: hello followers');
      const pushed = await socket.next((f) => f.type === 'event' && postIds([f])[0] === id, 30_000);
      expect(pushed.event).toMatchObject({ kind: 'post', postId: id, author: b.handle });
      // B likes A's post: A is told of a notification.
      const mine = await publish(a, 'live: like me');
      expect((await api.call('PUT', `/users/${b.handle}/likes/${mine}`, { token: b.token })).status).toBeLessThan(300);
      const told = await socket.next(
        (f) => f.type === 'event' && (f.event as { kind: string }).kind === 'notification',
        30_000,
      );
      expect(told.event).toMatchObject({ kind: 'notification', type: 'like' });
    } finally {
      await socket.close();
    }
  });

  it('a dropped socket misses nothing: the five posts arrive once each, in order, on resume', async () => {
    const [a, b] = await Promise.all([newUser('lvd'), newUser('lve')]);
    await follow(a, b);
    const first = await connected(a);
    await first.socket.close();
    const ids: string[] = [];
    for (let i = 1; i <= 5; i++) ids.push(await publish(b, `live: missed ${i}`));
    // Delivered while no socket was open: in A's timeline, and so (fan-out wrote it) in A's log.
    await eventually(async () => {
      const page = await api.call('GET', `/users/${a.handle}/timeline`, { token: a.token });
      expect(page.json.posts.map((p: { id: string }) => p.id)).toEqual(expect.arrayContaining(ids));
    }, 60_000);
    const again = await openLive(liveUrl, a.token);
    try {
      const caught = await again.ask({ action: 'resume', after: first.position });
      expect(caught.reset).toBe(false);
      // Each once, at the next positions of A's log, in the order the worker logged them (the
      // fan-out of five posts runs concurrently; each post's place in the timeline is its own time).
      const events = caught.events as { kind: string; postId: string; position: string }[];
      expect(events.map((e) => e.postId).sort()).toEqual([...ids].sort());
      const from = Number((first.position as string).split('.')[0]);
      expect(events.map((e) => Number(e.position.split('.')[0]))).toEqual([1, 2, 3, 4, 5].map((i) => from + i));
      const after = await again.ask({ action: 'resume', after: caught.position });
      expect(after).toMatchObject({ events: [], reset: false });
    } finally {
      await again.close();
    }
  });

  it('a position older than the log keeps is a reset; refused frames change nothing', async () => {
    const [a, other] = await Promise.all([newUser('lvo'), newUser('lvq')]);
    const { socket } = await connected(a);
    try {
      const key = (await liveStore.read(a.handle, 0, 1)).sealKey ?? '';
      const old = hmacPositionSeal.seal(key, 0, Date.now() - EVENT_LOG_TTL_SECONDS * 1000);
      expect(await socket.ask({ action: 'resume', after: old })).toMatchObject({ type: 'events', reset: true });
      const theirs = await connected(other);
      await theirs.socket.close();
      expect(await socket.ask({ action: 'resume', after: theirs.position })).toMatchObject({
        type: 'error',
        code: 'invalid_position',
      });
      expect(await socket.ask({ action: 'subscribe' })).toMatchObject({ type: 'error', code: 'unknown_action' });
      expect(await socket.ask('{not json')).toMatchObject({ type: 'error', code: 'malformed_frame' });
      expect(await socket.ask({ action: 'ping', pad: 'x'.repeat(FRAME_MAX_BYTES) })).toMatchObject({
        type: 'error',
        code: 'frame_too_large',
      });
      expect(await socket.ask({ action: 'renew', token: other.token })).toMatchObject({
        type: 'error',
        code: 'wrong_user',
      });
      expect(await socket.ask({ action: 'ping' })).toMatchObject({ type: 'pong' });
    } finally {
      await socket.close();
    }
  });

  it('keeps the tokens out of the log', () => {
    const log = readFileSync(inject('offlineLogFile'), 'utf8');
    expect(log).toContain('live connection opened');
    for (const token of tokens) expect(log).not.toContain(token);
  });
});
