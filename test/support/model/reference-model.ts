// test/support/model/reference-model.ts — what the API should show, built only from what the
// API answered (never from reading state back). Timelines are derived, not stored: a reader's
// own live posts plus the live posts of everyone they follow now, newest first in the inbox's
// real byte order (so posts of the same millisecond are ordered as the server orders them).
import { keyFromPostId } from '../../../shared/domain/post.js';
import { inboxQualifier } from '../../../shared/schema/row-keys.js';

export interface ModelPost {
  slot: number;
  id: string;
  author: string;
  body: string;
  live: boolean;
  /** The inbox qualifier: timelines and author lists are ascending in it. */
  order: Buffer;
}

/** How many of a subject's history entries a mismatch line quotes (the most recent ones). */
const HISTORY_QUOTED = 6;
/** How many subjects' histories a wrong count quotes (the most recently flagged ones). */
const HISTORIES_QUOTED = 4;

export const pairSubject = (follower: string, followee: string) => `${follower}→${followee}`;
export const slotSubject = (slot: number) => `#${slot}`;

export class ReferenceModel {
  private readonly edges = new Set<string>();
  private readonly posts = new Map<number, ModelPost>();
  private readonly ids = new Map<string, ModelPost>();
  /** Per pair / post: what was done to it and what the API answered, for mismatch lines. */
  private readonly notes = new Map<string, string[]>();
  /** Subjects worth quoting beside a wrong count (concurrent races, retries after delete), least recently flagged first. */
  private readonly flagged = new Set<string>();

  constructor(readonly handles: readonly string[]) {}

  // --- updates, from responses ----------------------------------------------------------------

  created(slot: number, id: string, author: string, body: string): void {
    const key = keyFromPostId(id);
    if (!key) throw new Error(`model: ${id} is not a post id`);
    const post = { slot, id, author, body, live: true, order: Buffer.from(inboxQualifier(key)) };
    this.posts.set(slot, post);
    this.ids.set(id, post);
  }

  deleted(slot: number): void {
    const post = this.posts.get(slot);
    if (post) post.live = false;
  }

  setEdge(follower: string, followee: string, on: boolean): void {
    if (on) this.edges.add(pairSubject(follower, followee));
    else this.edges.delete(pairSubject(follower, followee));
  }

  note(subject: string, text: string, flag = false): void {
    this.notes.set(subject, [...(this.notes.get(subject) ?? []), text]);
    if (flag) {
      this.flagged.delete(subject);
      this.flagged.add(subject);
    }
  }

  // --- what the API should show ---------------------------------------------------------------

  post(slot: number): ModelPost | undefined {
    return this.posts.get(slot);
  }

  byId(id: string): ModelPost | undefined {
    return this.ids.get(id);
  }

  allPosts(): ModelPost[] {
    return [...this.posts.values()];
  }

  follows(follower: string, followee: string): boolean {
    return this.edges.has(pairSubject(follower, followee));
  }

  following(user: string): string[] {
    return this.handles.filter((h) => this.follows(user, h));
  }

  followers(user: string): string[] {
    return this.handles.filter((h) => this.follows(h, user));
  }

  livePostsOf(author: string): ModelPost[] {
    return newestFirst(this.allPosts().filter((p) => p.live && p.author === author));
  }

  timeline(reader: string): ModelPost[] {
    return newestFirst(this.allPosts().filter((p) => p.live && (p.author === reader || this.follows(reader, p.author))));
  }

  counts(user: string): { followers: number; following: number; posts: number } {
    return { followers: this.followers(user).length, following: this.following(user).length, posts: this.livePostsOf(user).length };
  }

  // --- explaining mismatches --------------------------------------------------------------------

  history(subject: string): string {
    const entries = this.notes.get(subject) ?? [];
    const shown = entries.slice(-HISTORY_QUOTED).join('; ');
    return `[${subject}: ${entries.length > HISTORY_QUOTED ? '…; ' : ''}${shown || 'no requests'}]`;
  }

  /** Histories of the flagged subjects behind one of `user`'s counts: its posts, or its edges in that direction. */
  flaggedHistories(user: string, count: 'followers' | 'following' | 'posts'): string {
    const behind = [...this.flagged].filter((subject) => {
      if (count === 'posts') return subject.startsWith('#') && this.posts.get(Number(subject.slice(1)))?.author === user;
      const [follower, followee] = subject.split('→');
      return count === 'following' ? follower === user : followee === user;
    });
    const quoted = behind.slice(-HISTORIES_QUOTED).map((subject) => this.history(subject));
    return [...(behind.length > HISTORIES_QUOTED ? [`(${behind.length - HISTORIES_QUOTED} more)`] : []), ...quoted].join(' ');
  }

  describe(post: ModelPost): string {
    return `post #${post.slot} by ${post.author} (${post.id})`;
  }
}

function newestFirst(posts: ModelPost[]): ModelPost[] {
  return posts.sort((x, y) => Buffer.compare(x.order, y.order));
}
