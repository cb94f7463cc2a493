// shared/domain/messages.ts — 私信: the rules of a private conversation between two people, as
// pure functions over its state. A conversation's state is ONE value (stored in one cell of one
// row, shared/schema/tables.ts messages), and every change — a message, a read marker, a recall,
// an accept, a decline, a block's fence, a delete for one side — is computed here from the state
// as read and written back only if nobody changed it since (a check-and-put): the rules below
// hold for every interleaving because each change sees the state it replaces whole.
import type { MessagesFrom } from './settings.js';

/** The longest message text, in characters (code points), as Weibo's private messages. */
export const MESSAGE_TEXT_MAX = 1000;
/** Pictures one message may carry. */
export const MESSAGE_PICTURES_MAX = 9;
/** A sender may recall (撤回) their message for this long after sending it, as WeChat and Weibo. */
export const RECALL_WINDOW_MS = 2 * 60_000;
/** Messages a request may hold from its sender before the recipient replies or accepts. */
export const REQUEST_MESSAGES_MAX = 2;
/** A client message id: what makes a send safe to retry. */
export const CLIENT_ID_PATTERN = /^[A-Za-z0-9_-]{1,64}$/;
/** The preview a conversation list shows of its last message (characters). */
export const PREVIEW_MAX = 80;

/**
 * open: both may write. request: the requester's first message was not admitted by the other's
 * setting; the other sees it under requests until they reply or accept. declined: the other said
 * no; the requester is told nothing (their next message is refused as a pending request would be).
 */
export type ConversationStatus = 'open' | 'request' | 'declined';

/** A picture as a message keeps it (its variants are private: shown through signed URLs). */
export interface MessagePicture {
  id: string;
  width: number;
  height: number;
}

/** A message as stored. */
export interface StoredMessage {
  seq: number;
  from: string;
  text: string;
  pictures: MessagePicture[];
  at: number;
  clientId: string;
  recalled?: boolean;
  /** The sender's account was erased: the text and pictures are gone. */
  erased?: boolean;
  /** Messages each side had sent once this one was (the two participants' order): what a read marker at this seq has read. */
  sent: [number, number];
}

/** The list's summary of the last message (kept in the state: a list page reads states only). */
export interface LastMessage {
  seq: number;
  from: string;
  text: string;
  pictures: number;
  at: number;
  recalled?: boolean;
  erased?: boolean;
}

/**
 * The state of a conversation between `people[0]` < `people[1]` (handle order). Arrays indexed
 * like `people`. Every change writes a new `version`, so a check on this value is a check that
 * nothing at all changed.
 */
export interface ConversationState {
  version: number;
  people: [string, string];
  /** The last message's seq (0: none yet). Seqs are dense: 1, 2, 3 … — both sides see one order. */
  head: number;
  status: ConversationStatus;
  /** Who asked (status request or declined). */
  requester?: string;
  /** Messages each side has sent. */
  sent: [number, number];
  /** Each side has read the messages up to this seq. */
  read: [number, number];
  /** The other side's messages each side had read at its read marker (unread = other's sent − this). */
  readOfOther: [number, number];
  /** Each side deleted the conversation for themselves up to this seq (0: never). */
  cleared: [number, number];
  /** When the conversation last moved in the lists (a message, an accept). */
  activityAt: number;
  last?: LastMessage;
}

/** Where a conversation shows for one side: the main list, the requests tab, or nowhere. */
export type Box = 'main' | 'requests' | 'none';

export function sideOf(state: Pick<ConversationState, 'people'>, who: string): 0 | 1 {
  if (state.people[0] === who) return 0;
  if (state.people[1] === who) return 1;
  throw new Error(`${who} is not in this conversation`);
}

/** The two handles in the order a conversation keeps them. */
export const pairOf = (a: string, b: string): [string, string] => (a < b ? [a, b] : [b, a]);

/**
 * A conversation not begun yet, at `at` (millis). Its version starts at `at`, not 0: a version is
 * also the cell timestamp of each side's counts (tables.ts messages, u:), and a conversation the
 * erasure removed may begin again between the same two handles (the handle is released); its
 * counts must sort after every count the old one wrote, which started earlier and moved by one a change.
 */
export function emptyConversation(a: string, b: string, at: number): ConversationState {
  return {
    version: at,
    people: pairOf(a, b),
    head: 0,
    status: 'open',
    sent: [0, 0],
    read: [0, 0],
    readOfOther: [0, 0],
    cleared: [0, 0],
    activityAt: 0,
  };
}

export function boxOf(state: ConversationState, who: string): Box {
  const me = sideOf(state, who);
  if (state.head === 0 || state.cleared[me] >= state.head) return 'none';
  if (state.status === 'open' || state.requester === who) return 'main';
  return state.status === 'request' ? 'requests' : 'none';
}

/** The other side's messages `who` has not read. */
export function unreadOf(state: ConversationState, who: string): number {
  const me = sideOf(state, who);
  return Math.max(0, state.sent[1 - me]! - state.readOfOther[me]);
}

/** How the UI names the state for one side: a request they received, one they sent, or open. */
export function stateFor(state: ConversationState, who: string): 'open' | 'request' | 'requested' {
  if (state.status === 'open') return 'open';
  return state.requester === who ? 'requested' : 'request';
}

/** What the sender's message meets on the recipient's side, read beside the conversation. */
export interface Admission {
  /** A block stands between the two, either way. */
  blocked: boolean;
  /** The recipient's setting. */
  messagesFrom: MessagesFrom;
  /** The recipient follows the sender. */
  followedByRecipient: boolean;
}

export type SendRefusal = 'refused' | 'request_pending';

export interface NewMessage {
  from: string;
  text: string;
  pictures: MessagePicture[];
  at: number;
  clientId: string;
}

/**
 * The conversation after `message`, or why it may not be sent. A conversation without messages
 * asks the recipient's setting: everyone, or people they follow, admit it as an open one; one the
 * setting does not admit becomes a request; `nobody` admits no new conversation (refused, as a
 * block is: the sender cannot tell the two apart). A request holds at most REQUEST_MESSAGES_MAX of
 * its sender's messages; the recipient's reply opens it. A declined request refuses its requester
 * as a full request would, and opens if the recipient writes after all.
 */
export function applySend(
  state: ConversationState,
  message: NewMessage,
  admission: Admission,
): { state: ConversationState; stored: StoredMessage } | { refused: SendRefusal } {
  if (admission.blocked) return { refused: 'refused' };
  const me = sideOf(state, message.from);
  let status = state.status;
  let requester = state.requester;
  if (state.head === 0) {
    if (admission.messagesFrom === 'nobody') return { refused: 'refused' };
    const admitted = admission.messagesFrom === 'everyone' || admission.followedByRecipient;
    status = admitted ? 'open' : 'request';
    requester = admitted ? undefined : message.from;
  } else if (state.status !== 'open') {
    if (state.requester === message.from) {
      if (state.status === 'declined' || state.sent[me] >= REQUEST_MESSAGES_MAX) return { refused: 'request_pending' };
    } else {
      status = 'open';
      requester = undefined;
    }
  }
  const seq = state.head + 1;
  const sent: [number, number] = [...state.sent];
  sent[me] += 1;
  const read: [number, number] = [...state.read];
  const readOfOther: [number, number] = [...state.readOfOther];
  // Writing is reading: the sender has seen everything before their own message.
  read[me] = seq;
  readOfOther[me] = sent[1 - me]!;
  const stored: StoredMessage = { seq, ...message, sent };
  const next: ConversationState = {
    ...state,
    version: state.version + 1,
    head: seq,
    status,
    sent,
    read,
    readOfOther,
    activityAt: Math.max(message.at, state.activityAt),
    last: lastOf(stored),
  };
  if (requester === undefined) delete next.requester;
  else next.requester = requester;
  return { state: next, stored };
}

export function lastOf(m: StoredMessage): LastMessage {
  return {
    seq: m.seq,
    from: m.from,
    text: [...m.text].slice(0, PREVIEW_MAX).join(''),
    pictures: m.pictures.length,
    at: m.at,
    ...(m.recalled ? { recalled: true } : {}),
    ...(m.erased ? { erased: true } : {}),
  };
}

/** `who` has read up to `message` (a seq they hold): null when the marker is there already. */
export function applyRead(state: ConversationState, who: string, message: StoredMessage): ConversationState | null {
  const me = sideOf(state, who);
  if (message.seq <= state.read[me]) return null;
  const read: [number, number] = [...state.read];
  const readOfOther: [number, number] = [...state.readOfOther];
  read[me] = message.seq;
  readOfOther[me] = Math.max(readOfOther[me], message.sent[1 - me]!);
  return { ...state, version: state.version + 1, read, readOfOther };
}

export type RecallRefusal = 'not_sender' | 'window_closed';

/** The message recalled: its text and pictures gone for both, a placeholder in its place. */
export function applyRecall(
  state: ConversationState,
  who: string,
  message: StoredMessage,
  now: number,
): { state: ConversationState; stored: StoredMessage } | { refused: RecallRefusal } | null {
  if (message.from !== who) return { refused: 'not_sender' };
  if (message.recalled) return null;
  if (now - message.at > RECALL_WINDOW_MS) return { refused: 'window_closed' };
  const stored: StoredMessage = { ...message, text: '', pictures: [], recalled: true };
  const next = { ...state, version: state.version + 1 };
  if (state.last?.seq === message.seq) next.last = lastOf(stored);
  return { state: next, stored };
}

/** The recipient accepts a request: null when there is none to accept. */
export function applyAccept(state: ConversationState, who: string): ConversationState | null {
  if (state.status !== 'request' || state.requester === who) return null;
  // The conversation keeps its place in the lists: that of its last message.
  const next: ConversationState = { ...state, version: state.version + 1, status: 'open' };
  delete next.requester;
  return next;
}

/** The recipient declines a request: null when there is none to decline. */
export function applyDecline(state: ConversationState, who: string): ConversationState | null {
  if (state.status !== 'request' || state.requester === who) return null;
  return { ...state, version: state.version + 1, status: 'declined' };
}

/** `who` deletes the conversation for themselves: it leaves their list until the next message. */
export function applyClear(state: ConversationState, who: string): ConversationState | null {
  const me = sideOf(state, who);
  if (state.cleared[me] >= state.head) return null;
  const cleared: [number, number] = [...state.cleared];
  const read: [number, number] = [...state.read];
  const readOfOther: [number, number] = [...state.readOfOther];
  cleared[me] = state.head;
  read[me] = state.head;
  readOfOther[me] = state.sent[1 - me]!;
  return { ...state, version: state.version + 1, cleared, read, readOfOther };
}

/** A new version and nothing else: a block's fence (a send that read the state before it must read again). */
export const applyFence = (state: ConversationState): ConversationState => ({ ...state, version: state.version + 1 });

/** The sender's account was erased: their message's text and pictures go, a placeholder stays. */
export function applyErase(
  state: ConversationState,
  message: StoredMessage,
): { state: ConversationState; stored: StoredMessage } {
  const stored: StoredMessage = { ...message, text: '', pictures: [], erased: true };
  const next = { ...state, version: state.version + 1 };
  if (state.last?.seq === message.seq) next.last = lastOf(stored);
  return { state: next, stored };
}
