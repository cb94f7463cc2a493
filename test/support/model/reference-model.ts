// test/support/model/reference-model.ts — what the API should show, built only from what the
// API answered (never from reading state back; the one exception: a comment whose request got
// no answer is looked for by its unique body once the seed has settled). Timelines are derived,
// not stored: a reader's own live posts plus the live posts of everyone they follow now, newest
// first in the inbox's real byte order (so posts of the same millisecond are ordered as the
// server orders them). Reposts are posts of the reposter; counts and the reader's own state
// are derived too: likes = the likers kept here, comments = the live comments, reposts = the
// live posts whose original is this one, reposted = the reader has such a live post.
import { keyFromPostId, POST_MAX_CODE_POINTS } from '../../../shared/domain/post.js';
import { inboxQualifier } from '../../../shared/schema/row-keys.js';

export interface ModelPost {
  slot: number;
  id: string;
  author: string;
  body: string;
  live: boolean;
  /** The inbox qualifier: timelines and author lists are ascending in it. */
  order: Buffer;
  /** A repost: its (root) original's id. */
  repostOf?: string;
  /** A repost made without a comment: the user's one plain repost of that original. */
  plain?: boolean;
  likers: Set<string>;
}

export interface ModelComment {
  index: number;
  post: number;
  author: string;
  body: string;
  /** Unknown only while `state` is 'unknown'. */
  id?: string;
  replyTo?: { id: string; author: string };
  /** 'unknown': the create got no answer, so it may or may not exist (resolved by body after the seed). */
  state: 'live' | 'deleted' | 'unknown';
}

/** Weibo's repost chain, as the API documents it: `comment //@them: their text`, cut to the post limit. */
export function chainBody(comment: string, via?: { author: string; body: string }): string {
  if (!via || via.body === '') return comment;
  const chained = [...`${comment} //@${via.author}: ${via.body}`.trimStart()];
  return chained.length <= POST_MAX_CODE_POINTS ? chained.join('') : `${chained.slice(0, POST_MAX_CODE_POINTS - 1).join('')}…`;
}

/** How many of a subject's history entries a mismatch line quotes (the most recent ones). */
const HISTORY_QUOTED = 6;
/** How many subjects' histories a wrong count quotes (the most recently flagged ones). */
const HISTORIES_QUOTED = 4;

export const pairSubject = (follower: string, followee: string) => `${follower}→${followee}`;
export const slotSubject = (slot: number) => `#${slot}`;
export const commentSubject = (index: number) => `c${index}`;

export class ReferenceModel {
  private readonly edges = new Set<string>();
  private readonly posts = new Map<number, ModelPost>();
  private readonly ids = new Map<string, ModelPost>();
  private readonly comments = new Map<number, ModelComment>();
  /** Posts any like, unlike or comment request was sent for: their lists are read back. */
  private readonly likeTouched = new Set<number>();
  private readonly commentTouched = new Set<number>();
  /** Per pair / post: what was done to it and what the API answered, for mismatch lines. */
  private readonly notes = new Map<string, string[]>();
  /** Subjects worth quoting beside a wrong count (concurrent races, retries after delete), least recently flagged first. */
  private readonly flagged = new Set<string>();

  constructor(readonly handles: readonly string[]) {}

  // --- updates, from responses ----------------------------------------------------------------

  created(slot: number, id: string, author: string, body: string, repost?: { of: string; plain: boolean }): void {
    const key = keyFromPostId(id);
    if (!key) throw new Error(`model: ${id} is not a post id`);
    const post: ModelPost = { slot, id, author, body, live: true, order: Buffer.from(inboxQualifier(key)), likers: new Set() };
    if (repost) Object.assign(post, { repostOf: repost.of, plain: repost.plain });
    this.posts.set(slot, post);
    this.ids.set(id, post);
  }

  setLike(slot: number, user: string, on: boolean): void {
    const post = this.posts.get(slot);
    if (!post) return;
    if (on) post.likers.add(user);
    else post.likers.delete(user);
  }

  touchedLikes(slot: number): void {
    this.likeTouched.add(slot);
  }

  touchedComments(slot: number): void {
    this.commentTouched.add(slot);
  }

  commented(index: number, comment: Omit<ModelComment, 'index'>): void {
    this.comments.set(index, { index, ...comment });
    this.commentTouched.add(comment.post);
  }

  commentDeleted(index: number): void {
    const comment = this.comments.get(index);
    if (comment) comment.state = 'deleted';
  }

  /** An unknown comment found (with the id and reply-to the server gave it), or not found. */
  resolveComment(index: number, found?: { id: string; replyTo?: { id: string; author: string } }): void {
    const comment = this.comments.get(index);
    if (!comment || comment.state !== 'unknown') return;
    if (found) Object.assign(comment, { state: 'live', id: found.id, ...(found.replyTo ? { replyTo: found.replyTo } : {}) });
    else comment.state = 'deleted';
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

  /** The live post a plain repost of `original` by `user` answers again (200), if any. */
  plainRepostOf(user: string, original: string): ModelPost | undefined {
    return this.allPosts().find((p) => p.live && p.plain && p.author === user && p.repostOf === original);
  }

  comment(index: number): ModelComment | undefined {
    return this.comments.get(index);
  }

  allComments(): ModelComment[] {
    return [...this.comments.values()];
  }

  unknownComments(): ModelComment[] {
    return [...this.comments.values()].filter((c) => c.state === 'unknown');
  }

  /** A post's live comments, oldest first (comment ids sort by creation time). */
  liveComments(slot: number): ModelComment[] {
    return [...this.comments.values()].filter((c) => c.post === slot && c.state === 'live').sort((a, b) => (a.id! < b.id! ? -1 : a.id! > b.id! ? 1 : 0));
  }

  /** Posts whose comments or likers lists are read back. */
  postsWithComments(): ModelPost[] {
    return [...this.commentTouched].flatMap((s) => this.posts.get(s) ?? []);
  }

  postsWithLikes(): ModelPost[] {
    return [...this.likeTouched].flatMap((s) => this.posts.get(s) ?? []);
  }

  /** What every view of a post must show: exact counts, and the reader's own state (none: anonymous). */
  engagement(post: ModelPost, reader?: string): { likeCount: number; commentCount: number; repostCount: number; liked: boolean; reposted: boolean } {
    const reposts = this.allPosts().filter((p) => p.live && p.repostOf === post.id);
    return {
      likeCount: post.likers.size,
      commentCount: this.liveComments(post.slot).length,
      repostCount: reposts.length,
      liked: reader !== undefined && post.likers.has(reader),
      reposted: reader !== undefined && reposts.some((p) => p.author === reader),
    };
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
    return `${post.repostOf ? (post.plain ? 'plain repost' : 'repost') : 'post'} #${post.slot} by ${post.author} (${post.id})`;
  }

  describeComment(comment: ModelComment): string {
    return `comment c${comment.index} by ${comment.author} on #${comment.post}${comment.id ? ` (${comment.id})` : ''}`;
  }
}

function newestFirst(posts: ModelPost[]): ModelPost[] {
  return posts.sort((x, y) => Buffer.compare(x.order, y.order));
}
