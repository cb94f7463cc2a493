// test/support/model/compare.ts — once the system has settled, reads everything the API shows
// about the seed's users and lists every difference from the reference model (not only the
// first), each line with the history of the pair or post involved.
import type { Actor } from './driver.js';
import { read, type Api } from './http.js';
import { pairSubject, slotSubject, type ModelPost, type ReferenceModel } from './reference-model.js';

/** Two page sizes: a paging bug shows as a difference between them. */
const TIMELINE_PAGE_SIZES = [3, 7] as const;
const POSTS_PAGE_SIZE = 4;
const RELATIONS_PAGE_SIZE = 2;
/** A cursor that never ends must not hang the test. */
const MAX_PAGES = 500;
const POST_READS_AT_ONCE = 8;

type Count = 'followers' | 'following' | 'posts';
type Item = Record<string, unknown>;

export async function compareWithModel(api: Api, model: ReferenceModel, users: readonly Actor[]): Promise<string[]> {
  // Users at once, each user's reads one after another: enough load, and no 30 s timeouts.
  const perUser = await Promise.all(users.map((u) => compareUser(api, model, u)));
  return [...new Set([...perUser.flat(), ...(await comparePosts(api, model))])];
}

async function compareUser(api: Api, model: ReferenceModel, user: Actor): Promise<string[]> {
  const h = user.handle;
  const out = await compareTimeline(api, model, user);
  const posts = await readPages(api, `posts of ${h}`, `/users/${h}/posts`, 'posts', POSTS_PAGE_SIZE);
  if (posts.problem) out.push(posts.problem);
  else out.push(...diffPosts(model, `posts of ${h}`, model.livePostsOf(h), posts.items.map(idOf), h, 'posts'));
  const listed: Record<Count, number> = { posts: posts.items.length, following: 0, followers: 0 };
  for (const direction of ['following', 'followers'] as const) {
    const read = await readPages(api, `${direction} of ${h}`, `/users/${h}/${direction}`, 'users', RELATIONS_PAGE_SIZE);
    const handles = read.items.map((u) => String(u.handle));
    if (read.problem) out.push(read.problem);
    else out.push(...diffEdges(model, h, direction, handles));
    listed[direction] = handles.length;
  }
  out.push(...(await compareCounts(api, model, h, listed)));
  return out;
}

/** Read to the end with each page size; a second read equal to the first is not reported twice. */
async function compareTimeline(api: Api, model: ReferenceModel, user: Actor): Promise<string[]> {
  const h = user.handle;
  const out: string[] = [];
  let first: string[] | undefined;
  for (const limit of TIMELINE_PAGE_SIZES) {
    const read = await readPages(api, `timeline of ${h}`, `/users/${h}/timeline`, 'posts', limit, user.token);
    const ids = read.items.map(idOf);
    if (read.problem) out.push(read.problem);
    else if (!first || first.join() !== ids.join()) {
      out.push(...diffPosts(model, first ? `timeline of ${h} (limit ${limit})` : `timeline of ${h}`, model.timeline(h), ids, h, 'timeline'));
    }
    first ??= ids;
  }
  return out;
}

/**
 * All pages, following nextCursor. A failed page is the problem reported (the items so far
 * are not compared). A timeline must answer 200: 206 (regenerating) is wrong here.
 */
async function readPages(api: Api, what: string, path: string, field: 'posts' | 'users', limit: number, token?: string) {
  const items: Item[] = [];
  let cursor: string | null = null;
  for (let page = 1; page <= MAX_PAGES; page++) {
    const query = `?limit=${limit}${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`;
    const res = await read(api, `${path}${query}`, token ? { token } : {});
    if (res.status !== 200 || !Array.isArray(res.json?.[field]) || res.json.regenerating === true) {
      return { items, problem: `${what} (limit ${limit}) page ${page} answered ${res.status}: ${res.text.slice(0, 160)}` };
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
function diffPosts(model: ReferenceModel, what: string, expected: ModelPost[], actual: string[], reader: string, scope: 'timeline' | 'posts'): string[] {
  const out: string[] = [];
  const wanted = new Set(expected.map((p) => p.id));
  const seen = new Set<string>();
  const extra: string[] = [];
  for (const id of actual) {
    if (seen.has(id)) out.push(`${what} lists ${label(model, id)} twice`);
    else if (!wanted.has(id)) extra.push(id);
    seen.add(id);
  }
  for (const [why, ids] of byReason(extra, (id) => whyNotShown(model, id, reader, scope))) out.push(`${what} has extra ${labels(model, ids)}: ${why}`);
  const missing = expected.filter((p) => !seen.has(p.id));
  for (const [why, posts] of byReason(missing, (p) => whyShown(model, p, reader))) out.push(`${what} is missing ${labels(model, posts.map((p) => p.id))}: ${why}`);
  const at = expected.findIndex((p, i) => p.id !== actual[i]);
  if (out.length === 0 && at >= 0) out.push(`${what} is out of order at position ${at + 1}: expected ${label(model, expected[at]!.id)}, got ${label(model, actual[at]!)}`);
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

/** The lists as sets: their order (salted row keys) is not part of the contract. */
function diffEdges(model: ReferenceModel, user: string, direction: 'following' | 'followers', listed: string[]): string[] {
  const expected = direction === 'following' ? model.following(user) : model.followers(user);
  const subject = (other: string) => (direction === 'following' ? pairSubject(user, other) : pairSubject(other, user));
  const out: string[] = [];
  if (new Set(listed).size !== listed.length) out.push(`${direction} of ${user} lists a user twice: ${listed.join(', ')}`);
  for (const other of new Set(listed)) {
    if (!expected.includes(other)) out.push(`${direction} of ${user} lists ${other}, but the model has no such edge ${model.history(subject(other))}`);
  }
  for (const other of expected) {
    if (!listed.includes(other)) out.push(`${direction} of ${user} lacks ${other} ${model.history(subject(other))}`);
  }
  return out;
}

/** The profile's counters against the model; beside a wrong one, what its list showed and the races behind it. */
async function compareCounts(api: Api, model: ReferenceModel, user: string, listed: Record<Count, number>): Promise<string[]> {
  const res = await read(api, `/users/${user}`);
  if (res.status !== 200) return [`profile of ${user} answered ${res.status}: ${res.text.slice(0, 160)}`];
  const expected = model.counts(user);
  return (['followers', 'following', 'posts'] as const)
    .filter((count) => res.json[count] !== expected[count])
    .map(
      (count) =>
        `profile of ${user}: ${count} ${res.json[count]}, model ${expected[count]} (its ${count} list shows ${listed[count]}) ${model.flaggedHistories(user, count)}`.trimEnd(),
    );
}

/** Every post the model knows: a live one reads back as published, a deleted one is gone. */
async function comparePosts(api: Api, model: ReferenceModel): Promise<string[]> {
  const posts = model.allPosts();
  const out: string[] = [];
  for (let at = 0; at < posts.length; at += POST_READS_AT_ONCE) {
    const batch = posts.slice(at, at + POST_READS_AT_ONCE);
    const answers = await Promise.all(batch.map((p) => read(api, `/posts/${p.id}`)));
    batch.forEach((post, i) => {
      const res = answers[i]!;
      const history = model.history(slotSubject(post.slot));
      if (!post.live && res.status !== 404) out.push(`deleted ${model.describe(post)} answers GET ${res.status}, expected 404 ${history}`);
      if (post.live && res.status !== 200) out.push(`live ${model.describe(post)} answers GET ${res.status}, expected 200 ${history}`);
      if (post.live && res.status === 200 && (res.json?.author !== post.author || res.json?.body !== post.body)) {
        out.push(`live ${model.describe(post)} reads back as ${res.text.slice(0, 160)} ${history}`);
      }
    });
  }
  return out;
}
