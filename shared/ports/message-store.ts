// shared/ports/message-store.ts — what 私信 needs from storage: each conversation (its state and
// its messages, kept together so that one conditional write changes them together), and each
// user's index of conversations by latest activity with their unread counts. Implemented on
// HBase (shared/adapters/hbase/hbase-message-store.ts); layout and requests: shared/schema/
// tables.ts (messages); the invariants: docs/consistency.md U.
import type { Box, ConversationState, StoredMessage } from '../domain/messages.js';

/** A conversation as one read found it: what a conditional write checks is unchanged. */
export interface ConversationRead {
  /** null: the two have no conversation yet. */
  state: ConversationState | null;
  /** Opaque: what `commit` checks (the state exactly as read). */
  version: string | null;
}

export interface ConversationPage {
  read: ConversationRead;
  /** The messages of the page, newest first (seq < `before`), at most `limit`. */
  messages: StoredMessage[];
  /** Of those, the seqs the reader deleted for themselves. */
  hidden: Set<number>;
}

/** One side's entry in their list: where it is, and the seq of the message that put it there. */
export interface IndexEntry {
  box: Exclude<Box, 'none'>;
  peer: string;
  activityAt: number;
  head: number;
}

export interface IndexPage {
  items: IndexEntry[];
  /** Where the next page starts (the last entry READ, shown or not); absent at the end. */
  next?: IndexEntry;
}

/** A side's counts for its badge, as the last change of the conversation left them. */
export interface SideCounts {
  /** Unread messages in a main-list conversation. */
  unread: number;
  /** 1 while the conversation is a request waiting for this side. */
  request: 0 | 1;
}

export interface MessageStore {
  /** The conversation's state, and the message a send with this client id made (if any). One get. */
  conversation(
    a: string,
    b: string,
    opts?: { clientId?: { sender: string; clientId: string }; seq?: number },
  ): Promise<ConversationRead & { sentWithClientId?: number; message?: StoredMessage }>;
  /** The state with a page of messages older than `before` (absent: the newest), as `reader` sees them. One get. */
  page(a: string, b: string, reader: string, limit: number, before?: number): Promise<ConversationPage>;
  /** The states of the conversations of `me` with each of `peers`. One multi-get. */
  states(me: string, peers: string[]): Promise<Map<string, ConversationState>>;
  /**
   * Writes `next` (and the messages given, and a client id's claim) only while the conversation
   * is still as `seen` read it: false when anything changed since (read again). One request.
   */
  commit(
    next: ConversationState,
    seen: ConversationRead,
    write?: { messages?: StoredMessage[]; clientId?: { sender: string; clientId: string } },
  ): Promise<boolean>;
  /** Hides a message for `reader` only. One write. */
  hide(a: string, b: string, reader: string, seq: number): Promise<void>;
  /**
   * Lists the conversation for each side at its box (before the commit that makes them true),
   * and marks each side's participation in it (both sides of `pair`, and each entry's owner with
   * its peer): what finds every conversation of a user, deleted for themselves or not. One write.
   */
  list(entries: { owner: string; entry: IndexEntry }[], pair?: readonly [string, string]): Promise<void>;
  /** Removes list entries a newer one replaced. One write per owner, in parallel. */
  unlist(entries: { owner: string; entry: IndexEntry }[]): Promise<void>;
  /** A page of `owner`'s list, newest activity first, after `after`. One get. */
  entries(owner: string, box: Exclude<Box, 'none'>, limit: number, after?: IndexEntry): Promise<IndexPage>;
  /**
   * Records each side's counts as of the conversation's `version`: of two writes, the one of the
   * later version stays, whatever order they land in. One write per side, in parallel.
   */
  count(peerOf: { owner: string; peer: string; version: number; counts: SideCounts }[]): Promise<void>;
  /** `owner`'s badge: unread messages over main-list conversations and requests waiting. One get. */
  badge(owner: string): Promise<{ unread: number; requests: number }>;
  /**
   * The people `owner` has (or had) a conversation with, in handle order after `after`: every
   * conversation, those they deleted for themselves too (participation marks, written with the
   * list entries). One get.
   */
  peersOf(owner: string, limit: number, after?: string): Promise<string[]>;
  /**
   * Deletes the conversation of `a` and `b` for both sides: its row (state, messages, client ids,
   * hidden marks), every list entry of each side naming the other, each side's counts for it and
   * the participation marks — the marks last, so a removal cut anywhere is found and finished by
   * running it again. The row goes only while its state is as read (a change in between: read
   * again). Idempotent; a few requests.
   */
  removeConversation(a: string, b: string): Promise<void>;
}
