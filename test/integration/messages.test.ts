// test/integration/messages.test.ts — 私信 on the real HBase adapters: conversations, requests,
// the "who may message me" setting, blocks, read markers, recalls, deleting for oneself, the
// list and the badge, and the races of docs/consistency.md U forced step by step
// (test/support/interleave.ts).
import { describe, expect, inject, it } from 'vitest';
import { HBaseRestClient } from '../../shared/hbase/index.js';
import { hbaseFeedStores } from '../../shared/wiring/feed.js';
import { block, unblock } from '../../shared/use-cases/blocks.js';
import { follow } from '../../shared/use-cases/relations.js';
import type { FeedDeps } from '../../shared/use-cases/feed-deps.js';
import {
  acceptRequest,
  clearConversation,
  declineRequest,
  hideMessage,
  listConversations,
  markRead,
  readConversation,
  recallMessage,
  sendMessage,
  unreadBadge,
  type MessageDeps,
} from '../../shared/use-cases/messages.js';
import { RECALL_WINDOW_MS } from '../../shared/domain/messages.js';
import { integrationLimits, requestRecorder, userFactory } from '../support/feed-harness.js';
import { interleaver } from '../support/interleave.js';
import { useNamespace } from '../support/namespace.js';
import { conversationIndexKey } from '../../shared/schema/row-keys.js';
import { qualifiedTableName } from '../../shared/schema/tables.js';

const ns = `it_messages_${Date.now().toString(36)}`;
const recorder = requestRecorder();
const hbase = new HBaseRestClient({
  baseUrl: inject('hbaseRestUrl'),
  timeoutMs: 60_000,
  onRequest: recorder.onRequest,
});
const stores = hbaseFeedStores(hbase, ns);
const gate = interleaver();
const feed: FeedDeps = {
  ...stores,
  queue: { send: async () => {} },
  limits: { ...integrationLimits },
  step: gate.hook,
};
const deps: MessageDeps = {
  messages: stores.messages,
  users: stores.users,
  blocks: stores.blocks,
  relations: stores.relations,
  quota: stores.quota,
  limits: { writesPerMinute: { message: 1000, conversation: 1000 } },
  step: gate.hook,
};
useNamespace(hbase, ns);

const users = userFactory(stores.users);
let n = 0;
const say = (from: string, to: string, text: string, at?: number) =>
  sendMessage(deps, from, to, { text, clientId: `c${n++}` }, at);
const texts = async (reader: string, peer: string) =>
  (await readConversation(deps, reader, peer, 50)).messages.map((m) => (m.recalled ? '(recalled)' : m.text));
const listed = async (owner: string, box: 'main' | 'requests' = 'main') =>
  (await listConversations(deps, owner, box, 20)).items.map((c) => c.peer.handle);
const rawEntries = async (owner: string) =>
  (await hbase.getRow(qualifiedTableName(ns, 'messages'), conversationIndexKey(owner), { columns: ['c', 'q'] }))?.cells
    .length ?? 0;
/** Two who may write freely: b follows a, a follows b (the default setting admits people one follows). */
async function friends() {
  const [a, b] = await users('ann', 'bob');
  await follow(feed, a, b);
  await follow(feed, b, a);
  return [a, b] as const;
}

describe('private messages (私信)', () => {
  it('a conversation: both see one order, unread counts and the badge, read markers, a retry sends nothing twice', async () => {
    const [a, b] = await friends();
    const first = await sendMessage(deps, a, b, { text: 'hi', clientId: 'k1' });
    expect(first).toMatchObject({ created: true, state: 'open', message: { seq: 1, from: a, text: 'hi' } });
    // A retry of the same send (same client id): the same message, nothing new.
    const again = await sendMessage(deps, a, b, { text: 'hi', clientId: 'k1' });
    expect(again).toMatchObject({ created: false, message: { seq: 1, text: 'hi' } });
    await say(b, a, 'hello');
    await say(a, b, 'how are you?');
    expect(await texts(a, b)).toEqual(['hi', 'hello', 'how are you?']);
    expect(await texts(b, a)).toEqual(['hi', 'hello', 'how are you?']);

    const [ofB] = (await listConversations(deps, b, 'main', 20)).items;
    expect(ofB).toMatchObject({
      peer: { handle: a, left: false },
      state: 'open',
      unread: 1,
      last: { seq: 3, text: 'how are you?' },
    });
    expect(await unreadBadge(deps, b)).toEqual({ unread: 1, requests: 0 });
    expect(await unreadBadge(deps, a)).toEqual({ unread: 0, requests: 0 });

    expect(await markRead(deps, b, a, 3)).toBe(3);
    expect(await unreadBadge(deps, b)).toEqual({ unread: 0, requests: 0 });
    // 已读: the sender sees the peer's marker past their message.
    expect((await readConversation(deps, a, b, 10)).peerReadUpTo).toBe(3);

    // Paged from the newest, older pages by cursor, nothing twice.
    const page = await readConversation(deps, a, b, 2);
    expect(page.messages.map((m) => m.seq)).toEqual([2, 3]);
    const older = await readConversation(deps, a, b, 2, page.nextCursor);
    expect(older.messages.map((m) => m.seq)).toEqual([1]);
    expect(older.nextCursor).toBeUndefined();

    // One get (and the face beside it) for a page; one get then one stage for the list.
    const readPage = await recorder.counted(() => readConversation(deps, a, b, 20));
    expect(readPage.depth).toBe(1);
    const readList = await recorder.counted(() => listConversations(deps, a, 'main', 20));
    expect(readList.depth).toBe(2);
  });

  it('requests: a stranger may send two messages until the recipient replies or accepts; declining tells the sender nothing', async () => {
    const [b, c, d] = await users('bob', 'cat', 'dan');
    await say(c, b, 'hello stranger');
    expect(await listed(b)).toEqual([]);
    expect(await listed(b, 'requests')).toEqual([c]);
    expect(await listed(c)).toEqual([b]);
    expect(await unreadBadge(deps, b)).toEqual({ unread: 0, requests: 1 });
    await say(c, b, 'one more');
    await expect(say(c, b, 'a third')).rejects.toMatchObject({ code: 'message_request_pending' });
    await acceptRequest(deps, b, c);
    expect(await listed(b)).toEqual([c]);
    expect(await listed(b, 'requests')).toEqual([]);
    expect(await unreadBadge(deps, b)).toEqual({ unread: 2, requests: 0 });
    await say(c, b, 'a third, now');

    // Declined: gone from the recipient's requests; the sender's next message is refused as a full request's would be.
    await say(d, b, 'hi from dan');
    await declineRequest(deps, b, d);
    expect(await listed(b, 'requests')).toEqual([]);
    expect(await listed(d)).toEqual([b]);
    await expect(say(d, b, 'again')).rejects.toMatchObject({ code: 'message_request_pending' });
    expect(await unreadBadge(deps, b)).toEqual({ unread: 3, requests: 0 });
  });

  it('the setting, blocks and refusals: nobody and a block answer alike; self, unknown and left accounts are refused', async () => {
    const [a, b, c] = await users('ann', 'bob', 'cat');
    await stores.users.changeSettings(b, { messagesFrom: 'nobody' });
    await expect(say(a, b, 'hi')).rejects.toMatchObject({ code: 'messages_refused' });
    await stores.users.changeSettings(b, { messagesFrom: 'everyone' });
    expect((await say(a, b, 'hi')).state).toBe('open');
    expect(await listed(b)).toEqual([a]);

    await block(feed, b, a);
    await expect(say(a, b, 'still there?')).rejects.toMatchObject({ code: 'messages_refused' });
    await expect(say(b, a, 'nor this way')).rejects.toMatchObject({ code: 'messages_refused' });
    await unblock(feed, b, a);
    await say(a, b, 'back');

    await expect(say(a, a, 'me')).rejects.toMatchObject({ code: 'cannot_message_self' });
    await expect(say(a, 'nobody_here_x', 'hi')).rejects.toMatchObject({ code: 'user_not_found' });
    await stores.users.deactivate(c, Date.now(), 'e1');
    await expect(say(a, c, 'hi')).rejects.toMatchObject({ code: 'user_not_found' });
  });

  it('a refused send begins no conversation, so it spends none of the conversations a minute allows', async () => {
    const [a, b, c] = await users('ann', 'bob', 'cat');
    const strict: MessageDeps = { ...deps, limits: { writesPerMinute: { message: 1000, conversation: 1 } } };
    const at = Date.now();
    await stores.users.changeSettings(b, { messagesFrom: 'nobody' });
    for (let i = 0; i < 3; i++)
      await expect(sendMessage(strict, a, b, { text: 'hi', clientId: `r${n++}` }, at)).rejects.toMatchObject({
        code: 'messages_refused',
      });
    await stores.users.changeSettings(c, { messagesFrom: 'everyone' });
    expect((await sendMessage(strict, a, c, { text: 'hi', clientId: `r${n++}` }, at)).state).toBe('open');
    await stores.users.changeSettings(b, { messagesFrom: 'everyone' });
    await expect(sendMessage(strict, a, b, { text: 'hi', clientId: `r${n++}` }, at)).rejects.toMatchObject({
      code: 'rate_limited',
    });
  });

  it('recall within two minutes (the sender only), delete a message or the conversation for me only', async () => {
    const [a, b] = await friends();
    const t0 = Date.now();
    const m1 = await say(a, b, 'oops', t0);
    await say(b, a, 'what?', t0 + 1);
    await expect(recallMessage(deps, b, a, m1.message.seq, t0 + 10)).rejects.toMatchObject({ code: 'forbidden' });
    await expect(recallMessage(deps, a, b, m1.message.seq, t0 + RECALL_WINDOW_MS + 1)).rejects.toMatchObject({
      code: 'recall_window_closed',
    });
    expect(await recallMessage(deps, a, b, m1.message.seq, t0 + 1000)).toMatchObject({ recalled: true, text: '' });
    expect(await texts(b, a)).toEqual(['(recalled)', 'what?']);

    await say(a, b, 'third', t0 + 2);
    await hideMessage(deps, b, a, 2);
    expect(await texts(b, a)).toEqual(['(recalled)', 'third']);
    expect(await texts(a, b)).toEqual(['(recalled)', 'what?', 'third']);
    await clearConversation(deps, b, a);
    expect(await listed(b)).toEqual([]);
    expect(await listed(a)).toEqual([b]);
    await say(a, b, 'fourth', t0 + 3);
    expect(await listed(b)).toEqual([a]);
    expect(await texts(b, a)).toEqual(['fourth']);
  });
});

describe('the races of a conversation (docs/consistency.md U), forced', () => {
  it('U1, U2: two sends racing both land, in one order; the conversation is listed once for each side', async () => {
    const [a, b] = await friends();
    const held = gate.holdAt('message.listed', (d) => d.a === a);
    const first = say(a, b, 'from ann');
    await held.reached;
    await say(b, a, 'from bob'); // lands inside ann's gap: ann's commit must lose and go again
    held.release();
    await first;
    expect(await texts(a, b)).toEqual(['from bob', 'from ann']);
    expect(await texts(b, a)).toEqual(['from bob', 'from ann']);
    // Ann's first entry (written ahead of a commit that lost) is still in her index: shown once all the same.
    expect(await listed(a)).toEqual([b]);
    expect(await listed(b)).toEqual([a]);
  });

  it('U3: a send that read before a block writes nothing', async () => {
    const [a, b] = await friends();
    await say(a, b, 'before');
    const held = gate.holdAt('message.decided', (d) => d.a === a && d.kind === 'message');
    const send = say(a, b, 'during the block');
    await held.reached;
    await block(feed, b, a);
    held.release();
    await expect(send).rejects.toMatchObject({ code: 'messages_refused' });
    expect(await texts(b, a)).toEqual(['before']);
  });

  it('U4: a read marker racing a send: the counts of the later change stay, whatever order they land in', async () => {
    const [a, b] = await friends();
    await say(a, b, 'one');
    const held = gate.holdAt('message.committed', (d) => d.kind === 'read');
    const read = markRead(deps, b, a, 1);
    await held.reached; // bob's marker is committed; its counts (0 unread) are not yet written
    await say(a, b, 'two'); // commits and writes bob's counts: 1 unread
    held.release();
    await read; // now the marker's counts land, late
    expect(await unreadBadge(deps, b)).toEqual({ unread: 1, requests: 0 });
    expect((await listConversations(deps, b, 'main', 20)).items[0]).toMatchObject({ unread: 1 });
  });

  it('U5: a recall racing a read marker: both land', async () => {
    const [a, b] = await friends();
    const sent = await say(a, b, 'take it back');
    const held = gate.holdAt('message.decided', (d) => d.kind === 'recalled');
    const recall = recallMessage(deps, a, b, sent.message.seq);
    await held.reached;
    await markRead(deps, b, a, sent.message.seq);
    held.release();
    await recall;
    const page = await readConversation(deps, b, a, 10);
    expect(page.messages[0]).toMatchObject({ recalled: true, text: '' });
    expect(page.readUpTo).toBe(1);
    expect(await unreadBadge(deps, b)).toEqual({ unread: 0, requests: 0 });
  });

  it("U6: an accept racing the request's second message: both land, and then the sender writes freely", async () => {
    const [b, c] = await users('bob', 'cat');
    await say(c, b, 'first');
    const held = gate.holdAt('message.decided', (d) => d.kind === 'accepted');
    const accept = acceptRequest(deps, b, c);
    await held.reached;
    await say(c, b, 'second');
    held.release();
    expect(await accept).toBe('open');
    await say(c, b, 'third');
    expect(await texts(b, c)).toEqual(['first', 'second', 'third']);
    expect(await listed(b)).toEqual([c]);
    expect(await listed(b, 'requests')).toEqual([]);
    expect(await rawEntries(b)).toBeGreaterThanOrEqual(1);
  });
});
