// test/e2e/messages.test.ts — 私信 through the API (serverless-offline, the real stack) and the
// live channel's WebSocket API: two people talk (a retry sends once, 已读, a recall), each side's
// socket hears of it; a third person and an anonymous caller read nothing; the refusals and the
// write limit answer as the contract says.
import sharp from 'sharp';
import { describe, expect, inject, it } from 'vitest';
import { apiClient } from '../support/api.js';
import { eventually } from '../support/eventually.js';
import { openLive, type Frame } from '../support/live-socket.js';

const api = apiClient(inject('apiUrl'));
const liveUrl = inject('liveUrl');
/** How long a frame may take under the whole suite's load (a first frame loads the socket's function). */
const WAIT_MS = 30_000;
type User = Awaited<ReturnType<typeof api.newUser>>;

const send = (from: User, to: string, text: string, clientId = `e2e-${Math.random().toString(36).slice(2)}`) =>
  api.call('POST', `/users/${from.handle}/conversations/${to}/messages`, {
    token: from.token,
    body: { text, clientId },
  });
const conversationEvent = (change: string, peer: string) => (f: Frame) =>
  f.type === 'event' &&
  (f.event as { kind: string; change?: string; peer?: string }).kind === 'conversation' &&
  (f.event as { change: string }).change === change &&
  (f.event as { peer: string }).peer === peer;

/** A processed picture of `u`'s for a message (uploaded straight to storage, then completed). */
async function messagePicture(u: User): Promise<string> {
  const bytes = await sharp({ create: { width: 64, height: 48, channels: 3, background: { r: 20, g: 90, b: 200 } } })
    .png()
    .toBuffer();
  const declared = await api.call('POST', '/media', {
    token: u.token,
    body: { contentType: 'image/png', size: bytes.length, purpose: 'message' },
  });
  expect(declared.status).toBe(201);
  const { media, upload } = declared.json;
  expect((await fetch(upload.url, { method: 'PUT', headers: upload.headers, body: bytes })).status).toBe(200);
  expect((await api.call('POST', `/media/${media.id}/complete`, { token: u.token })).status).toBe(200);
  await eventually(
    async () => expect((await api.call('GET', `/media/${media.id}`, { token: u.token })).json.state).toBe('ready'),
    60_000,
  );
  return media.id as string;
}

describe('private messages through the API', () => {
  it('two people talk: a retry sends once, 已读 and a recall reach the other side’s socket', async () => {
    const [a, b] = await Promise.all([api.newUser('dm_a'), api.newUser('dm_b')]);
    // B follows A: A's first message is admitted (the default setting: people one follows).
    expect((await api.call('PUT', `/users/${b.handle}/following/${a.handle}`, { token: b.token })).status).toBe(200);
    const [sa, sb] = await Promise.all([openLive(liveUrl, a.token), openLive(liveUrl, b.token)]);
    try {
      await Promise.all([sa.ask({ action: 'resume' }, WAIT_MS), sb.ask({ action: 'resume' }, WAIT_MS)]);
      const heard = sb.next(conversationEvent('message', a.handle), WAIT_MS);
      const first = await send(a, b.handle, '你好', 'hello-1');
      expect(first.status).toBe(201);
      expect(first.json).toMatchObject({ state: 'open', message: { seq: 1, from: a.handle, text: '你好' } });
      expect((await heard).event).toMatchObject({ seq: 1 });
      // The same clientId again: 200 and the same message, nothing sent twice.
      const retry = await send(a, b.handle, '你好', 'hello-1');
      expect(retry.status).toBe(200);
      expect(retry.json.message.seq).toBe(1);

      const list = await api.call('GET', `/users/${b.handle}/conversations`, { token: b.token });
      expect(list.json.conversations).toHaveLength(1);
      expect(list.json.conversations[0]).toMatchObject({ peer: { handle: a.handle, left: false }, unread: 1 });
      expect((await api.call('GET', `/users/${b.handle}/message-badge`, { token: b.token })).json).toEqual({
        unread: 1,
        requests: 0,
      });

      // B reads: A hears 已读 and sees it on the page.
      const read = sa.next(conversationEvent('read', b.handle), WAIT_MS);
      const marked = await api.call('POST', `/users/${b.handle}/conversations/${a.handle}/read`, {
        token: b.token,
        body: { upTo: 1 },
      });
      expect(marked.json).toEqual({ readUpTo: 1 });
      expect((await read).event).toMatchObject({ seq: 1 });
      const page = await api.call('GET', `/users/${a.handle}/conversations/${b.handle}`, { token: a.token });
      expect(page.json).toMatchObject({ peerReadUpTo: 1, head: 1, state: 'open' });

      // A recalls: B hears it and sees the placeholder.
      const recalled = sb.next(conversationEvent('recalled', a.handle), WAIT_MS);
      const recall = await api.call('POST', `/users/${a.handle}/conversations/${b.handle}/messages/1/recall`, {
        token: a.token,
      });
      expect(recall.json).toMatchObject({ seq: 1, recalled: true, text: '' });
      await recalled;
      const after = await api.call('GET', `/users/${b.handle}/conversations/${a.handle}`, { token: b.token });
      expect(after.json.messages).toEqual([expect.objectContaining({ seq: 1, recalled: true, text: '' })]);
    } finally {
      await Promise.all([sa.close(), sb.close()]);
    }
  });

  it('a third person and an anonymous caller read nothing', async () => {
    const [a, b, c] = await Promise.all([api.newUser('dm_a'), api.newUser('dm_b'), api.newUser('dm_c')]);
    await api.call('PATCH', `/users/${b.handle}/settings`, { token: b.token, body: { messagesFrom: 'everyone' } });
    expect((await send(a, b.handle, 'just us')).status).toBe(201);
    // A picture: the two are handed signed URLs that work; the same object unsigned answers 403.
    const picture = await messagePicture(a);
    const withPicture = await api.call('POST', `/users/${a.handle}/conversations/${b.handle}/messages`, {
      token: a.token,
      body: { text: '', media: [picture], clientId: 'with-picture' },
    });
    expect(withPicture.status).toBe(201);
    const seen = await api.call('GET', `/users/${b.handle}/conversations/${a.handle}`, { token: b.token });
    const { urls } = seen.json.messages[1].pictures[0];
    for (const url of [urls.thumb, urls.large]) expect((await fetch(url)).status).toBe(200);
    const bare = new URL(urls.large);
    expect((await fetch(`${bare.origin}${bare.pathname}`)).status).toBe(403);
    // Nobody is handed a picture's URL but the two: its media record shows no variants to anyone.
    expect((await api.call('GET', `/media/${picture}`, { token: c.token })).status).toBe(404);
    // C with its own token on A's conversation: 403; C's own view of A: there is none.
    for (const path of [`/users/${a.handle}/conversations/${b.handle}`, `/users/${a.handle}/conversations`]) {
      expect((await api.call('GET', path, { token: c.token })).status).toBe(403);
      expect((await api.call('GET', path)).status).toBe(401);
    }
    const own = await api.call('GET', `/users/${c.handle}/conversations/${a.handle}`, { token: c.token });
    expect(own.status).toBe(404);
    expect(own.json.error.code).toBe('conversation_not_found');
    expect((await api.call('GET', `/users/${c.handle}/conversations`, { token: c.token })).json.conversations).toEqual(
      [],
    );
  });

  it('refusals: yourself, an unknown account, a bad body; past the write limit 429 with Retry-After', async () => {
    const [a, b] = await Promise.all([api.newUser('dm_a'), api.newUser('dm_b')]);
    expect((await send(a, a.handle, 'me')).json.error.code).toBe('cannot_message_self');
    expect((await send(a, 'nobody_at_all_x', 'hi')).status).toBe(404);
    const bad = await api.call('POST', `/users/${a.handle}/conversations/${b.handle}/messages`, {
      token: a.token,
      body: { text: 'x'.repeat(1001), clientId: 'ok' },
    });
    expect(bad.status).toBe(422);
    expect(
      (
        await api.call('POST', `/users/${a.handle}/conversations/${b.handle}/messages`, {
          token: a.token,
          body: { text: 'hi', clientId: 'not ok!' },
        })
      ).status,
    ).toBe(422);

    await api.call('PATCH', `/users/${b.handle}/settings`, { token: b.token, body: { messagesFrom: 'everyone' } });
    // MESSAGES_PER_MINUTE (30) in a fixed minute: within two windows' worth a send is refused.
    let sent = 0;
    let refused: Awaited<ReturnType<typeof send>> | undefined;
    while (!refused && sent < 62) {
      const res = await send(a, b.handle, `n${sent}`);
      if (res.status === 429) refused = res;
      else {
        expect(res.status).toBe(201);
        sent++;
      }
    }
    expect(refused?.json.error.code).toBe('rate_limited');
    const retryAfter = Number(refused?.headers.get('retry-after'));
    expect(retryAfter).toBeGreaterThanOrEqual(1);
    expect(retryAfter).toBeLessThanOrEqual(60);
  });
});
