// shared/use-cases/reposts.ts — repost (转发) a post, optionally with a comment (转发理由).
//
// A repost is a post of the reposter (it fans out to their followers like any post) that points
// at an original: always the ROOT original. Reposting a repost reposts its original and, as
// Weibo does, keeps the chain as text: the new body is `<your comment> //@<reposter>: <their
// text>` (cut to the post limit). The chain is only text; nothing reads it back.
//
// Idempotent per (user, original) without a comment: the user's reactions row holds a claim
// (r:p = the plain repost's id), taken put-if-absent before the post is created; a retry finds
// the claim and answers the same repost (or finishes creating it, exactly like an idempotency
// key). Once that repost is deleted, the next plain repost takes the claim over. With a comment
// every repost is a new post (an Idempotency-Key makes its retries safe, as for publish).
import { codePoints } from '../domain/text-rules.js';
import { ConflictError, NotFoundError } from '../domain/errors.js';
import { authorOfPostId, newPostId, NO_COUNTS, type Post } from '../domain/post.js';
import type { FeedDeps } from './feed-deps.js';
import { describePosts, freshDetail, type PostDetail } from './post-details.js';
import { faceOf } from './faces.js';
import {
  createOrReplay,
  type CreateOrReplayDeps,
  finishCreated,
  publishPost,
  type PublishDeps,
} from './publish-post.js';
import { refuseIfBlocked } from './block-guard.js';
import { entitiesOf } from './entities.js';
import { atStep } from './steps.js';
import { takeWriteQuota } from './write-limits.js';
import { POST_MAX_CODE_POINTS } from '../domain/limits.js';

/** A repost with a comment is a publish; every repost takes the write quota and is refused across a block. */
export type RepostDeps = PublishDeps & Pick<FeedDeps, 'quota' | 'blocks'>;

export interface RepostResult {
  post: PostDetail;
  /** true when this user's plain repost of that original already existed (or a key replayed). */
  replayed: boolean;
}

/** Weibo's chain: `comment //@bob: bob's text`, cut to the post limit (the chain is what gets cut). */
export function chainBody(comment: string, via?: { author: string; body: string }): string {
  if (!via || via.body === '') return comment;
  const chained = `${comment} //@${via.author}: ${via.body}`.trimStart();
  if (codePoints(chained) <= POST_MAX_CODE_POINTS) return chained;
  return `${[...chained].slice(0, POST_MAX_CODE_POINTS - 1).join('')}…`;
}

export async function repost(
  deps: RepostDeps,
  actor: string,
  targetId: string,
  input: { comment?: string; idempotencyKey?: string },
  now = Date.now(),
): Promise<RepostResult> {
  const [, target] = await Promise.all([
    takeWriteQuota(deps, actor, 'repost', now),
    deps.posts.get(targetId),
    refuseIfBlocked(deps, actor, authorOfPostId(targetId)),
  ]);
  if (!target) throw new NotFoundError(`No post "${targetId}"`, 'post_not_found');
  const rootId = target.repostOf ?? target.id;
  // A repost of a repost reposts the root: its author must not have blocked the reposter either.
  const [root] = target.repostOf
    ? await Promise.all([deps.posts.get(rootId), refuseIfBlocked(deps, actor, authorOfPostId(rootId))])
    : [target];
  if (!root) throw new NotFoundError('The original of this repost has been deleted', 'post_not_found');
  const comment = input.comment ?? '';
  const body = chainBody(comment, target.repostOf ? target : undefined);

  let result: { post: Post; replayed: boolean };
  if (comment.trim() !== '') {
    result = await publishPost(
      deps,
      actor,
      { body, repostOf: rootId, ...(input.idempotencyKey ? { idempotencyKey: input.idempotencyKey } : {}) },
      now,
    );
  } else {
    result = await plainRepost(deps, actor, rootId, body, now);
  }
  // A replayed repost keeps the counts it has; a new one has none yet.
  const [post] = await describePosts(deps, actor, [{ counts: NO_COUNTS, ...result.post }]);
  // None: the actor left while their access token still lived (leave.ts) — hidden from everyone
  // else, the repost is answered to its writer as written.
  return { post: post ?? freshDetail(result.post, faceOf(new Map(), actor)), replayed: result.replayed };
}

async function plainRepost(
  deps: CreateOrReplayDeps & Pick<FeedDeps, 'users'>,
  actor: string,
  rootId: string,
  body: string,
  now: number,
): Promise<{ post: Post; replayed: boolean }> {
  // A plain repost of a repost carries the chain (`//@bob: …`): its mentions count like any post's.
  const entities = await entitiesOf(deps, body, { topics: true });
  const candidate: Post = {
    id: newPostId(actor, now),
    author: actor,
    body,
    createdAt: now,
    repostOf: rootId,
    ...entities,
  };
  let claim = await deps.reactions.claimPlainRepost(actor, rootId, candidate.id);
  // Two rounds at most: a claim on a deleted repost is taken over once; losing that race to
  // another request means that request's repost is the answer next round.
  for (let round = 0; round < 2 && claim !== null; round++) {
    if (claim === false) break;
    const earlier = await deps.posts.lookup(claim);
    // Another request's repost, done or cut after its row: finished, then answered.
    if (earlier.state === 'live') return { post: await finishCreated(deps, earlier.post), replayed: true };
    if (earlier.state === 'absent') {
      // The claiming request died before creating its post, or is creating it now: create it
      // under the claimed id (put-if-absent: exactly one of the two wins and counts).
      return createOrReplay(deps, { ...candidate, id: claim, createdAt: Number(claim.split('.')[1]) }, undefined, now);
    }
    const taken = await deps.reactions.claimPlainRepost(actor, rootId, candidate.id, claim);
    claim = taken === null ? null : await deps.reactions.claimPlainRepost(actor, rootId, candidate.id);
  }
  if (claim !== null)
    throw new ConflictError('Another repost of this post is in progress; retry', 'repost_in_progress');
  await atStep(deps, 'repost.claimed', { actor, postId: candidate.id });
  return createOrReplay(deps, candidate, undefined, now);
}
