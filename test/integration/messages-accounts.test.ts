// test/integration/messages-accounts.test.ts — private messages (私信) when an account leaves, is
// erased or comes back, on the real HBase adapters: a leave shows the conversation to the other
// side as 已注销 (left) and refuses sends, a restore brings it back unchanged; the erasure deletes
// every conversation of the account for BOTH sides (its row is keyed by the two handles, and a
// released handle goes to someone else), with the other side's list entries and counts and the
// pictures; a send in flight across the erasure is walked away by the release (forced,
// docs/consistency.md R). The done-when check scans the messages table for any key or qualifier
// naming the account — a whole-table scan, acceptable in a test only.
import { describe, expect, inject, it } from 'vitest';
import { HBaseAccountRemains } from '../../shared/adapters/hbase/hbase-account-remains.js';
import { RESTORE_WINDOW_MS } from '../../shared/domain/leaving.js';
import { RESERVATION_MS } from '../../shared/domain/limits.js';
import { HBaseRestClient } from '../../shared/hbase/index.js';
import { conversationIndexKey } from '../../shared/schema/row-keys.js';
import type { ErasureDeps } from '../../shared/use-cases/erase-account.js';
import type { FeedDeps } from '../../shared/use-cases/feed-deps.js';
import { eraseAccountsJob } from '../../shared/use-cases/jobs/erase-accounts.js';
import { leave } from '../../shared/use-cases/leave.js';
import { logIn, type LoginDeps } from '../../shared/use-cases/log-in.js';
import {
  clearConversation,
  listConversations,
  readConversation,
  sendMessage,
  unreadBadge,
  type MessageDeps,
  type MessagePictures,
} from '../../shared/use-cases/messages.js';
import { follow } from '../../shared/use-cases/relations.js';
import { registerUser } from '../../shared/use-cases/register-user.js';
import { accountFactory, accountWorld } from '../support/feed-harness.js';
import { allRows } from '../support/hbase-rows.js';
import { runToCompletion, silentLog } from '../support/job-driver.js';
import { useNamespace } from '../support/namespace.js';

const ns = `it_msgacct_${Date.now().toString(36)}`;
const hbase = new HBaseRestClient({ baseUrl: inject('hbaseRestUrl'), timeoutMs: 60_000 });
const { stores, gate, deps: world } = accountWorld(hbase, ns);

/**
 * The message pictures' port, recording what is given back (the picture library is tested on its
 * own; here only that the erasure hands each picture back under its message's claim matters).
 */
const released: { ids: string[]; claim: string }[] = [];
const messagePictures: MessagePictures = {
  check: async (_sender, ids) => ids.map((id) => ({ id, width: 10, height: 10 })),
  claim: async () => {},
  giveBack: async () => {},
  release: async (ids, claim) => void released.push({ ids: [...ids], claim }),
  view: (pictures) => pictures.map((p) => ({ ...p, urls: { thumb: `t/${p.id}`, large: `l/${p.id}` } })),
};
const deps: FeedDeps & ErasureDeps & LoginDeps = {
  ...world,
  remains: new HBaseAccountRemains(hbase, ns),
  messagePictures,
};
const dm: MessageDeps = {
  messages: stores.messages,
  users: stores.users,
  blocks: stores.blocks,
  relations: stores.relations,
  quota: stores.quota,
  limits: { writesPerMinute: { message: 1000, conversation: 1000 } },
  messagePictures,
  step: gate.hook,
};
useNamespace(hbase, ns);

const PASSWORD = 'a long password';
const IP = '192.0.2.93';
const users = accountFactory(deps, PASSWORD);
let n = 0;
const say = (from: string, to: string, text: string, media?: string[]) =>
  sendMessage(dm, from, to, { text, clientId: `c${n++}`, ...(media ? { media } : {}) });
const texts = async (reader: string, peer: string) =>
  (await readConversation(dm, reader, peer, 50)).messages.map((m) => m.text);
const listed = async (owner: string, box: 'main' | 'requests' = 'main') =>
  (await listConversations(dm, owner, box, 20)).items.map((c) => [c.peer.handle, c.peer.left]);
const leaves = (handle: string, now = Date.now()) =>
  leave(deps, handle, { handle, password: PASSWORD, sourceIp: IP }, now);
const runJob = (now: number) =>
  runToCompletion(eraseAccountsJob({ ...deps, now: () => now }), { rowsPerStep: 2, log: silentLog });

/**
 * What of the messages table names `handle`: a conversation row of it (key segments between '!'
 * and 0x00), its index row, and in anyone's index row a cell about it (a list entry, a count, a
 * participation mark).
 */
async function messagesNaming(handle: string): Promise<string[]> {
  const index = Buffer.from(conversationIndexKey(handle));
  const entry = new RegExp(`^[0-9]{13}${handle}\\u0000`);
  const found: string[] = [];
  for (const row of await allRows(hbase, ns, 'messages')) {
    const key = Buffer.from(row.key);
    const segments = key.toString('latin1').split(/[!\0]/);
    if (key.equals(index) || segments.slice(1).includes(handle)) {
      found.push(key.equals(index) ? 'its index row' : `row ${segments.slice(1).join('|')}`);
      continue;
    }
    for (const cell of row.cells) {
      const q = Buffer.from(cell.qualifier).toString('latin1');
      if ((['p', 'u'].includes(cell.family) && q === handle) || (['c', 'q'].includes(cell.family) && entry.test(q)))
        found.push(`cell ${cell.family}:${q.replace(/\0/g, '.')}`);
    }
  }
  return found;
}

describe('private messages when an account leaves or is erased', () => {
  it('a leave: the other side keeps the conversation shown as left, sends to it are refused; a restore brings it back', async () => {
    const [ann, bob] = await users('ann', 'bob');
    await Promise.all([follow(deps, ann, bob), follow(deps, bob, ann)]);
    await say(ann, bob, 'hello bob');
    await say(bob, ann, 'hello ann');
    const left = Date.now();
    await leaves(ann, left);
    expect(await listed(bob)).toEqual([[ann, true]]);
    const page = await readConversation(dm, bob, ann, 20);
    expect(page.peer).toMatchObject({ handle: ann, left: true });
    expect(page.messages.map((m) => m.text)).toEqual(['hello bob', 'hello ann']);
    await expect(say(bob, ann, 'are you there?')).rejects.toMatchObject({ code: 'user_not_found' });

    const grant = await logIn(deps, { handle: ann, password: PASSWORD, sourceIp: IP }, left + 1000);
    expect(grant.restored).toBe(true);
    expect(await listed(bob)).toEqual([[ann, false]]);
    await say(bob, ann, 'welcome back');
    expect(await texts(ann, bob)).toEqual(['hello bob', 'hello ann', 'welcome back']);
    expect(await unreadBadge(dm, ann)).toEqual({ unread: 2, requests: 0 });
  });

  it('the erasure deletes every conversation of the account for both sides, with its pictures; the next holder of the handle inherits none', async () => {
    const [ann, bob, cat, dan] = await users('ann', 'bob', 'cat', 'dan');
    await Promise.all([follow(deps, ann, bob), follow(deps, bob, ann), follow(deps, bob, cat), follow(deps, cat, bob)]);
    // With bob: both ways, a picture from each side, unread for bob.
    await say(ann, bob, 'from ann', ['p_ann_1']);
    const bobs = await say(bob, ann, 'from bob', ['p_bob_1', 'p_bob_2']);
    await say(ann, bob, 'again from ann');
    // A request to cat (in cat's requests tab), and one with dan that ann deleted for herself.
    await say(ann, cat, 'hi cat');
    await say(dan, ann, 'hi ann');
    await clearConversation(dm, ann, dan);
    expect(await listed(ann)).toEqual([
      [cat, false],
      [bob, false],
    ]);
    // Bob and cat's own conversation is not touched.
    await say(cat, bob, 'between us');
    expect(await unreadBadge(dm, bob)).toEqual({ unread: 2, requests: 0 });
    expect(await unreadBadge(dm, cat)).toEqual({ unread: 0, requests: 1 });
    expect(await messagesNaming(ann)).not.toEqual([]);

    const left = Date.now();
    await leaves(ann, left);
    const erasedAt = left + RESTORE_WINDOW_MS + 1;
    await runJob(erasedAt);
    expect(await messagesNaming(ann)).toEqual([]);
    expect(await listed(bob)).toEqual([[cat, false]]);
    expect(await unreadBadge(dm, bob)).toEqual({ unread: 1, requests: 0 });
    expect(await listed(cat, 'requests')).toEqual([]);
    expect(await unreadBadge(dm, cat)).toEqual({ unread: 0, requests: 0 });
    expect(await listed(dan)).toEqual([]);
    await expect(readConversation(dm, bob, ann, 20)).rejects.toMatchObject({ code: 'conversation_not_found' });
    expect(await texts(bob, cat)).toEqual(['between us']);
    // Every picture of the conversations, the other side's too, given back under its message's claim.
    expect(released.filter((r) => r.claim.includes(ann)).sort((x, y) => x.claim.localeCompare(y.claim))).toEqual(
      [
        { ids: ['p_ann_1'], claim: expect.stringMatching(new RegExp(`^dm:.*:${ann}:`)) },
        { ids: ['p_bob_1', 'p_bob_2'], claim: expect.stringMatching(new RegExp(`:${bob}:${bobs.message.clientId}$`)) },
      ].sort((x, y) => (x.ids[0]! < y.ids[0]! ? -1 : 1)),
    );

    // The release, then someone else takes the handle: bob's conversation with them starts empty.
    await runJob(erasedAt + RESERVATION_MS + 1);
    await registerUser(deps, { handle: ann, displayName: 'Someone new', password: PASSWORD });
    await follow(deps, ann, bob);
    await say(bob, ann, 'hello, new person');
    expect(await texts(ann, bob)).toEqual(['hello, new person']);
    expect(await listed(ann)).toEqual([[bob, false]]);
    // Its counts are not hidden by the removed conversation's: versions start at a conversation's first change.
    expect(await unreadBadge(dm, ann)).toEqual({ unread: 1, requests: 0 });
  });

  it('forced: a send to the account held after its decision across the erasure lands after it, and the release walks it away', async () => {
    const [ann, bob] = await users('ann', 'bob');
    await Promise.all([follow(deps, ann, bob), follow(deps, bob, ann)]);
    await say(ann, bob, 'before');
    const decided = gate.holdAt('message.decided', (d) => d.a === bob && d.kind === 'message');
    const sending = say(bob, ann, 'in flight');
    await decided.reached;
    const left = Date.now();
    await leaves(ann, left);
    const erasedAt = left + RESTORE_WINDOW_MS + 1;
    await runJob(erasedAt);
    expect(await messagesNaming(ann)).toEqual([]);
    // During the reservation nobody starts a send to it.
    await expect(say(bob, ann, 'now')).rejects.toMatchObject({ code: 'user_not_found' });
    decided.release();
    // It read ann active: its commit finds the conversation gone, and it lands in a new one.
    expect((await sending).message).toMatchObject({ seq: 1, text: 'in flight' });
    expect(await messagesNaming(ann)).not.toEqual([]);
    await runJob(erasedAt + RESERVATION_MS + 1);
    expect(await messagesNaming(ann)).toEqual([]);
    expect(await listed(bob)).toEqual([]);
    expect(await unreadBadge(dm, bob)).toEqual({ unread: 0, requests: 0 });
  });
});
