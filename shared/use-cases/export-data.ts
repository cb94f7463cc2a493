// shared/use-cases/export-data.ts — a user's data export (导出数据): `GET /users/{handle}/export`
// answers a short-lived download link to a JSON file of their own posts (with their pictures'
// URLs), comments, likes, bookmarks, following and followers, and their private conversations
// (messages both ways, less those they deleted for themselves) — what a user expects to take with
// them, before leaving (leave.ts) above all. The file is built by the worker, not in the request:
// a long history takes many reads.
// Steps (request): only yourself (403) → where the export stands (one get) → a ready one younger
// than EXPORT_FRESH_MS: its link (200) → one being built: 202 `building` with Retry-After → else
// ask for a build (check-and-put on the latest ask read: of racing requests one asks), THEN
// queue its message — only the ask that landed sends, so the worker always finds its ask (a
// message sent first could be taken before its ask lands and find nothing to build: the full
// suite caught that). A build not done after EXPORT_STALE_MS (a request cut between its ask
// and its send, or a message dead-lettered) is asked again by the next request.
// Steps (worker, message `export`): still the latest asked? → read every kind a page at a time
// (at most EXPORT_ITEMS_MAX each: the file says which were cut) → store the file under a fresh
// key → mark the build done on the ask it served (check-and-put: a newer ask keeps waiting for its
// own). A redelivered message builds again under a new key; the last done wins, both are right.
// Files expire with the bucket's lifecycle rule (exports/, one day).
import { SPECIAL_GROUP_ID } from '../domain/groups.js';
import { randomBytes } from 'node:crypto';
import {
  EXPORT_FRESH_MS,
  EXPORT_ITEMS_MAX,
  EXPORT_LINK_SECONDS,
  EXPORT_STALE_MS,
  type ExportDocument,
} from '../domain/data-export.js';
import type { ExportFiles } from '../ports/export-files.js';
import type { FeedDeps } from './feed-deps.js';
import type { Handled, MessageOf } from './background/message.js';
import { actAs } from './users.js';
import { AVATAR_LARGE, COVER } from './faces.js';
import { atStep } from './steps.js';
import { conversationsOf } from './messages.js';

export type ExportAnswer =
  | { state: 'ready'; url: string; expiresAt: number; builtAt: number }
  | { state: 'building'; requestedAt: number };

/** Asking for an export (the route): the user's export state, the queue, where the files are kept. */
export type ExportDeps = Pick<FeedDeps, 'users' | 'queue' | 'step'> & { exports: ExportFiles };
/** Building one (the worker): everything the file holds; no file is built where there is no store. */
export type BuildExportDeps = Pick<
  FeedDeps,
  'users' | 'posts' | 'relations' | 'reactions' | 'comments' | 'pictures' | 'exports' | 'messages' | 'groups'
>;

export async function requestExport(
  deps: ExportDeps,
  actor: string,
  handle: string,
  now = Date.now(),
): Promise<ExportAnswer> {
  actAs(actor, handle);
  const { requestedAt, done } = await deps.users.exportState(handle);
  if (done && done.requestedAt === requestedAt && now - done.builtAt < EXPORT_FRESH_MS) {
    return { state: 'ready', ...(await deps.exports.exportUrl(done.key, EXPORT_LINK_SECONDS)), builtAt: done.builtAt };
  }
  await atStep(deps, 'export.read', { handle });
  const building =
    requestedAt !== undefined && done?.requestedAt !== requestedAt && now - requestedAt < EXPORT_STALE_MS;
  if (building) return { state: 'building', requestedAt };
  if (await deps.users.askExport(handle, requestedAt ?? null, now)) {
    await deps.queue.send({ v: 1, type: 'export', user: handle, requestedAt: now });
    return { state: 'building', requestedAt: now };
  }
  // A racing request asked first: its build is the one under way.
  return { state: 'building', requestedAt: (await deps.users.exportState(handle)).requestedAt ?? now };
}

const iso = (millis: number) => new Date(millis).toISOString();

/** Every page of a list, up to EXPORT_ITEMS_MAX items; `cut` when there were more. */
async function all<T, C>(
  page: (after: C | undefined) => Promise<{ items: T[]; next?: C | undefined }>,
): Promise<{ items: T[]; cut: boolean }> {
  const items: T[] = [];
  let after: C | undefined;
  do {
    const got = await page(after);
    items.push(...got.items);
    after = got.next;
  } while (after !== undefined && items.length < EXPORT_ITEMS_MAX);
  return { items: items.slice(0, EXPORT_ITEMS_MAX), cut: after !== undefined || items.length > EXPORT_ITEMS_MAX };
}

const PAGE = 200;

/** The worker's half: builds the file of the ask `msg` names, if that ask is still the latest. */
export async function buildExport(
  deps: BuildExportDeps,
  msg: MessageOf<'export'>,
  now = Date.now(),
): Promise<Handled<'superseded' | 'no-store' | 'gone'>> {
  const idle = { readers: 0, continued: false, inboxCells: 0 };
  const { user } = msg;
  if (!deps.exports) return { ...idle, skipped: 'no-store' };
  if ((await deps.users.exportState(user)).requestedAt !== msg.requestedAt) return { ...idle, skipped: 'superseded' };
  const [profile, settings] = await Promise.all([deps.users.profile(user), deps.users.settings(user)]);
  if (!profile) return { ...idle, skipped: 'gone' };
  const pictureUrl = (id: string, stored?: string) => deps.pictures?.variantUrl(id, 'large') ?? stored ?? '';
  const store = deps.messages;
  const [groups, conversations, posts, comments, likes, bookmarks, following, followers] = await Promise.all([
    deps.groups.read(user),
    store ? conversationsOf({ messages: store }, user, EXPORT_ITEMS_MAX) : { items: [], cut: false },
    all((after?: string) =>
      deps.posts.listByAuthor(user, PAGE, after).then((p) => ({ items: p.items, next: p.nextCursor })),
    ),
    all((after?: Parameters<typeof deps.comments.writtenBy>[2]) => deps.comments.writtenBy(user, PAGE, after)),
    all((after?: string) => deps.reactions.likedBy(user, PAGE, after)),
    all((after?: Parameters<typeof deps.reactions.bookmarks>[2]) => deps.reactions.bookmarks(user, PAGE, after)),
    ...(['following', 'followers'] as const).map((list) =>
      all((after?: Parameters<typeof deps.relations.listed>[3]) => deps.relations.listed(user, list, PAGE, after)),
    ),
  ]);
  // A list entry shows only while its edge holds its since (K): the bookmarks' truth is read
  // with the posts' states, the edges' with one multi-get per list.
  const [followingSinces, followerSinces, bookmarkStates] = await Promise.all([
    deps.relations.followSinces(following!.items.map((e) => ({ follower: user, followee: e.handle }))),
    deps.relations.followSinces(followers!.items.map((e) => ({ follower: e.handle, followee: user }))),
    bookmarks.items.length
      ? deps.reactions.viewerState(
          user,
          bookmarks.items.map((b) => b.postId),
        )
      : Promise.resolve(new Map()),
  ]);
  const doc: ExportDocument = {
    format: 'weibo-serverless export',
    version: 1,
    handle: user,
    exportedAt: iso(now),
    profile: {
      displayName: profile.displayName,
      createdAt: iso(profile.createdAt),
      ...(profile.bio ? { bio: profile.bio } : {}),
      ...(profile.location ? { location: profile.location } : {}),
      ...(profile.avatar && deps.pictures ? { avatar: deps.pictures.variantUrl(profile.avatar, AVATAR_LARGE) } : {}),
      ...(profile.cover && deps.pictures ? { cover: deps.pictures.variantUrl(profile.cover, COVER) } : {}),
    },
    ...(settings ? { settings } : {}),
    posts: posts.items.map((p) => ({
      id: p.id,
      body: p.body,
      createdAt: iso(p.createdAt),
      ...(p.editedAt ? { editedAt: iso(p.editedAt) } : {}),
      ...(p.repostOf ? { repostOf: p.repostOf } : {}),
      pictures: (p.media ?? []).map((m) => ({
        url: pictureUrl(m.id, m.variants.large?.url),
        ...(m.alt ? { alt: m.alt } : {}),
      })),
    })),
    comments: comments.items.map((c) => ({
      id: c.id,
      postId: c.postId,
      body: c.body,
      createdAt: iso(c.createdAt),
      ...(c.replyTo ? { replyTo: c.replyTo.id } : {}),
    })),
    likes: likes.items.map((l) => ({ postId: l.postId, likedAt: iso(l.since) })),
    bookmarks: bookmarks.items
      .filter((b) => bookmarkStates.get(b.postId)?.bookmarkedAt === b.since)
      .map((b) => ({ postId: b.postId, bookmarkedAt: iso(b.since) })),
    following: following!.items
      .filter((e, i) => followingSinces[i] === e.since)
      .map((e) => ({ handle: e.handle, since: iso(e.since) })),
    followers: followers!.items
      .filter((e, i) => followerSinces[i] === e.since)
      .map((e) => ({ handle: e.handle, since: iso(e.since) })),
    groups: groups.book.groups.map((g) => ({
      name: g.name,
      special: g.id === SPECIAL_GROUP_ID,
      ...(g.createdAt ? { createdAt: iso(g.createdAt) } : {}),
      members: [...g.members].map(([handle, at]) => ({ handle, addedAt: iso(at) })),
    })),
    conversations: conversations.items.map((c) => ({
      peer: c.peer,
      state: c.state,
      messages: c.messages.map((m) => ({
        seq: m.seq,
        from: m.from,
        text: m.text,
        at: iso(m.at),
        recalled: m.recalled === true,
        pictures: m.pictures.map((p) => p.id),
      })),
    })),
  };
  const cut = Object.entries({
    posts,
    comments,
    likes,
    bookmarks,
    following: following!,
    followers: followers!,
    conversations,
  })
    .filter(([, r]) => r.cut)
    .map(([k]) => k);
  if (cut.length > 0) doc.truncated = cut;
  const key = `exports/${user}/${user}-export-${new Date(now).toISOString().slice(0, 10)}-${randomBytes(8).toString('hex')}.json`;
  await deps.exports.putExport(key, JSON.stringify(doc, null, 1));
  const won = await deps.users.exportDone(user, msg.requestedAt, key, now);
  return won ? idle : { ...idle, skipped: 'superseded' };
}
