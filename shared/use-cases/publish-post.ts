// shared/use-cases/publish-post.ts — publish a post as the token's user.
// Steps: with an idempotency key, claim it for a fresh post id (a retry finds the claimed id and
// answers that same post, re-queuing its fan-out, which is idempotent) → create the post row
// (put-if-absent; a same-millisecond id collision retries with a new suffix) → count it →
// put it in the author's own inbox (visible at once) and outbox (for the celebrity read-time
// merge) → queue the fan-out to followers.
import { ConflictError } from '../domain/errors.js';
import { postIdFromKey, type Post } from '../domain/post.js';
import { postKey } from '../schema/row-keys.js';
import type { FeedDeps } from './feed-deps.js';

const MAX_ID_ATTEMPTS = 3;

export interface PublishResult {
  post: Post;
  /** true when an earlier request with the same idempotency key already published it. */
  replayed: boolean;
}

export async function publishPost(
  deps: FeedDeps,
  author: string,
  input: { body: string; idempotencyKey?: string },
  now = Date.now(),
): Promise<PublishResult> {
  const fresh = (): Post => ({ id: postIdFromKey(postKey(author, now)), author, body: input.body, createdAt: now });

  if (input.idempotencyKey) {
    const candidate = fresh();
    const earlierId = await deps.idempotency.claim(author, input.idempotencyKey, candidate.id);
    if (earlierId !== null) return replay(deps, earlierId, input, author);
    if (!(await deps.posts.create(candidate, input.idempotencyKey))) {
      throw new ConflictError('Post id collision under an idempotency key; retry', 'publish_conflict');
    }
    return { post: await afterCreate(deps, candidate), replayed: false };
  }

  for (let attempt = 0; attempt < MAX_ID_ATTEMPTS; attempt++) {
    const post = fresh();
    if (await deps.posts.create(post)) return { post: await afterCreate(deps, post), replayed: false };
  }
  throw new ConflictError('Could not allocate a post id; retry', 'publish_conflict');
}

async function afterCreate(deps: FeedDeps, post: Post): Promise<Post> {
  await Promise.all([
    deps.counters.add(post.author, 'posts', 1),
    deps.inbox.add([post.author], post.id),
    deps.outbox.add(post.author, post.id), // what celebrity followers merge at read time
  ]);
  await deps.queue.send({ v: 1, type: 'fanout', postId: post.id });
  return post;
}

/** The key was claimed before: answer that post. If the first attempt died before writing it, write it now under the claimed id. */
async function replay(deps: FeedDeps, postId: string, input: { body: string; idempotencyKey?: string }, author: string): Promise<PublishResult> {
  const existing = await deps.posts.get(postId);
  if (existing) {
    await Promise.all([
      deps.inbox.add([author], existing.id),
      deps.outbox.add(author, existing.id),
      deps.queue.send({ v: 1, type: 'fanout', postId: existing.id }),
    ]);
    return { post: existing, replayed: true };
  }
  const createdAt = Number(postId.split('.')[1]);
  const post: Post = { id: postId, author, body: input.body, createdAt };
  if (await deps.posts.create(post, input.idempotencyKey)) return { post: await afterCreate(deps, post), replayed: false };
  const raced = await deps.posts.get(postId);
  if (!raced) throw new ConflictError('A request with this idempotency key is in progress', 'idempotency_in_progress');
  return { post: raced, replayed: true };
}
