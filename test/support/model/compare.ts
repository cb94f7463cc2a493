// test/support/model/compare.ts — once the system has settled, reads everything the API shows
// about the seed's users and lists every difference from the reference model (not only the
// first), each line with the history of the pair or post involved. Every post view read (in
// timelines, author lists, single reads; a repost's embedded original too) is checked field
// by field: exact counts, the reader's own liked / reposted / bookmarked, and the original's
// state; a wrong field is one line however many reads showed it. Each user's bookmarks (收藏, all
// pages) hold exactly the live posts the model says they keep, each once. Comments (both orders) and likers lists of
// every post reactions were sent for are read back too; the following, followers and likers
// lists must also be newest first (by their items' times). Blocks and mutes: timelines leave out
// what the reader must not see (reference-model.ts `hides`), a blocked pair's reads of each
// other's posts (and of reposts of them) answer 403 `blocked`, every post view's `mentions` are
// the registered users its body names. Notifications: each user's like and mention notifications against the model's
// exact counts (compareNotifications). Groups (分组): each user's groups, their members and
// their timelines (compareGroups).
import type { Actor } from './driver.js';
import { read, type Api } from './http.js';
import { pairSubject, slotSubject, type ModelComment, type ModelPost, type ReferenceModel } from './reference-model.js';

/** Two page sizes: a paging bug shows as a difference between them. */
const TIMELINE_PAGE_SIZES = [3, 7] as const;
const POSTS_PAGE_SIZE = 4;
const RELATIONS_PAGE_SIZE = 2;
/** Each user reads every author's list once for its own state: one page (40 posts at most per author). */
const STATE_PAGE_SIZE = 50;
/** Newest-first and oldest-first comments with two page sizes; likers in small pages. */
const COMMENT_PAGES = [
  ['newest', 2],
  ['oldest', 3],
] as const;
const LIKERS_PAGE_SIZE = 2;
/** Notification pages: small enough that paging runs. */
const NOTIFICATIONS_PAGE_SIZE = 9;
/** Entries a timeline page reads beyond its limit: its window for leaving out plain reposts (docs/api.md, "Paging"). */
const DEDUP_SPARE = 10;
/** Group timelines: one page size, small enough that a group of a few members pages. */
const GROUP_PAGE_SIZE = 4;
/** A cursor that never ends must not hang the test. */
const MAX_PAGES = 500;
const POST_READS_AT_ONCE = 8;
/** Where a wrong field was seen: this many places quoted. */
const PLACES_QUOTED = 3;

type Count = 'followers' | 'following' | 'posts';
type Item = Record<string, unknown>;

/** What a comparison looked at, for the log: a check that compared nothing would pass too. */
export interface CompareStats {
  views: number;
  commentLists: number;
  likerLists: number;
  /** Like / repost / mention notification groups compared, and those the model could not state exactly. */
  notifications: number;
  notificationsSkipped: number;
  /** Groups compared (list, members, timeline), the members and the group timeline posts they hold. */
  groups?: number;
  groupMembers?: number;
  groupPosts?: number;
}

export async function compareWithModel(
  api: Api,
  model: ReferenceModel,
  users: readonly Actor[],
  stats?: CompareStats,
): Promise<string[]> {
  // Comments whose create got no answer first: every comment count depends on them.
  await resolveUnknownComments(api, model);
  const views = new ViewChecks(model);
  const grouped = { groups: 0, groupMembers: 0, groupPosts: 0 };
  // Users at once, each user's reads one after another: enough load, and no 30 s timeouts.
  const perUser = await Promise.all(users.map((u) => compareUser(api, model, u, views, grouped)));
  const posts = await comparePosts(api, model, users, views);
  const lists = await compareReactionLists(api, model);
  const notified = { compared: 0, skipped: 0 };
  const notices = (await Promise.all(users.map((u) => compareNotifications(api, model, u, notified)))).flat();
  if (stats) {
    Object.assign(stats, {
      views: views.checked,
      commentLists: model.postsWithComments().length,
      likerLists: model.postsWithLikes().length,
      notifications: notified.compared,
      notificationsSkipped: notified.skipped,
      ...grouped,
    });
  }
  return [...new Set([...perUser.flat(), ...posts, ...lists, ...notices, ...views.lines()])];
}

async function compareUser(
  api: Api,
  model: ReferenceModel,
  user: Actor,
  views: ViewChecks,
  grouped: Required<Pick<CompareStats, 'groups' | 'groupMembers' | 'groupPosts'>>,
): Promise<string[]> {
  const h = user.handle;
  const out = await compareTimeline(api, model, user, views);
  const posts = await readPages(api, `posts of ${h}`, `/users/${h}/posts`, 'posts', POSTS_PAGE_SIZE);
  if (posts.problem) out.push(posts.problem);
  else out.push(...diffPosts(model, `posts of ${h}`, model.livePostsOf(h), posts.items.map(idOf), h, 'posts'));
  for (const item of posts.items) views.check(item, undefined, `posts of ${h}`);
  // Every author's posts as this user sees them: liked / reposted for every live post. Authors
  // the model has no post of are left out unless a block refuses them (their own list, read
  // above as theirs, shows any post they should not have): a load run's crowd of users who only
  // follow and like would otherwise cost a read per user and crowd member.
  const authors = new Set(model.allPosts().map((p) => p.author));
  for (const author of model.handles.filter((a) => authors.has(a) || model.eitherBlocks(h, a))) {
    if (model.eitherBlocks(h, author)) {
      // Across a block the author's posts are refused to the reader.
      const res = await read(api, `/users/${author}/posts?limit=${STATE_PAGE_SIZE}`, { token: user.token });
      if (res.status !== 403 || res.json?.error?.code !== 'blocked') {
        out.push(
          `posts of ${author} read by ${h} answered ${res.status} ${res.text.slice(0, 120)}, expected 403 blocked ${model.history(pairSubject(h, author))} ${model.history(pairSubject(author, h))}`,
        );
      }
      continue;
    }
    const mine = await readPages(
      api,
      `posts of ${author} read by ${h}`,
      `/users/${author}/posts`,
      'posts',
      STATE_PAGE_SIZE,
      user.token,
    );
    if (mine.problem) out.push(mine.problem);
    for (const item of mine.items) views.check(item, h, `posts of ${author} read by ${h}`);
  }
  const listed: Record<Count, number> = { posts: posts.items.length, following: 0, followers: 0 };
  for (const direction of ['following', 'followers'] as const) {
    const read = await readPages(api, `${direction} of ${h}`, `/users/${h}/${direction}`, 'users', RELATIONS_PAGE_SIZE);
    const handles = read.items.map((u) => String(u.handle));
    if (read.problem) out.push(read.problem);
    else
      out.push(
        ...diffEdges(model, h, direction, handles),
        ...notNewestFirst(`${direction} of ${h}`, read.items, 'since'),
      );
    listed[direction] = handles.length;
  }
  out.push(...(await compareCounts(api, model, h, listed)));
  out.push(...(await compareBookmarks(api, model, user, views)));
  if (model.hasGroups(h)) out.push(...(await compareGroups(api, model, user, views, grouped)));
  return out;
}

/**
 * The user's groups (分组): the list holds 特别关注 and the groups made, in that order, each with
 * the model's member count (the stored book: a member an unfollow failed to take out counts); each
 * group's members are the model's (a set); its timeline (all pages) is the model's home timeline
 * kept to its members' posts, paged and folded by the same rules as home (pagedTimeline).
 */
async function compareGroups(
  api: Api,
  model: ReferenceModel,
  user: Actor,
  views: ViewChecks,
  tally: Required<Pick<CompareStats, 'groups' | 'groupMembers' | 'groupPosts'>>,
): Promise<string[]> {
  const h = user.handle;
  const out: string[] = [];
  const ids = model.groupsOf(h);
  const histories = (members: Iterable<string>) => [...members].map((m) => model.history(pairSubject(h, m))).join(' ');
  const list = await read(api, `/users/${h}/groups`, { token: user.token });
  const listed = (list.json?.groups ?? []) as Item[];
  if (list.status !== 200) out.push(`groups of ${h} answered ${list.status}: ${list.text.slice(0, 160)}`);
  else if (listed.map((g) => g.id).join() !== ids.join())
    out.push(
      `groups of ${h} are ${listed.map((g) => String(g.id)).join(', ')}, model ${ids.join(', ')} ${model.history(`groups of ${h}`)}`,
    );
  for (const id of ids) {
    const where = `group ${id} of ${h}`;
    const expected = model.membersOf(h, id);
    tally.groups++;
    tally.groupMembers += expected.length;
    const counted = listed.find((g) => g.id === id)?.members;
    if (counted !== undefined && counted !== expected.length)
      out.push(
        `groups of ${h} count ${String(counted)} members in ${id}, model ${expected.length} (${expected.join(', ') || 'none'}) ${histories(model.following(h))}`,
      );
    const res = await read(api, `/users/${h}/groups/${id}/members`, { token: user.token });
    if (res.status !== 200 || !Array.isArray(res.json?.users)) {
      out.push(`members of ${where} answered ${res.status}: ${res.text.slice(0, 160)}`);
      continue;
    }
    const members = (res.json.users as Item[]).map((u) => String(u.handle));
    if (new Set(members).size !== members.length)
      out.push(`members of ${where} list a user twice: ${members.join(', ')}`);
    const extra = [...new Set(members)].filter((m) => !expected.includes(m));
    const missing = expected.filter((m) => !members.includes(m));
    if (extra.length > 0)
      out.push(`members of ${where} list ${extra.join(', ')}, out of it in the model ${histories(extra)}`);
    if (missing.length > 0) out.push(`members of ${where} lack ${missing.join(', ')} ${histories(missing)}`);
    out.push(...notNewestFirst(`members of ${where}`, res.json.users as Item[], 'addedAt'));
    const pages = await readPages(
      api,
      `timeline of ${where}`,
      `/users/${h}/groups/${id}/timeline`,
      'posts',
      GROUP_PAGE_SIZE,
      user.token,
    );
    for (const item of pages.items) views.check(item, h, `timeline of ${where}`);
    if (pages.problem) {
      out.push(pages.problem);
      continue;
    }
    const paged = pagedTimeline(h, model.groupTimeline(h, id), GROUP_PAGE_SIZE, (p) => model.hides(h, p));
    tally.groupPosts += paged.expected.length;
    // A post of home whose author is not in the group: why the group leaves it out.
    for (const post of model.timeline(h))
      if (!expected.includes(post.author) && !paged.why.has(post.id))
        paged.why.set(post.id, `${post.author} is not in ${where} ${model.history(pairSubject(h, post.author))}`);
    out.push(
      ...diffPosts(model, `timeline of ${where}`, paged.expected, pages.items.map(idOf), h, 'timeline', paged.why),
    );
  }
  return out;
}

/** The user's bookmarks (all pages): exactly the live posts the model says they keep, each once. */
async function compareBookmarks(api: Api, model: ReferenceModel, user: Actor, views: ViewChecks): Promise<string[]> {
  const h = user.handle;
  const read = await readPages(api, `bookmarks of ${h}`, `/users/${h}/bookmarks`, 'posts', STATE_PAGE_SIZE, user.token);
  if (read.problem) return [read.problem];
  for (const item of read.items) views.check(item, h, `bookmarks of ${h}`);
  const ids = read.items.map(idOf);
  const expected = new Set(model.bookmarksOf(h).map((p) => p.id));
  const out: string[] = [];
  const twice = ids.filter((id, i) => ids.indexOf(id) !== i);
  if (twice.length > 0) out.push(`bookmarks of ${h} list ${twice.map((id) => label(model, id)).join(', ')} twice`);
  for (const id of expected)
    if (!ids.includes(id))
      out.push(`bookmarks of ${h} miss ${label(model, id)} ${model.history(slotSubject(model.byId(id)!.slot))}`);
  for (const id of new Set(ids))
    if (!expected.has(id))
      out.push(
        `bookmarks of ${h} list ${label(model, id)}, which the model says ${h} does not keep ${model.history(slotSubject(model.byId(id)?.slot ?? -1))}`,
      );
  return out;
}

/**
 * Read to the end with each page size; a second read equal to the first is not reported twice.
 * Which plain reposts a page leaves out depends on where the pages break, so the expected list
 * is the model's timeline paged as the API documents it (pagedTimeline).
 */
async function compareTimeline(api: Api, model: ReferenceModel, user: Actor, views: ViewChecks): Promise<string[]> {
  const h = user.handle;
  const out: string[] = [];
  let first: string[] | undefined;
  for (const limit of TIMELINE_PAGE_SIZES) {
    const read = await readPages(api, `timeline of ${h}`, `/users/${h}/timeline`, 'posts', limit, user.token);
    const ids = read.items.map(idOf);
    for (const item of read.items) views.check(item, h, `timeline of ${h}`);
    if (read.problem) out.push(read.problem);
    else if (!first || first.join() !== ids.join()) {
      const what = first ? `timeline of ${h} (limit ${limit})` : `timeline of ${h}`;
      const paged = pagedTimeline(h, model.timeline(h), limit, (p) => model.hides(h, p));
      out.push(...diffPosts(model, what, paged.expected, ids, h, 'timeline', paged.why));
    }
    first ??= ids;
  }
  return out;
}

/**
 * The settled timeline as the API pages it (docs/api.md, "Paging"): a page walks a window of the
 * next `limit` + DEDUP_SPARE entries, leaves out what the reader must not see (`hides`: blocks and
 * mutes), and leaves out another user's plain repost (no comment) whose original the window
 * shows another way — as itself, or inside a repost with a comment or one of the reader's own,
 * anywhere in the window — or through a newer plain repost already shown; a post hidden from the
 * reader shows nothing, so it never counts as "another way". The reader's own plain reposts show. The next page starts after the last entry walked. Settled, the
 * entries are exactly the model's timeline (hidden ones included). `why`: for each post left
 * out, the reason, quoted if the API shows it anyway.
 */
function pagedTimeline(
  reader: string,
  entries: ModelPost[],
  limit: number,
  hides: (p: ModelPost) => string | undefined,
): { expected: ModelPost[]; why: Map<string, string> } {
  const isPlain = (p: ModelPost) => p.repostOf !== undefined && p.body === '' && p.author !== reader;
  const expected: ModelPost[] = [];
  const why = new Map<string, string>();
  for (let at = 0; at < entries.length; ) {
    const window = entries.slice(at, at + limit + DEDUP_SPARE);
    const otherwise = new Map(window.filter((p) => !isPlain(p) && !hides(p)).map((p) => [p.repostOf ?? p.id, p]));
    const plainShown = new Map<string, ModelPost>();
    let shown = 0;
    let walked = 0;
    for (const post of window) {
      if (shown === limit) break;
      walked++;
      const hidden = hides(post);
      if (hidden) {
        why.set(post.id, hidden);
        continue;
      }
      if (isPlain(post)) {
        const other = otherwise.get(post.repostOf!) ?? plainShown.get(post.repostOf!);
        if (other) {
          why.set(
            post.id,
            `a plain repost whose original shows in the same window (limit ${limit}) as #${other.slot}: left out`,
          );
          continue;
        }
        plainShown.set(post.repostOf!, post);
      }
      expected.push(post);
      shown++;
    }
    at += walked;
  }
  return { expected, why };
}

/**
 * All pages, following nextCursor. A failed page is the problem reported (the items so far
 * are not compared). A timeline must answer 200: 206 (regenerating) is wrong here.
 */
async function readPages(
  api: Api,
  what: string,
  path: string,
  field: 'posts' | 'users' | 'comments' | 'replies' | 'notifications',
  limit: number,
  token?: string,
) {
  const items: Item[] = [];
  let cursor: string | null = null;
  for (let page = 1; page <= MAX_PAGES; page++) {
    const query = `${path.includes('?') ? '&' : '?'}limit=${limit}${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`;
    const res = await read(api, `${path}${query}`, token ? { token } : {});
    if (res.status !== 200 || !Array.isArray(res.json?.[field]) || res.json.regenerating === true) {
      return {
        items,
        problem: `${what} (limit ${limit}) page ${page} answered ${res.status}: ${res.text.slice(0, 160)}`,
      };
    }
    items.push(...(res.json[field] as Item[]));
    cursor = res.json.nextCursor ?? null;
    if (!cursor) return { items };
  }
  return { items, problem: `${what} (limit ${limit}) still had a nextCursor after ${MAX_PAGES} pages` };
}

const idOf = (post: Item) => String(post.id);

/**
 * Extra, missing and duplicate posts, with the model's reason; posts with the same reason (say,
 * all of one unfollowed author's) on one line. Order only once the sets agree.
 */
/** `context`: why a post the list shows was expected to be left out, when that is not the model's usual reason. */
function diffPosts(
  model: ReferenceModel,
  what: string,
  expected: ModelPost[],
  actual: string[],
  reader: string,
  scope: 'timeline' | 'posts',
  context = new Map<string, string>(),
): string[] {
  const out: string[] = [];
  const wanted = new Set(expected.map((p) => p.id));
  const seen = new Set<string>();
  const extra: string[] = [];
  for (const id of actual) {
    if (seen.has(id)) out.push(`${what} lists ${label(model, id)} twice`);
    else if (!wanted.has(id)) extra.push(id);
    seen.add(id);
  }
  for (const [why, ids] of byReason(extra, (id) => context.get(id) ?? whyNotShown(model, id, reader, scope)))
    out.push(`${what} has extra ${labels(model, ids)}: ${why}`);
  const missing = expected.filter((p) => !seen.has(p.id));
  for (const [why, posts] of byReason(missing, (p) => whyShown(model, p, reader)))
    out.push(
      `${what} is missing ${labels(
        model,
        posts.map((p) => p.id),
      )}: ${why}`,
    );
  const at = expected.findIndex((p, i) => p.id !== actual[i]);
  if (out.length === 0 && at >= 0)
    out.push(
      `${what} is out of order at position ${at + 1}: expected ${label(model, expected[at]!.id)}, got ${label(model, actual[at]!)}`,
    );
  return out;
}

function byReason<T>(items: T[], reason: (item: T) => string): Map<string, T[]> {
  const groups = new Map<string, T[]>();
  for (const item of items) {
    const why = reason(item);
    groups.set(why, [...(groups.get(why) ?? []), item]);
  }
  return groups;
}

function whyNotShown(model: ReferenceModel, id: string, reader: string, scope: 'timeline' | 'posts'): string {
  const post = model.byId(id);
  if (!post) return 'a post the model never saw created';
  if (!post.live) return `it was deleted ${model.history(slotSubject(post.slot))}`;
  if (scope === 'posts') return `not by ${reader}`;
  return `${reader} does not follow ${post.author} ${model.history(pairSubject(reader, post.author))}`;
}

function whyShown(model: ReferenceModel, post: ModelPost, reader: string): string {
  if (post.author === reader) return `own live post ${model.history(slotSubject(post.slot))}`;
  return `${reader} follows ${post.author} ${model.history(pairSubject(reader, post.author))}`;
}

const label = (model: ReferenceModel, id: string) => {
  const post = model.byId(id);
  return post ? model.describe(post) : `post ${id}`;
};

/** One post in full; several by slot and author only, to keep a line readable. */
const labels = (model: ReferenceModel, ids: string[]) => {
  if (ids.length === 1) return label(model, ids[0]!);
  const short = (id: string) => {
    const post = model.byId(id);
    return post ? `#${post.slot} by ${post.author}` : id;
  };
  return `${ids.length} posts (${ids.map(short).join(', ')})`;
};

/**
 * A newest-first list's order: each item's time (`since`, `likedAt`, `addedAt`) no later than the one before.
 * The model keeps no server times, so the members are compared as sets and the order here.
 */
function notNewestFirst(what: string, items: Item[], field: 'since' | 'likedAt' | 'addedAt'): string[] {
  const times = items.map((u) => Date.parse(String(u[field])));
  const i = times.findIndex((t, k) => Number.isNaN(t) || (k > 0 && t > times[k - 1]!));
  return i < 0
    ? []
    : [
        `${what} is not newest first at item ${i}: ${items.map((u) => `${String(u.handle)}@${String(u[field])}`).join(', ')}`,
      ];
}

/** The lists' members as sets (their order is checked by notNewestFirst). */
function diffEdges(
  model: ReferenceModel,
  user: string,
  direction: 'following' | 'followers',
  listed: string[],
): string[] {
  const expected = direction === 'following' ? model.following(user) : model.followers(user);
  const subject = (other: string) => (direction === 'following' ? pairSubject(user, other) : pairSubject(other, user));
  const out: string[] = [];
  if (new Set(listed).size !== listed.length)
    out.push(`${direction} of ${user} lists a user twice: ${listed.join(', ')}`);
  for (const other of new Set(listed)) {
    if (!expected.includes(other))
      out.push(
        `${direction} of ${user} lists ${other}, but the model has no such edge ${model.history(subject(other))}`,
      );
  }
  for (const other of expected) {
    if (!listed.includes(other)) out.push(`${direction} of ${user} lacks ${other} ${model.history(subject(other))}`);
  }
  return out;
}

/** The profile's counters against the model; beside a wrong one, what its list showed and the races behind it. */
async function compareCounts(
  api: Api,
  model: ReferenceModel,
  user: string,
  listed: Record<Count, number>,
): Promise<string[]> {
  const res = await read(api, `/users/${user}`);
  if (res.status !== 200) return [`profile of ${user} answered ${res.status}: ${res.text.slice(0, 160)}`];
  const expected = model.counts(user);
  return (['followers', 'following', 'posts'] as const)
    .filter((count) => res.json[count] !== expected[count])
    .map((count) =>
      `profile of ${user}: ${count} ${res.json[count]}, model ${expected[count]} (its ${count} list shows ${listed[count]}) ${model.flaggedHistories(user, count)}`.trimEnd(),
    );
}

/**
 * Every post the model knows: a live one reads back as published, a deleted one is gone. Read
 * with the users' tokens in turn, so GET /posts/{id} shows each one's own state.
 */
async function comparePosts(
  api: Api,
  model: ReferenceModel,
  users: readonly Actor[],
  views: ViewChecks,
): Promise<string[]> {
  const posts = model.allPosts();
  const out: string[] = [];
  for (let at = 0; at < posts.length; at += POST_READS_AT_ONCE) {
    const batch = posts.slice(at, at + POST_READS_AT_ONCE);
    const readers = batch.map((_, i) => users[(at + i) % users.length]!);
    const answers = await Promise.all(batch.map((p, i) => read(api, `/posts/${p.id}`, { token: readers[i]!.token })));
    batch.forEach((post, i) => {
      const res = answers[i]!;
      const history = model.history(slotSubject(post.slot));
      const reader = readers[i]!.handle;
      if (model.eitherBlocks(reader, post.author)) {
        // A block either way refuses the post to the reader, deleted or not.
        if (res.status !== 403 || res.json?.error?.code !== 'blocked') {
          out.push(
            `${model.describe(post)} read by ${reader} across a block answers GET ${res.status}, expected 403 blocked ${model.history(pairSubject(reader, post.author))} ${model.history(pairSubject(post.author, reader))}`,
          );
        }
        return;
      }
      const original = post.live && post.repostOf ? model.byId(post.repostOf) : undefined;
      if (original && reader !== post.author && model.eitherBlocks(reader, original.author)) {
        // A live repost embeds its original: a block with the original's author refuses someone
        // else's repost too. One's own opens, its original withheld when that author blocks one.
        if (res.status !== 403 || res.json?.error?.code !== 'blocked') {
          out.push(
            `${model.describe(post)} read by ${reader} across a block with its original's author answers GET ${res.status}, expected 403 blocked ${model.history(pairSubject(reader, original.author))} ${model.history(pairSubject(original.author, reader))}`,
          );
        }
        return;
      }
      if (!post.live && res.status !== 404)
        out.push(`deleted ${model.describe(post)} answers GET ${res.status}, expected 404 ${history}`);
      if (post.live && res.status !== 200)
        out.push(`live ${model.describe(post)} answers GET ${res.status}, expected 200 ${history}`);
      if (post.live && res.status === 200 && (res.json?.author !== post.author || res.json?.body !== post.body)) {
        out.push(`live ${model.describe(post)} reads back as ${res.text.slice(0, 160)} ${history}`);
      }
      if (post.live && res.status === 200)
        views.check(res.json, readers[i]!.handle, `GET /posts/{id} by ${readers[i]!.handle}`);
    });
  }
  return out;
}

// --- post views ----------------------------------------------------------------------------------

/**
 * Checks post views against the model: counts, the reader's state, the original of a repost.
 * A wrong field is reported once with the places it was seen, not once per read.
 */
class ViewChecks {
  private readonly found = new Map<string, Set<string>>();
  checked = 0;

  constructor(private readonly model: ReferenceModel) {}

  check(item: Item, reader: string | undefined, where: string): void {
    const post = this.model.byId(String(item.id));
    if (!post) return; // a post the model never saw is reported by the list's diff
    this.fields(post, item, reader, where);
    if (item.body !== post.body || item.author !== post.author) {
      this.add(
        `${this.model.describe(post)} reads as author ${String(item.author)}, body ${JSON.stringify(item.body)}: model ${post.author}, ${JSON.stringify(post.body)}`,
        where,
      );
    }
    const original = item.repostOf as Item | null | undefined;
    if (!post.repostOf) {
      if (original !== null)
        this.add(
          `${this.model.describe(post)} shows repostOf ${JSON.stringify(original).slice(0, 120)}: it is no repost`,
          where,
        );
      return;
    }
    const modelled = this.model.byId(post.repostOf);
    const history = this.model.history(slotSubject(modelled?.slot ?? post.slot));
    if (!original || original.id !== post.repostOf) {
      this.add(
        `${this.model.describe(post)} shows repostOf ${JSON.stringify(original ?? null).slice(0, 120)}, expected original ${label(this.model, post.repostOf)}`,
        where,
      );
    } else if (modelled && this.model.withholds(reader, post)) {
      if (original.state !== 'withheld' || Object.keys(original).length !== 2) {
        this.add(
          `${this.model.describe(post)} shows the original ${label(this.model, post.repostOf)} of ${reader}’s own repost as ${JSON.stringify(original).slice(0, 120)}, expected {state: 'withheld', id}: its author blocks ${reader} ${history}`,
          where,
        );
      }
    } else if (!modelled?.live) {
      if (original.state !== 'deleted' || Object.keys(original).length !== 2) {
        this.add(
          `${this.model.describe(post)} shows its deleted original ${label(this.model, post.repostOf)} as ${JSON.stringify(original).slice(0, 120)}, expected {state: 'deleted', id} ${history}`,
          where,
        );
      }
    } else if (original.state !== 'live') {
      this.add(
        `${this.model.describe(post)} shows its live original ${this.model.describe(modelled)} as state ${String(original.state)} ${history}`,
        where,
      );
    } else {
      if (original.author !== modelled.author || original.body !== modelled.body) {
        this.add(
          `${this.model.describe(post)} embeds its original as author ${String(original.author)}, body ${JSON.stringify(original.body)}: model ${modelled.author}, ${JSON.stringify(modelled.body)}`,
          where,
        );
      }
      this.fields(modelled, original, reader, `${where}, embedded in #${post.slot}`);
    }
  }

  private fields(post: ModelPost, item: Item, reader: string | undefined, where: string): void {
    this.checked++;
    const mentions = item.mentions as { handle: string; start: number; end: number }[] | undefined;
    const chars = [...post.body];
    const named = (mentions ?? []).map((m) => m.handle);
    const covers = (mentions ?? []).every((m) => chars.slice(m.start, m.end).join('').toLowerCase() === `@${m.handle}`);
    if (named.join() !== post.mentions.join() || !covers) {
      this.add(
        `${this.model.describe(post)} shows mentions ${JSON.stringify(mentions).slice(0, 160)}, model ${JSON.stringify(post.mentions)} (the registered users its body names)`,
        where,
      );
    }
    const version = post.version ?? 0;
    if (item.version !== version || version > 0 !== (typeof item.editedAt === 'string')) {
      this.add(
        `${this.model.describe(post)} shows version ${String(item.version)}, editedAt ${String(item.editedAt)}: model version ${version}`,
        where,
      );
    }
    if (!Array.isArray(item.topics) || item.topics.length > 0)
      this.add(
        `${this.model.describe(post)} shows topics ${JSON.stringify(item.topics).slice(0, 120)}: its body has none`,
        where,
      );
    const expected = this.model.engagement(post, reader);
    const history = this.model.history(slotSubject(post.slot));
    for (const count of ['likeCount', 'commentCount', 'repostCount'] as const) {
      if (item[count] !== expected[count])
        this.add(
          `${this.model.describe(post)}: ${count} ${String(item[count])}, model ${expected[count]} ${history}`,
          where,
        );
    }
    for (const state of ['liked', 'reposted', 'bookmarked'] as const) {
      if (item[state] !== expected[state]) {
        this.add(
          `${this.model.describe(post)} shows ${state}: ${String(item[state])} ${reader ? `to ${reader}` : 'anonymously'}, model ${expected[state]} ${history}`,
          where,
        );
      }
    }
  }

  private add(finding: string, where: string): void {
    this.found.set(finding, (this.found.get(finding) ?? new Set()).add(where));
  }

  lines(): string[] {
    return [...this.found].map(([finding, places]) => {
      const quoted = [...places].slice(0, PLACES_QUOTED).join('; ');
      return `${finding} — seen in ${quoted}${places.size > PLACES_QUOTED ? ` and ${places.size - PLACES_QUOTED} more` : ''}`;
    });
  }
}

// --- notifications -------------------------------------------------------------------------------

/**
 * The user's like, repost and mention notifications (all pages) against the model: per post, the
 * sum of its like groups' counts (a post liked across a 12-hour boundary has two groups), its
 * repost group's count of people, and its mention group. Only what the model states exactly is compared (reference-model.ts
 * `expectedNotifications`); other types are not modelled.
 */
async function compareNotifications(
  api: Api,
  model: ReferenceModel,
  user: Actor,
  tally: { compared: number; skipped: number },
): Promise<string[]> {
  const h = user.handle;
  const read = await readPages(
    api,
    `notifications of ${h}`,
    `/users/${h}/notifications`,
    'notifications',
    NOTIFICATIONS_PAGE_SIZE,
    user.token,
  );
  if (read.problem) return [read.problem];
  const out: string[] = [];
  const listed = new Map<string, number>();
  const groups = new Map<string, number>();
  for (const n of read.items) {
    if (n.type !== 'like' && n.type !== 'mention' && n.type !== 'repost') continue;
    const postId = (n.post as { id?: string } | null)?.id;
    if (!postId) {
      out.push(`notifications of ${h}: a ${String(n.type)} without its post: ${JSON.stringify(n).slice(0, 160)}`);
      continue;
    }
    const key = `${String(n.type)}:${postId}`;
    listed.set(key, (listed.get(key) ?? 0) + Number(n.count));
    groups.set(key, (groups.get(key) ?? 0) + 1);
  }
  const { expected, inexact } = model.expectedNotifications(h);
  tally.skipped += inexact.size;
  for (const [key, count] of expected) {
    const [type, postId] = key.split(':') as [string, string];
    const post = model.byId(postId)!;
    const got = listed.get(key) ?? 0;
    if (count > 0 || got > 0) tally.compared++;
    if (type === 'mention' && (groups.get(key) ?? 0) > 1)
      out.push(`notifications of ${h} list the mention in ${model.describe(post)} ${groups.get(key)} times`);
    if (got === count) continue;
    const reposters = () =>
      model
        .allPosts()
        .filter((r) => r.repostOf === post.id && r.live)
        .map((r) => r.author);
    const likers =
      type === 'like'
        ? ` (likers in the model: ${[...post.likers].join(', ') || 'none'})`
        : type === 'repost'
          ? ` (live reposts by: ${reposters().join(', ') || 'none'})`
          : '';
    const what =
      count === 0
        ? `lists ${type} ×${got} for ${model.describe(post)}, model: not listed`
        : `shows ${type} ×${got} for ${model.describe(post)}, model ×${count}`;
    out.push(
      `notifications of ${h} ${what}${likers}${post.live ? '' : ' (deleted)'} ${model.history(slotSubject(post.slot))}`,
    );
  }
  for (const key of listed.keys()) {
    if (expected.has(key) || inexact.has(key)) continue;
    const post = model.byId(key.split(':')[1]!);
    out.push(
      `notifications of ${h} list ${key.split(':')[0]} of ${post ? model.describe(post) : `post ${key.split(':')[1]} the model never saw`}, which should not notify ${h}`,
    );
  }
  return out;
}

// --- comments and likers ---------------------------------------------------------------------------

/** A comment whose create got no answer: it exists if the settled list has its (unique) body. */
async function resolveUnknownComments(api: Api, model: ReferenceModel): Promise<void> {
  for (const comment of model.unknownComments()) {
    const post = model.post(comment.post);
    if (!post?.live) {
      model.resolveComment(comment.index);
      continue;
    }
    const all = await everyComment(api, post);
    const found = all.find((c) => c.body === comment.body && c.author === comment.author);
    const replyTo = found?.replyTo as { id: string; author: string } | null | undefined;
    model.resolveComment(comment.index, found ? { id: String(found.id), ...(replyTo ? { replyTo } : {}) } : undefined);
    model.note(
      slotSubject(post.slot),
      `after settling: c${comment.index} (no answer when created) ${found ? 'exists' : 'does not exist'}`,
    );
  }
}

/**
 * Comments (both orders) and likers of every post any such request was sent for: a live post's
 * lists equal the model's, a deleted post's answer 404.
 */
async function compareReactionLists(api: Api, model: ReferenceModel): Promise<string[]> {
  const jobs = [
    ...model.postsWithComments().map((post) => () => compareComments(api, model, post)),
    ...model.postsWithLikes().map((post) => () => compareLikers(api, model, post)),
  ];
  const out: string[] = [];
  for (let at = 0; at < jobs.length; at += POST_READS_AT_ONCE)
    out.push(...(await Promise.all(jobs.slice(at, at + POST_READS_AT_ONCE).map((job) => job()))).flat());
  return out;
}

/** A thread's replies, oldest first: every page of GET …/comments/{root}/replies. */
const readThread = (api: Api, what: string, post: { id: string }, root: string, limit: number) =>
  readPages(api, what, `/posts/${post.id}/comments/${encodeURIComponent(root)}/replies`, 'replies', limit);

/** Every live comment of a post, as the API lists it: the top-level list, and each thread under it. */
async function everyComment(api: Api, post: ModelPost): Promise<Item[]> {
  const top = await readPages(
    api,
    `comments of #${post.slot}`,
    `/posts/${post.id}/comments?order=oldest`,
    'comments',
    100,
  );
  const threads = await Promise.all(
    top.items
      .filter((c) => Number(c.replyCount) > 0)
      .map((c) => readThread(api, `replies to ${String(c.id)}`, post, String(c.id), 100)),
  );
  return [...top.items.filter((c) => c.deleted !== true), ...threads.flatMap((t) => t.items)];
}

/** The top-level comment a model comment's thread hangs from (itself, when it replies to none). */
function rootOf(model: ReferenceModel, c: ModelComment): string {
  const byId = new Map(model.allComments().flatMap((x) => (x.id ? [[x.id, x] as const] : [])));
  let at = c;
  for (let hops = 0; at.replyTo && hops < 100; hops++) {
    const up = byId.get(at.replyTo.id);
    if (!up) return at.replyTo.id;
    at = up;
  }
  return at.id!;
}

/**
 * A post's comments as threads (楼中楼): the list (both orders) holds the live top-level comments,
 * and a placeholder for a deleted one whose thread still has live replies; each thread's count,
 * its preview (the oldest two) and its own pages hold exactly its live replies, oldest first.
 */
async function compareComments(api: Api, model: ReferenceModel, post: ModelPost): Promise<string[]> {
  const history = model.history(slotSubject(post.slot));
  if (!post.live)
    return gone(await read(api, `/posts/${post.id}/comments`), `comments of deleted ${model.describe(post)}`, history);
  const out: string[] = [];
  const live = model.liveComments(post.slot);
  const replies = new Map<string, ModelComment[]>();
  for (const c of live.filter((x) => x.replyTo)) {
    const root = rootOf(model, c);
    replies.set(root, [...(replies.get(root) ?? []), c]);
  }
  const oldest = live.filter((c) => !c.replyTo);
  const liveRoots = new Set(oldest.map((c) => c.id!));
  const placeholders = [...replies.keys()].filter((root) => !liveRoots.has(root)).sort();
  for (const [order, limit] of COMMENT_PAGES) {
    const what = `comments of ${model.describe(post)} (${order} first, limit ${limit})`;
    const listed = await readPages(api, what, `/posts/${post.id}/comments?order=${order}`, 'comments', limit);
    if (listed.problem) {
      out.push(listed.problem);
      continue;
    }
    const expected = order === 'oldest' ? oldest : [...oldest].reverse();
    out.push(
      ...diffComments(
        model,
        what,
        expected,
        listed.items.filter((c) => c.deleted !== true),
        post,
        history,
      ),
    );
    const shown = listed.items.filter((c) => c.deleted === true).map((c) => String(c.id));
    if (shown.toSorted().join() !== placeholders.join())
      out.push(
        `${what} shows deleted comments ${shown.join(', ') || 'none'} with threads, expected ${placeholders.join(', ') || 'none'} ${history}`,
      );
    if (order !== 'oldest') continue;
    for (const item of listed.items) {
      const root = String(item.id);
      const thread = replies.get(root) ?? [];
      const where = `the thread of ${root} on ${model.describe(post)}`;
      const preview = ((item.replies as Item[] | undefined) ?? []).map((r) => String(r.id));
      if (
        item.replyCount !== thread.length ||
        preview.join() !==
          thread
            .slice(0, 2)
            .map((c) => c.id)
            .join()
      )
        out.push(
          `${where} shows ${String(item.replyCount)} replies, preview ${preview.join(', ') || 'none'}; expected ${thread.length}, ${
            thread
              .slice(0, 2)
              .map((c) => model.describeComment(c))
              .join(', ') || 'none'
          } ${history}`,
        );
      if (thread.length === 0) continue;
      const pages = await readThread(api, where, post, root, 2);
      if (pages.problem) out.push(pages.problem);
      else out.push(...diffComments(model, `${where} (pages of 2)`, thread, pages.items, post, history));
    }
  }
  return out;
}

function diffComments(
  model: ReferenceModel,
  what: string,
  expected: ModelComment[],
  listed: Item[],
  post: ModelPost,
  history: string,
): string[] {
  const out: string[] = [];
  const ids = listed.map((c) => String(c.id));
  const wanted = new Map(expected.map((c) => [c.id!, c]));
  const known = new Map(model.allComments().flatMap((c) => (c.id && c.post === post.slot ? [[c.id, c] as const] : [])));
  const extra = [...new Set(ids.filter((id) => !wanted.has(id)))];
  const missing = expected.filter((c) => !ids.includes(c.id!));
  if (new Set(ids).size !== ids.length) out.push(`${what} lists a comment twice: ${ids.join(', ')}`);
  for (const id of extra) {
    const c = known.get(id);
    const text = listed.find((x) => x.id === id);
    out.push(
      `${what} has extra ${c ? `${model.describeComment(c)} (${c.state}) ${model.history(`c${c.index}`)}` : `comment ${JSON.stringify(text).slice(0, 160)}, which the model never saw created`} ${history}`,
    );
  }
  if (missing.length > 0)
    out.push(`${what} is missing ${missing.map((c) => model.describeComment(c)).join(', ')} ${history}`);
  if (out.length === 0 && ids.join() !== expected.map((c) => c.id).join())
    out.push(`${what} is out of order: ${ids.join(', ')}, expected ${expected.map((c) => c.id).join(', ')}`);
  for (const item of listed) {
    const c = wanted.get(String(item.id));
    if (!c) continue;
    const replyTo = item.replyTo as { id?: unknown; author?: unknown } | null;
    const replyOk = c.replyTo ? replyTo?.id === c.replyTo.id && replyTo?.author === c.replyTo.author : replyTo === null;
    if (item.author !== c.author || item.body !== c.body || item.postId !== post.id || !replyOk) {
      out.push(`${what} shows ${model.describeComment(c)} as ${JSON.stringify(item).slice(0, 200)}`);
    }
  }
  return out;
}

/** Who liked a live post: exactly the model's likers, newest first. */
async function compareLikers(api: Api, model: ReferenceModel, post: ModelPost): Promise<string[]> {
  const history = model.history(slotSubject(post.slot));
  if (!post.live)
    return gone(await read(api, `/posts/${post.id}/likes`), `likers of deleted ${model.describe(post)}`, history);
  const what = `likers of ${model.describe(post)}`;
  const listed = await readPages(api, what, `/posts/${post.id}/likes`, 'users', LIKERS_PAGE_SIZE);
  if (listed.problem) return [listed.problem];
  const handles = listed.items.map((u) => String(u.handle));
  const out: string[] = [];
  if (new Set(handles).size !== handles.length) out.push(`${what} lists a user twice: ${handles.join(', ')}`);
  const extra = [...new Set(handles)].filter((h) => !post.likers.has(h));
  const missing = [...post.likers].filter((h) => !handles.includes(h));
  out.push(...notNewestFirst(what, listed.items, 'likedAt'));
  if (extra.length > 0) out.push(`${what} lists ${extra.join(', ')}, who do not like it in the model ${history}`);
  if (missing.length > 0) out.push(`${what} lacks ${missing.join(', ')} ${history}`);
  return out;
}

function gone(
  res: { status: number; text: string; json?: { error?: { code?: string } } },
  what: string,
  history: string,
): string[] {
  return res.status === 404 && res.json?.error?.code === 'post_not_found'
    ? []
    : [`${what} answered ${res.status}, expected 404 post_not_found: ${res.text.slice(0, 120)} ${history}`];
}
