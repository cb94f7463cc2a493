// test/unit/messages.test.ts — the rules of a private conversation (shared/domain/messages.ts) as
// pure functions: who may start one, what a request allows, read markers, recalls, deleting for
// oneself, and where a conversation shows for each side.
import { describe, expect, it } from 'vitest';
import {
  applyAccept,
  applyClear,
  applyDecline,
  applyRead,
  applyRecall,
  applySend,
  boxOf,
  emptyConversation,
  RECALL_WINDOW_MS,
  stateFor,
  unreadOf,
  type Admission,
  type ConversationState,
  type StoredMessage,
} from '../../shared/domain/messages.js';

const open: Admission = { blocked: false, messagesFrom: 'following', followedByRecipient: true };
const stranger: Admission = { ...open, followedByRecipient: false };
let at = 1_000;
function send(s: ConversationState, from: string, admission = open) {
  const out = applySend(s, { from, text: `t${at}`, pictures: [], at: at++, clientId: `c${at}` }, admission);
  if ('refused' in out) throw new Error(out.refused);
  return out;
}
const refusal = (s: ConversationState, from: string, admission: Admission) => {
  const out = applySend(s, { from, text: 'x', pictures: [], at: at++, clientId: 'x' }, admission);
  return 'refused' in out ? out.refused : null;
};

describe('private conversations (domain rules)', () => {
  it('a first message: admitted by everyone or a follow, a request otherwise, refused by nobody or a block', () => {
    const s = emptyConversation('bob', 'ann', 0);
    expect(s.people).toEqual(['ann', 'bob']);
    expect(send(s, 'ann').state.status).toBe('open');
    expect(send(s, 'ann', { ...stranger, messagesFrom: 'everyone' }).state.status).toBe('open');
    const req = send(s, 'ann', stranger).state;
    expect(req).toMatchObject({ status: 'request', requester: 'ann', head: 1 });
    expect(refusal(s, 'ann', { ...open, messagesFrom: 'nobody' })).toBe('refused');
    expect(refusal(s, 'ann', { ...open, blocked: true })).toBe('refused');
    expect(refusal(send(s, 'ann').state, 'bob', { ...open, blocked: true })).toBe('refused');
  });

  it('a request holds two of its sender’s messages; a reply or an accept opens it; a decline refuses like a full request', () => {
    let s = send(emptyConversation('ann', 'bob', 0), 'ann', stranger).state;
    s = send(s, 'ann', stranger).state;
    expect(refusal(s, 'ann', stranger)).toBe('request_pending');
    expect(boxOf(s, 'bob')).toBe('requests');
    expect(boxOf(s, 'ann')).toBe('main');
    expect(stateFor(s, 'ann')).toBe('requested');
    expect(stateFor(s, 'bob')).toBe('request');
    const replied = send(s, 'bob').state;
    expect(replied.status).toBe('open');
    expect(replied.requester).toBeUndefined();
    expect(applyAccept(s, 'ann')).toBeNull();
    expect(applyAccept(s, 'bob')).toMatchObject({ status: 'open', activityAt: s.activityAt });
    const declined = applyDecline(s, 'bob')!;
    expect(boxOf(declined, 'bob')).toBe('none');
    expect(boxOf(declined, 'ann')).toBe('main');
    expect(refusal(declined, 'ann', stranger)).toBe('request_pending');
  });

  it('seqs are dense; unread counts the other side’s messages past the marker; a marker never moves back; sending reads', () => {
    let s = emptyConversation('ann', 'bob', 0);
    const sent: StoredMessage[] = [];
    for (const from of ['ann', 'ann', 'bob', 'ann']) {
      const out = send(s, from);
      s = out.state;
      sent.push(out.stored);
    }
    expect(sent.map((m) => m.seq)).toEqual([1, 2, 3, 4]);
    expect(unreadOf(s, 'bob')).toBe(1); // bob's reply read ann's first two; her third is new
    expect(unreadOf(s, 'ann')).toBe(0);
    const read = applyRead(s, 'bob', sent[3]!)!;
    expect(unreadOf(read, 'bob')).toBe(0);
    expect(applyRead(read, 'bob', sent[1]!)).toBeNull();
    expect(read.version).toBe(s.version + 1);
  });

  it('recall: the sender only, within the window; once; the last message’s preview follows', () => {
    const out = send(emptyConversation('ann', 'bob', 0), 'ann');
    expect(applyRecall(out.state, 'bob', out.stored, out.stored.at)).toEqual({ refused: 'not_sender' });
    expect(applyRecall(out.state, 'ann', out.stored, out.stored.at + RECALL_WINDOW_MS + 1)).toEqual({
      refused: 'window_closed',
    });
    const done = applyRecall(out.state, 'ann', out.stored, out.stored.at + 1)!;
    if ('refused' in done) throw new Error('refused');
    expect(done.stored).toMatchObject({ text: '', pictures: [], recalled: true });
    expect(done.state.last).toMatchObject({ recalled: true, text: '' });
    expect(applyRecall(done.state, 'ann', done.stored, out.stored.at + 2)).toBeNull();
  });

  it('deleting a conversation for oneself hides it until the next message, and reads what it had', () => {
    let s = send(emptyConversation('ann', 'bob', 0), 'ann').state;
    s = applyClear(s, 'bob')!;
    expect(boxOf(s, 'bob')).toBe('none');
    expect(boxOf(s, 'ann')).toBe('main');
    expect(unreadOf(s, 'bob')).toBe(0);
    expect(applyClear(s, 'bob')).toBeNull();
    s = send(s, 'ann').state;
    expect(boxOf(s, 'bob')).toBe('main');
    expect(unreadOf(s, 'bob')).toBe(1);
  });
});
