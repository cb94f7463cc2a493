// shared/use-cases/edit-post.ts — edit a post's text (编辑), and read its history.
//
// Steps of an edit: the post with its earlier versions (one get) ∥ the new text's mentions
// checked (registered users) ∥ who reposted it (a scanner, begun here) → the author only (403),
// the version named (If-Match: 428 without, 412 when another edit or a delete came first), within
// EDIT_WINDOW_MS of publishing and at most MAX_EDITS edits (422) → the new text's topics indexed
// (rows of topics the current text lacks, BEFORE the text names them: a topic page never misses a
// post whose text has the topic), and beside them the mentions it gains (their index entries,
// which the erasure of a named user unlinks by: docs/consistency.md R) → the delayed notifies, queued
// before the write (invariant F): the mentions the edit adds or drops, and the edit for those
// who reposted it (an `edit` notification, as Mastodon tells boosters; one group per post, its
// latest edit standing for the earlier ones) → ONE check-and-put on the version: the text, the version, editedAt and the
// replaced text as a history entry (of racing edits exactly one lands; none after a delete) →
// only the winner: the trend count of topics this post never had before (a post counts once per
// topic, whatever its edits) and the immediate notifies, beside the read of the answer.
//
// What does NOT move: timelines, outboxes and reposts hold post ids, never text, so every reader
// sees the new text on the next read, and a repost shows its original as it is now. Topic rows
// of topics the text dropped stay (the topic page checks the text: docs/consistency.md F and the
// topic index's read), as do mentions' notifications until the worker reads the new text.
import {
  ForbiddenError,
  InvalidInputError,
  NotFoundError,
  PreconditionFailedError,
  PreconditionRequiredError,
} from '../domain/errors.js';
import { authorOfPostId, EDIT_WINDOW_MS, MAX_EDITS, type Post, type PostVersion } from '../domain/post.js';
import { mentionedHandles, topicNames } from '../domain/text-entities.js';
import { trendBucketOf } from '../domain/trending.js';
import { indexTerms } from '../domain/post-search.js';
import { visibleLength } from '../domain/text-rules.js';
import { refuseIfBlocked } from './block-guard.js';
import { entitiesOf } from './entities.js';
import type { FeedDeps } from './feed-deps.js';
import { editFact, editedMentionsFact, notifyLater, notifyNow } from './notifications.js';
import { EDIT_REPOSTERS_TOLD } from '../ports/fanout-queue.js';
import { readPostDetails, type PostDetail } from './post-details.js';
import { atStep } from './steps.js';

export type EditPostDeps = Pick<
  FeedDeps,
  'users' | 'posts' | 'reactions' | 'topics' | 'search' | 'queue' | 'limits' | 'pictures' | 'step'
>;

const notFound = (id: string) => new NotFoundError(`No post "${id}"`, 'post_not_found');

/** Edits `id`'s text as `actor`, on version `ifMatch` (the post's `version` the client saw). */
export async function editPost(
  deps: EditPostDeps,
  actor: string,
  id: string,
  change: { body: string; ifMatch: number | undefined },
  now = Date.now(),
): Promise<PostDetail> {
  if (change.ifMatch === undefined)
    throw new PreconditionRequiredError(
      'Name the version you edit: send If-Match with the post’s version',
      'version_required',
    );
  // Who reposted it (told of the edit): a scanner (2 requests in a row), begun now so it ends
  // beside the topic rows' write, not after it.
  const reposters = deps.reactions.reposters(id, EDIT_REPOSTERS_TOLD);
  reposters.catch(() => {}); // awaited below; an edit refused first must not leave it unhandled
  const [found, entities] = await Promise.all([
    deps.posts.versions(id),
    entitiesOf(deps, change.body, { topics: true }),
  ]);
  if (!found) throw notFound(id);
  const { post, earlier } = found;
  if (post.author !== actor) throw new ForbiddenError('Only the author can edit a post');
  const version = post.version ?? 0;
  if (version !== change.ifMatch)
    throw new PreconditionFailedError(
      `The post is at version ${version}, not ${change.ifMatch}: read it again`,
      'version_mismatch',
    );
  if (now - post.createdAt > EDIT_WINDOW_MS)
    throw new InvalidInputError('A post can be edited within 24 hours of publishing', 'edit_window_closed');
  if (version >= MAX_EDITS)
    throw new InvalidInputError(`A post can be edited at most ${MAX_EDITS} times`, 'edit_limit_reached');
  // As at publish: some visible text, unless the post has pictures (or is a repost, whose text is optional).
  if (visibleLength(change.body) < 1 && !post.media?.length && !post.repostOf)
    throw new InvalidInputError('body must have at least 1 visible character', 'validation_failed');

  await atStep(deps, 'edit.read', { postId: id });
  const next: Post = { ...withoutEntities(post), body: change.body, ...entities, version: version + 1, editedAt: now };
  const current = new Set(topicNames(post.topics ?? []));
  const everCounted = new Set([...current, ...earlier.flatMap((v) => topicNames(v.topics ?? []))]);
  const topics = topicNames(next.topics ?? []);
  const mentions = editedMentionsFact(post, next, now);
  // Topics and mentions the text gains are indexed BEFORE it names them (a topic page never
  // misses the post; the erasure of a named user finds the link, R).
  const named = new Set(mentionedHandles(post.mentions ?? []));
  const gained = mentionedHandles(next.mentions ?? []).filter((h) => !named.has(h));
  const [, told] = await Promise.all([
    deps.topics.add(
      id,
      post.createdAt,
      topics.filter((t) => !current.has(t)),
      null,
    ),
    reposters,
    gained.length ? deps.posts.listMentions({ postId: id }, gained, now) : undefined,
    // Search entries of the words the text gains, before it holds them (V); stale ones stay.
    deps.search.add(id, newTerms(post, next)),
  ]);
  await atStep(deps, 'edit.indexed', { postId: id });
  // The notify facts' delayed halves go before the write (F): the edit's mentions, and its reposters.
  const facts = [mentions, editFact(post, now, told)].filter((f) => f !== null);
  await Promise.all(facts.map((fact) => notifyLater(deps, fact, { at: now, removal: false })));
  const replaced: PostVersion = { version, body: post.body, ...pick(post), at: post.editedAt ?? post.createdAt };
  if (!(await deps.posts.edit(id, version, { body: next.body, ...pick(next), editedAt: now }, replaced))) {
    const again = await deps.posts.get(id);
    if (!again) throw notFound(id);
    throw new PreconditionFailedError('Another edit of this post came first: read it again', 'version_mismatch');
  }
  await atStep(deps, 'edit.won', { postId: id });
  const fresh = topics.filter((t) => !everCounted.has(t));
  // Beside the read of the answer: no round trip of their own.
  const [details] = await Promise.all([
    readPostDetails(deps, actor, [id]),
    ...(fresh.length ? [deps.topics.add(id, post.createdAt, fresh, trendBucketOf(now))] : []),
    ...facts.map((fact) => notifyNow(deps, fact)),
  ]);
  const shown = details.get(id);
  if (!shown) throw notFound(id);
  return shown;
}

/** Every version of a post's text, newest (the current one) first. A block either way hides it, as the post; an author who left, too. */
export async function postHistory(
  deps: Pick<FeedDeps, 'posts' | 'blocks' | 'users'>,
  id: string,
  reader?: string,
): Promise<PostVersion[]> {
  const author = authorOfPostId(id);
  const [found, present] = await Promise.all([
    deps.posts.versions(id),
    author ? deps.users.existing([author]) : Promise.resolve(new Set<string>()),
    refuseIfBlocked(deps, reader, author),
  ]);
  if (!found || !present.has(found.post.author)) throw notFound(id);
  const { post, earlier } = found;
  const current: PostVersion = {
    version: post.version ?? 0,
    body: post.body,
    ...pick(post),
    at: post.editedAt ?? post.createdAt,
  };
  return [current, ...earlier].sort((a, b) => b.version - a.version);
}

/** The index terms of `next`'s text that `current`'s lacks. */
function newTerms(current: Post, next: Post): string[] {
  const held = new Set(indexTerms(current));
  return indexTerms(next).filter((t) => !held.has(t));
}

const pick = (p: Pick<Post, 'mentions' | 'topics'>) => ({
  ...(p.mentions ? { mentions: p.mentions } : {}),
  ...(p.topics ? { topics: p.topics } : {}),
});
const withoutEntities = ({ mentions: _m, topics: _t, ...rest }: Post): Post => rest;
