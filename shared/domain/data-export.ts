// shared/domain/data-export.ts — domain: a user's data export (导出数据) — what is in it, and how
// long a build and its link are good for. Built by the worker, handed out by GET /users/{h}/export.

/** A ready export younger than this is handed out again; an older one is built anew. */
export const EXPORT_FRESH_MS = 24 * 3_600_000;
/** A build not ready after this is taken for lost (its message dead-lettered) and asked again. */
export const EXPORT_STALE_MS = 10 * 60_000;
/** How long a download link works. */
export const EXPORT_LINK_SECONDS = 15 * 60;
/** What a client waits before asking again while the export is built. */
export const EXPORT_RETRY_SECONDS = 2;
/** At most this many of each kind (posts, comments, likes, …; messages over all conversations) go into one export. */
export const EXPORT_ITEMS_MAX = 10_000;

/** The file's content, version 1. */
export interface ExportDocument {
  format: 'weibo-serverless export';
  version: 1;
  handle: string;
  exportedAt: string;
  profile: {
    displayName: string;
    createdAt: string;
    bio?: string;
    location?: string;
    /** The pictures' URLs (the avatar at its largest), when set. */
    avatar?: string;
    cover?: string;
  };
  /** The user's own settings (设置). */
  settings?: { messagesFrom: string; notifications: Record<string, boolean> };
  posts: {
    id: string;
    body: string;
    createdAt: string;
    editedAt?: string;
    repostOf?: string;
    pictures: { url: string; alt?: string }[];
  }[];
  comments: { id: string; postId: string; body: string; createdAt: string; replyTo?: string }[];
  likes: { postId: string; likedAt: string }[];
  bookmarks: { postId: string; bookmarkedAt: string }[];
  following: { handle: string; since: string }[];
  /** Groups (分组, 特别关注 first): their names and members, the members as they were added. */
  groups?: { name: string; special: boolean; createdAt?: string; members: { handle: string; addedAt: string }[] }[];
  followers: { handle: string; since: string }[];
  /**
   * Private conversations (私信): the other person, how the conversation stands for the user, and
   * its messages oldest first — both sides', less those the user deleted for themselves. A
   * recalled message has no text or pictures; pictures are named by their ids.
   */
  conversations: {
    peer: string;
    state: 'open' | 'request' | 'requested';
    messages: { seq: number; from: string; text: string; at: string; recalled: boolean; pictures: string[] }[];
  }[];
  /** Kinds cut at EXPORT_ITEMS_MAX (absent: nothing was left out). */
  truncated?: string[];
}
