// shared/use-cases/messages.ts — 私信: private conversations between two people. The rules are
// the domain's (domain/messages.ts); this file reads what they need, writes their outcome and
// tells the people concerned. Every change of a conversation goes the same way (`change`):
//  1. read the conversation's state (beside whatever the rule needs: blocks, settings, follows);
//  2. compute the next state; for a new message, write both sides' list entries FIRST;
//  3. commit it with a check that the state is exactly as read — a loser reads again (1);
//  4. then each side's counts at the new version, the removal of list entries it replaced, and
//     the live event to both sides' connections.
// A cut after 3 leaves stale counts until the conversation's next change and extra list entries
// that are skipped at read: never a lost or doubled message, never a conversation listed twice
// (docs/consistency.md U).
import { ConflictError, DomainError, ForbiddenError, InvalidInputError, NotFoundError } from '../domain/errors.js';
import {
  applyAccept,
  applyClear,
  applyDecline,
  applyFence,
  applyRead,
  applyRecall,
  applySend,
  boxOf,
  CLIENT_ID_PATTERN,
  emptyConversation,
  MESSAGE_PICTURES_MAX,
  MESSAGE_TEXT_MAX,
  stateFor,
  unreadOf,
  type Box,
  type ConversationState,
  type MessagePicture,
  type StoredMessage,
} from '../domain/messages.js';
import type { LiveEvent } from '../domain/live.js';
import type { MessageStore, ConversationRead, IndexEntry } from '../ports/message-store.js';
import type { BlockStore } from '../ports/social-store.js';
import type { RelationStore } from '../ports/feed-store.js';
import type { UserFace, UserStore } from '../ports/user-store.js';
import type { WriteQuota } from '../ports/reaction-store.js';
import { decodeCursor, encodeCursor } from './cursor.js';
import { faceFrom, type Face } from './faces.js';
import type { Pictures } from './media/attach.js';
import { atStep, type StepHook } from './steps.js';
import { takeWriteQuota } from './write-limits.js';
import { announce, type LiveDeps } from './live.js';

/** A picture as a message view shows it: signed, short-lived URLs only the two are handed. */
export interface MessagePictureView extends MessagePicture {
  urls: { thumb: string; large: string };
}

/** Pictures in messages: the sender's uploads of purpose `message`, claimed by the message that carries them. */
export interface MessagePictures {
  /** The sender's ready message pictures, in order (422 `media_not_found`, 409 `media_not_ready` otherwise). */
  check(sender: string, ids: readonly string[]): Promise<MessagePicture[]>;
  /** Claims them for the message `claim` names (409 `media_in_use` when another holds one; nothing left claimed). */
  claim(ids: readonly string[], claim: string, at: number): Promise<void>;
  /** Gives them back and discards them (a recall, an erasure). */
  release(ids: readonly string[], claim: string): Promise<void>;
  /** Frees them again, still claimed by `claim` only (a send that was refused: the sender may send them again). */
  giveBack(ids: readonly string[], claim: string): Promise<void>;
  /** Signed URLs (computed here, no request). */
  view(pictures: readonly MessagePicture[]): MessagePictureView[];
}

export interface MessageLimits {
  writesPerMinute: { message: number; conversation: number };
}

export interface MessageDeps {
  messages: MessageStore;
  users: Pick<UserStore, 'profile' | 'settings' | 'faces'>;
  blocks: Pick<BlockStore, 'eitherBlocks'>;
  relations: Pick<RelationStore, 'isFollowing'>;
  quota: WriteQuota;
  limits: MessageLimits;
  /** Avatars (faces) and message pictures; absent: no pictures. */
  pictures?: Pictures;
  messagePictures?: MessagePictures;
  /** The live channel: each change told to both sides' connections. Absent: nobody is told. */
  live?: Pick<LiveDeps, 'live' | 'push' | 'positions'>;
  step?: StepHook;
}

/** The other person as a conversation shows them; `left` for an account that left or was erased. */
export interface Person extends Face {
  left: boolean;
}

export interface MessageView {
  seq: number;
  from: string;
  text: string;
  pictures: MessagePictureView[];
  at: number;
  recalled: boolean;
  erased: boolean;
  clientId: string;
}

export interface ConversationSummary {
  peer: Person;
  state: 'open' | 'request' | 'requested';
  last: (Omit<MessageView, 'pictures' | 'clientId'> & { pictures: number }) | null;
  unread: number;
  activityAt: number;
  readUpTo: number;
  peerReadUpTo: number;
}

export interface ConversationView {
  peer: Person;
  state: 'open' | 'request' | 'requested';
  messages: MessageView[];
  readUpTo: number;
  peerReadUpTo: number;
  head: number;
  nextCursor?: string;
}

/** What every change of a conversation needs (a block's fence needs no more). */
export type ChangeDeps = Pick<MessageDeps, 'messages' | 'step' | 'live'>;

/** A change's tries before it gives up (each lost only to another change that landed). */
const CHANGE_ATTEMPTS = 8;

const conversationNotFound = () => new NotFoundError('No conversation with this user', 'conversation_not_found');
const messageNotFound = (seq: number) =>
  new NotFoundError(`No message ${seq} in this conversation`, 'message_not_found');

// ------------------------------------------------------------------ the shared path of every change

type Decision<R> =
  | {
      next: ConversationState;
      messages?: StoredMessage[];
      clientId?: { sender: string; clientId: string };
      result: R;
      event?: ChangeKind;
    }
  | { done: R };

type ChangeKind = 'message' | 'recalled' | 'read' | 'accepted' | 'declined' | 'cleared' | 'fence';

type Read = ConversationRead & { sentWithClientId?: number; message?: StoredMessage };

/**
 * Reads the conversation, decides, commits against the state read; again on a lost race. Then
 * the side counts, the replaced list entries and the live events (step 4 of the header).
 */
async function change<R>(
  deps: ChangeDeps,
  a: string,
  b: string,
  read: () => Promise<Read>,
  decide: (r: Read) => Promise<Decision<R>> | Decision<R>,
  now: number,
): Promise<R> {
  for (let attempt = 0; attempt < CHANGE_ATTEMPTS; attempt++) {
    const seen = await read();
    const d = await decide(seen);
    if ('done' in d) return d.done;
    const kind = d.event ?? 'message';
    await atStep(deps, 'message.decided', { a, b, kind });
    const prev = seen.state ?? emptyConversation(a, b, now);
    const listed = newEntries(prev, d.next);
    // The entries, and both sides' participation marks (what the erasure finds a conversation
    // by): with every write-ahead entry, and before the first commit of a row (a block's fence
    // makes one with no entry).
    if (listed.length > 0 || seen.state === null) await deps.messages.list(listed, d.next.people);
    if (listed.length > 0) await atStep(deps, 'message.listed', { a, b, kind });
    const write = { ...(d.messages ? { messages: d.messages } : {}), ...(d.clientId ? { clientId: d.clientId } : {}) };
    if (!(await deps.messages.commit(d.next, seen, write))) continue;
    await atStep(deps, 'message.committed', { a, b, kind });
    await settle(deps, prev, d.next, kind, now);
    return d.result;
  }
  throw new ConflictError('This conversation is changing too fast; try again', 'conversation_busy');
}

const entryOf = (s: ConversationState, owner: string): IndexEntry | null => {
  const box = boxOf(s, owner);
  if (box === 'none') return null;
  const peer = s.people[0] === owner ? s.people[1] : s.people[0];
  return { box, peer, activityAt: s.activityAt, head: s.head };
};

const sameEntry = (x: IndexEntry | null, y: IndexEntry | null) =>
  x !== null && y !== null && x.box === y.box && x.activityAt === y.activityAt && x.head === y.head;

/** The list entries `next` needs that `prev` did not have (written before the commit). */
function newEntries(prev: ConversationState, next: ConversationState) {
  return next.people.flatMap((owner) => {
    const entry = entryOf(next, owner);
    return entry && !sameEntry(entry, entryOf(prev, owner)) ? [{ owner, entry }] : [];
  });
}

/** After a commit: each side's counts at the new version ∥ the entries it replaced ∥ the live events. */
async function settle(
  deps: ChangeDeps,
  prev: ConversationState,
  next: ConversationState,
  kind: ChangeKind,
  now: number,
) {
  const [a, b] = next.people;
  const replaced = next.people.flatMap((owner) => {
    const old = entryOf(prev, owner);
    return old && !sameEntry(old, entryOf(next, owner)) ? [{ owner, entry: old }] : [];
  });
  await Promise.all([
    // A fence changes no count: only the version, which a count written later carries anyway.
    kind === 'fence'
      ? undefined
      : deps.messages.count(
          next.people.map((owner) => ({
            owner,
            peer: owner === a ? b : a,
            version: next.version,
            counts: countsOf(next, owner),
          })),
        ),
    replaced.length > 0 ? deps.messages.unlist(replaced) : undefined,
    tell(deps, next, kind, now),
  ]);
}

function countsOf(s: ConversationState, owner: string) {
  const box = boxOf(s, owner);
  return { unread: box === 'main' ? unreadOf(s, owner) : 0, request: box === 'requests' ? (1 as const) : (0 as const) };
}

/** The live event of a change, to each side that should hear of it (a fence tells nobody). */
async function tell(deps: ChangeDeps, s: ConversationState, kind: ChangeKind, now: number) {
  if (!deps.live || kind === 'fence' || kind === 'cleared' || kind === 'declined') return;
  const [a, b] = s.people;
  await Promise.all(
    s.people.map((reader) => {
      const peer = reader === a ? b : a;
      // A request's recipient hears of it (the requests tab); a declined requester's messages are not pushed.
      if (boxOf(s, reader) === 'none' && kind === 'message') return undefined;
      const event: LiveEvent = {
        kind: 'conversation',
        peer,
        seq: kind === 'read' ? s.read[reader === a ? 1 : 0] : s.head,
        change: kind,
      };
      return announce(deps.live!, [reader], event, now, `conv.${peer}.${s.version}`).catch(() => undefined);
    }),
  );
}

// ------------------------------------------------------------------ sending

export interface SendRequest {
  text: string;
  media?: string[];
  clientId: string;
}

export interface Sent {
  message: MessageView;
  state: 'open' | 'request' | 'requested';
  /** false: a retry of a send that had landed (the same message). */
  created: boolean;
}

/** The claim a message's pictures are held by: the conversation, the sender and the send's client id. */
export const claimOf = (s: Pick<ConversationState, 'people'>, sender: string, clientId: string) =>
  `dm:${s.people[0]}.${s.people[1]}:${sender}:${clientId}`;

/**
 * Sends a message, once per client id: a retry answers the message the first attempt sent. A
 * message to oneself is 422; to an unknown account or one that left, 404; one the recipient's
 * setting or a block refuses, 403 `messages_refused` (the same answer for both); a request
 * already holding its sender's REQUEST_MESSAGES_MAX messages, 403 `message_request_pending`.
 */
export async function sendMessage(
  deps: MessageDeps,
  sender: string,
  peer: string,
  req: SendRequest,
  now = Date.now(),
): Promise<Sent> {
  if (sender === peer) throw new InvalidInputError('You cannot message yourself', 'cannot_message_self');
  const text = req.text.trim() === '' ? '' : req.text;
  const media = req.media ?? [];
  if ([...text].length > MESSAGE_TEXT_MAX)
    throw new InvalidInputError(`A message holds at most ${MESSAGE_TEXT_MAX} characters`, 'validation_failed');
  if (media.length > MESSAGE_PICTURES_MAX)
    throw new InvalidInputError(`A message holds at most ${MESSAGE_PICTURES_MAX} pictures`, 'validation_failed');
  if (text === '' && media.length === 0)
    throw new InvalidInputError('A message needs text or a picture', 'validation_failed');
  if (!CLIENT_ID_PATTERN.test(req.clientId))
    throw new InvalidInputError('clientId: 1–64 of A–Z a–z 0–9 _ -', 'validation_failed');

  const clientId = { sender, clientId: req.clientId };
  const readConversation = () => deps.messages.conversation(sender, peer, { clientId });
  const [first, profile, settings, blockedFirst, followed, pictures] = await Promise.all([
    readConversation(),
    deps.users.profile(peer),
    deps.users.settings(peer),
    deps.blocks.eitherBlocks(sender, peer),
    deps.relations.isFollowing(peer, sender),
    media.length === 0 ? Promise.resolve([]) : requirePictures(deps).check(sender, media),
    takeWriteQuota<'message' | 'conversation'>(deps, sender, 'message', now),
  ]);
  if (first.sentWithClientId !== undefined) return resend(deps, sender, peer, first.sentWithClientId);
  if (!profile || !settings || profile.standing.state !== 'active')
    throw new NotFoundError(`No user "${peer}"`, 'user_not_found');
  const message = { from: sender, text, pictures, at: now, clientId: req.clientId };
  const admission = (blocked: boolean) => ({
    blocked,
    messagesFrom: settings.messagesFrom,
    followedByRecipient: followed,
  });
  if (!first.state || first.state.head === 0) {
    // A send refused anyway begins no conversation, so it spends none: a refused sender's
    // retries answer the refusal, not 429.
    const trial = applySend(first.state ?? emptyConversation(sender, peer, now), message, admission(blockedFirst));
    if ('refused' in trial) throw refusal(trial.refused);
    await takeWriteQuota<'message' | 'conversation'>(deps, sender, 'conversation', now);
  }

  const claim = claimOf(first.state ?? emptyConversation(sender, peer, now), sender, req.clientId);
  if (pictures.length > 0) await requirePictures(deps).claim(media, claim, now);
  // A commit lost to another change reads again, the block check too: a block's fence is such a
  // change, so a send that read before a block meets it on its next read (docs/consistency.md U3).
  let blocked = blockedFirst;
  const readAgain = async () => {
    const [c, b] = await Promise.all([readConversation(), deps.blocks.eitherBlocks(sender, peer)]);
    blocked = b;
    return c;
  };
  let nextRead = () => Promise.resolve(first);
  const result = await change<Sent | { again: number }>(
    deps,
    sender,
    peer,
    () => {
      const read = nextRead;
      nextRead = readAgain;
      return read();
    },
    (seen) => {
      if (seen.sentWithClientId !== undefined) return { done: { again: seen.sentWithClientId } };
      const state = seen.state ?? emptyConversation(sender, peer, now);
      const outcome = applySend(state, message, admission(blocked));
      if ('refused' in outcome) throw refusal(outcome.refused);
      return {
        next: outcome.state,
        messages: [outcome.stored],
        clientId,
        event: 'message',
        result: { message: viewOf(deps, outcome.stored), state: stateFor(outcome.state, sender), created: true },
      };
    },
    now,
  ).catch(async (e: unknown) => {
    // A refusal (or a race lost every time) is decided before any commit: nothing holds the
    // pictures, and the sender may send them again. Another error may follow a commit (the
    // counts, the live event): the message holds them, and a retry answers it.
    if (pictures.length > 0 && e instanceof DomainError) await requirePictures(deps).giveBack(media, claim);
    throw e;
  });
  if ('again' in result) return resend(deps, sender, peer, result.again);
  return result;
}

/** A retry of a send that landed: the message it made (recalled since, it says so). */
async function resend(deps: MessageDeps, sender: string, peer: string, seq: number): Promise<Sent> {
  const found = await deps.messages.conversation(sender, peer, { seq });
  if (!found.state || !found.message) throw messageNotFound(seq);
  return { message: viewOf(deps, found.message), state: stateFor(found.state, sender), created: false };
}

function refusal(kind: 'refused' | 'request_pending') {
  return kind === 'refused'
    ? new ForbiddenError('This person does not accept your messages', 'messages_refused')
    : new ForbiddenError('Your message request is waiting for an answer', 'message_request_pending');
}

function requirePictures(deps: MessageDeps): MessagePictures {
  if (!deps.messagePictures)
    throw new InvalidInputError('Pictures in messages are not configured here', 'media_not_found');
  return deps.messagePictures;
}

function viewOf(deps: MessageDeps, m: StoredMessage): MessageView {
  return {
    seq: m.seq,
    from: m.from,
    text: m.text,
    pictures: m.pictures.length > 0 && deps.messagePictures ? deps.messagePictures.view(m.pictures) : [],
    at: m.at,
    recalled: m.recalled === true,
    erased: m.erased === true,
    clientId: m.clientId,
  };
}

// ------------------------------------------------------------------ reading

/** The person as `faces` found them, or gone (`left`) when they are not an active account. */
function personFrom(deps: MessageDeps, faces: ReadonlyMap<string, UserFace>, handle: string): Person {
  const face = faces.get(handle);
  return face
    ? { ...faceFrom(deps.pictures, face), left: false }
    : { handle, displayName: handle, avatar: null, left: true };
}

/** Inside the conversation page's cursor: the seq the next (older) page ends before. */
const isSeq = (s: string) => /^[1-9]\d{0,11}$/.test(s);

/**
 * A page of the conversation with `peer`, newest first from the cursor, returned oldest → newest.
 * One get (the state and the page's messages and hidden marks) beside the peer's face.
 */
export async function readConversation(
  deps: MessageDeps,
  reader: string,
  peer: string,
  limit: number,
  cursor?: string,
): Promise<ConversationView> {
  if (reader === peer) throw conversationNotFound();
  const inner = decodeCursor(cursor, isSeq);
  const before = inner === undefined ? undefined : Number(inner);
  const [page, faces] = await Promise.all([
    deps.messages.page(reader, peer, reader, limit, before),
    deps.users.faces([peer]),
  ]);
  const s = page.read.state;
  if (!s || s.head === 0) throw conversationNotFound();
  const me = s.people[0] === reader ? 0 : 1;
  const cleared = s.cleared[me];
  const shown = page.messages.filter((m) => m.seq > cleared && !page.hidden.has(m.seq));
  const oldest = page.messages[page.messages.length - 1];
  const more = page.messages.length === limit && oldest !== undefined && oldest.seq > cleared + 1;
  return {
    peer: personFrom(deps, faces, peer),
    state: stateFor(s, reader),
    messages: shown.reverse().map((m) => viewOf(deps, m)),
    readUpTo: s.read[me],
    peerReadUpTo: s.read[1 - me]!,
    head: s.head,
    ...(more ? { nextCursor: encodeCursor(String(oldest.seq)) } : {}),
  };
}

/** Inside the list's cursor: the last entry read, "<activity>.<head>.<peer>". */
function parseEntry(box: Exclude<Box, 'none'>, inner: string): IndexEntry | null {
  const m = /^(\d{1,13})\.(\d{1,12})\.([a-z0-9_]{1,30})$/.exec(inner);
  return m ? { box, activityAt: Number(m[1]), head: Number(m[2]), peer: m[3]! } : null;
}

/**
 * A page of the owner's conversations (main list or requests), latest activity first: one get
 * of the list, then one multi-get of the conversations' states and the people's faces beside it.
 * An entry shows only while the conversation is still where it says (its head, its time, its
 * box): of the entries racing changes leave, exactly one per conversation does (docs/consistency.md U).
 */
export async function listConversations(
  deps: MessageDeps,
  owner: string,
  box: Exclude<Box, 'none'>,
  limit: number,
  cursor?: string,
): Promise<{ items: ConversationSummary[]; nextCursor?: string }> {
  const inner = decodeCursor(cursor, (s) => parseEntry(box, s) !== null);
  const page = await deps.messages.entries(
    owner,
    box,
    limit,
    inner === undefined ? undefined : parseEntry(box, inner)!,
  );
  const peers = [...new Set(page.items.map((e) => e.peer))];
  const [states, faces] = await Promise.all([deps.messages.states(owner, peers), deps.users.faces(peers)]);
  const stale: { owner: string; entry: IndexEntry }[] = [];
  const items = page.items.flatMap((e): ConversationSummary[] => {
    const s = states.get(e.peer);
    if (!s || !sameEntry(entryOf(s, owner), e)) {
      stale.push({ owner, entry: e });
      return [];
    }
    const me = s.people[0] === owner ? 0 : 1;
    return [
      {
        peer: personFrom(deps, faces, e.peer),
        state: stateFor(s, owner),
        last: s.last
          ? {
              seq: s.last.seq,
              from: s.last.from,
              text: s.last.text,
              pictures: s.last.pictures,
              at: s.last.at,
              recalled: s.last.recalled === true,
              erased: s.last.erased === true,
            }
          : null,
        unread: unreadOf(s, owner),
        activityAt: s.activityAt,
        readUpTo: s.read[me],
        peerReadUpTo: s.read[1 - me]!,
      },
    ];
  });
  // Entries a later change replaced and whose removal was cut: removed now (best effort).
  if (stale.length > 0) await deps.messages.unlist(stale).catch(() => undefined);
  const next = page.next;
  return { items, ...(next ? { nextCursor: encodeCursor(`${next.activityAt}.${next.head}.${next.peer}`) } : {}) };
}

/** The badge: unread messages in main-list conversations, and requests waiting. One get. */
export function unreadBadge(deps: Pick<MessageDeps, 'messages'>, owner: string) {
  return deps.messages.badge(owner);
}

// ------------------------------------------------------------------ the other changes

/**
 * A change of an existing conversation between `actor` and `peer` (404 when there is none, or
 * for oneself): `decide` sees the state (and the message `seq`, when asked for) as read.
 */
function changeOf<R>(
  deps: ChangeDeps,
  actor: string,
  peer: string,
  now: number,
  decide: (state: ConversationState, message: StoredMessage | undefined) => Decision<R>,
  seq?: number,
): Promise<R> {
  if (actor === peer) throw conversationNotFound();
  return change<R>(
    deps,
    actor,
    peer,
    () => deps.messages.conversation(actor, peer, seq === undefined ? {} : { seq }),
    (seen) => {
      if (!seen.state || seen.state.head === 0) throw conversationNotFound();
      return decide(seen.state, seen.message);
    },
    now,
  );
}

/** `reader` has read up to `upTo` (clamped to the head; a marker never moves back). */
export async function markRead(
  deps: MessageDeps,
  reader: string,
  peer: string,
  upTo: number,
  now = Date.now(),
): Promise<number> {
  if (reader === peer) throw conversationNotFound();
  const head = (await deps.messages.conversation(reader, peer)).state?.head ?? 0;
  if (head === 0) throw conversationNotFound();
  const target = Math.min(Math.max(1, Math.floor(upTo)), head);
  return changeOf<number>(
    deps,
    reader,
    peer,
    now,
    (s, message) => {
      const me = s.people[0] === reader ? 0 : 1;
      const next = message ? applyRead(s, reader, message) : null;
      return next ? { next, event: 'read', result: next.read[me] } : { done: s.read[me] };
    },
    target,
  );
}

/** Recalls (撤回) the actor's own message within RECALL_WINDOW: gone for both, a placeholder stays. */
export async function recallMessage(
  deps: MessageDeps,
  actor: string,
  peer: string,
  seq: number,
  now = Date.now(),
): Promise<MessageView> {
  let freed: MessagePicture[] = [];
  let claim = '';
  const view = await changeOf<MessageView>(
    deps,
    actor,
    peer,
    now,
    (s, message) => {
      if (!message) throw messageNotFound(seq);
      const out = applyRecall(s, actor, message, now);
      if (out === null) return { done: viewOf(deps, message) };
      if ('refused' in out) {
        throw out.refused === 'not_sender'
          ? new ForbiddenError('Only the sender can recall a message')
          : new ConflictError('A message can be recalled for 2 minutes after it is sent', 'recall_window_closed');
      }
      freed = message.pictures;
      claim = claimOf(s, actor, message.clientId);
      return { next: out.state, messages: [out.stored], event: 'recalled', result: viewOf(deps, out.stored) };
    },
    seq,
  );
  if (freed.length > 0 && deps.messagePictures) {
    await deps.messagePictures.release(
      freed.map((p) => p.id),
      claim,
    );
  }
  return view;
}

const noRequest = () => new ConflictError('There is no request to answer', 'no_request');

/** The recipient accepts a request: it moves to their main list, and both may write freely. Accepting again changes nothing. */
export function acceptRequest(deps: MessageDeps, actor: string, peer: string, now = Date.now()) {
  return changeOf(deps, actor, peer, now, (s) => {
    const next = applyAccept(s, actor);
    if (next) return { next, event: 'accepted', result: stateFor(next, actor) };
    if (s.status === 'open') return { done: stateFor(s, actor) };
    throw noRequest();
  });
}

/** The recipient declines a request: it leaves their requests; the sender is not told. Declining again changes nothing. */
export function declineRequest(deps: MessageDeps, actor: string, peer: string, now = Date.now()): Promise<void> {
  return changeOf(deps, actor, peer, now, (s) => {
    const next = applyDecline(s, actor);
    if (next) return { next, event: 'declined', result: undefined };
    if (s.status === 'declined' && s.requester !== actor) return { done: undefined };
    throw noRequest();
  });
}

/** Deletes the conversation for the actor only: it leaves their list until the next message. */
export function clearConversation(deps: MessageDeps, actor: string, peer: string, now = Date.now()): Promise<void> {
  return changeOf(deps, actor, peer, now, (s) => {
    const next = applyClear(s, actor);
    return next ? { next, event: 'cleared', result: undefined } : { done: undefined };
  });
}

/** Deletes one message for the actor only. */
export async function hideMessage(deps: MessageDeps, actor: string, peer: string, seq: number): Promise<void> {
  if (actor === peer) throw conversationNotFound();
  // Conditional on the conversation as read, so a hide never lands in a row the erasure removed
  // (it would leave a row nothing finds); any other change in between: read again.
  for (let attempt = 0; attempt < CHANGE_ATTEMPTS; attempt++) {
    const found = await deps.messages.conversation(actor, peer);
    if (!found.state || seq > found.state.head || seq < 1) throw messageNotFound(seq);
    await atStep(deps, 'message.hide-read', { actor, peer });
    if (await deps.messages.hide(actor, seq, found)) return;
  }
  throw new ConflictError('This conversation is changing too fast; try again', 'conversation_busy');
}

/**
 * A block's fence: moves the conversation's version (making it if there is none), so a send
 * that read the state before the block fails its commit, reads again, and meets the block.
 * Called by the block after its edge is written.
 */
export async function fenceConversation(deps: ChangeDeps, a: string, b: string, now = Date.now()): Promise<void> {
  await change(
    deps,
    a,
    b,
    () => deps.messages.conversation(a, b),
    (seen) => ({ next: applyFence(seen.state ?? emptyConversation(a, b, now)), event: 'fence', result: undefined }),
    now,
  );
}

/** Messages read a page at a time where a whole conversation is walked (an erasure, an export). */
const WALK_PAGE = 200;

/**
 * Removes the conversation of `handle` and `peer` for both sides (an erasure: its row is keyed by
 * the two handles, and a released handle goes to someone else): first the pictures its messages
 * hold are given back and discarded, then the row, both sides' list entries, counts and marks.
 * Idempotent: cut anywhere, it is finished by running it again (the pictures' release is).
 */
export async function removeConversation(
  deps: { messages: MessageStore; messagePictures?: Pick<MessagePictures, 'release'> },
  handle: string,
  peer: string,
): Promise<void> {
  if (deps.messagePictures) {
    for (let before: number | undefined; ; ) {
      const page = await deps.messages.page(handle, peer, handle, WALK_PAGE, before);
      const s = page.read.state;
      if (!s) break;
      for (const m of page.messages) {
        if (m.pictures.length > 0)
          await deps.messagePictures.release(
            m.pictures.map((p) => p.id),
            claimOf(s, m.from, m.clientId),
          );
      }
      const oldest = page.messages[page.messages.length - 1];
      if (page.messages.length < WALK_PAGE || !oldest || oldest.seq <= 1) break;
      before = oldest.seq;
    }
  }
  await deps.messages.removeConversation(handle, peer);
}

/** A conversation as `owner` has it, for their data export: the messages they did not delete for themselves. */
export interface ConversationRecord {
  peer: string;
  state: 'open' | 'request' | 'requested';
  messages: StoredMessage[];
}

/**
 * Every conversation of `owner` with the messages they still have (not deleted for themselves),
 * oldest first, up to `max` messages overall; `cut` when there were more. One get per page of
 * peers and per page of messages.
 */
export async function conversationsOf(
  deps: { messages: MessageStore },
  owner: string,
  max: number,
): Promise<{ items: ConversationRecord[]; cut: boolean }> {
  const items: ConversationRecord[] = [];
  let total = 0;
  for (let after: string | undefined; ; ) {
    const peers = await deps.messages.peersOf(owner, WALK_PAGE, after);
    for (const peer of peers) {
      const kept: StoredMessage[] = [];
      let state: ConversationState | null = null;
      for (let before: number | undefined; ; ) {
        const page = await deps.messages.page(owner, peer, owner, WALK_PAGE, before);
        state = page.read.state;
        if (!state) break;
        const cleared = state.cleared[state.people[0] === owner ? 0 : 1];
        for (const m of page.messages) if (m.seq > cleared && !page.hidden.has(m.seq)) kept.push(m);
        const oldest = page.messages[page.messages.length - 1];
        if (page.messages.length < WALK_PAGE || !oldest || oldest.seq <= cleared + 1) break;
        if (total + kept.length >= max)
          return { items: [...items, record(owner, peer, state, kept, max - total)], cut: true };
        before = oldest.seq;
      }
      if (!state || kept.length === 0) continue;
      if (total + kept.length > max)
        return { items: [...items, record(owner, peer, state, kept, max - total)], cut: true };
      items.push(record(owner, peer, state, kept, kept.length));
      total += kept.length;
      if (total >= max) {
        const more = peers.indexOf(peer) < peers.length - 1 || peers.length === WALK_PAGE;
        return { items, cut: more };
      }
    }
    if (peers.length < WALK_PAGE) return { items, cut: false };
    after = peers[peers.length - 1];
  }
}

/** The `count` oldest of `newestFirst`, oldest first. */
function record(owner: string, peer: string, s: ConversationState, newestFirst: StoredMessage[], count: number) {
  const oldestFirst = [...newestFirst].sort((x, y) => x.seq - y.seq).slice(0, Math.max(0, count));
  return { peer, state: stateFor(s, owner), messages: oldestFirst };
}
