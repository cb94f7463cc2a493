// shared/ports/group-store.ts — where groups (分组, 特别关注) are kept: each owner's group book,
// changed only by a commit checked against the version read, and an index of who holds a member
// in a group (special-attention notifications and the erasure read it). Implemented in
// shared/adapters/hbase/hbase-group-store.ts; the layout is shared/schema/tables.ts (groups).
import type { GroupBook } from '../domain/groups.js';

/** A book as read, with the version a commit must still find. */
export interface ReadBook {
  book: GroupBook;
  /** null: the owner never changed their groups. */
  version: string | null;
}

/** One (owner, group) holding a member. */
export interface Holding {
  owner: string;
  groupId: string;
}

export interface GroupStore {
  /** The owner's whole book (every group and member): one get. */
  read(owner: string): Promise<ReadBook>;
  /** One group's members, or null when the owner has no such group: one get of that group's cells. */
  members(owner: string, groupId: string): Promise<string[] | null>;
  /**
   * Replaces `seen` by `next` if no other commit landed since `seen` was read: one
   * check-and-put. false: another change came first; read again.
   */
  commit(owner: string, seen: ReadBook, next: GroupBook): Promise<boolean>;
  /** Who holds `member` in a group, as the index says (entries may be stale: check the books). One get. */
  holders(member: string): Promise<Holding[]>;
  /** Index entries, written BEFORE the commit that adds the member (so an entry is never missing). */
  addHoldings(member: string, holdings: Holding[]): Promise<void>;
  /** Index entries, removed AFTER the commit that took the member out. */
  removeHoldings(member: string, holdings: Holding[]): Promise<void>;
  /**
   * Records that a 特别关注 notice of the author's post may go to each fan: written before the
   * notices, so the erasure of the author finds every notice to forget (kept as long as notices).
   */
  told(author: string, postId: string, fans: string[]): Promise<void>;
  /** Every (post, fan) recorded for the author: one get. */
  toldOf(author: string): Promise<{ postId: string; fan: string }[]>;
  /**
   * Deletes every cell of `member` from the owner's book, the emptied ones too: only for an erased
   * account, which nobody can add again, so no commit can race the delete.
   */
  forgetMember(owner: string, member: string): Promise<void>;
  /** Deletes the owner's book, the index of who holds them and what they told (the erasure, once it left every group). */
  eraseBook(owner: string): Promise<void>;
}
