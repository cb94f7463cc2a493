// shared/use-cases/posts.ts — read and delete single posts, and list one author's posts.
import { ForbiddenError, NotFoundError } from '../domain/errors.js';
import { authorOfPostId, POST_ID_PATTERN, type Post } from '../domain/post.js';
import type { Page } from '../ports/feed-store.js';
import { decodeCursor, encodeCursor } from './cursor.js';
import type { FeedDeps } from './feed-deps.js';
import { atStep } from './steps.js';
import { requireUser } from './users.js';

export async function getPost(deps: Pick<FeedDeps, 'posts'>, id: string): Promise<Post> {
  const post = await deps.posts.get(id);
  if (!post) throw new NotFoundError(`No post "${id}"`, 'post_not_found');
  return post;
}

/**
 * Author only, exactly once in its effects. Steps: read it (404 if it never existed) → check the
 * author (403) → tombstone it: a conditional write, so of racing deletes exactly one wins → only
 * the winner uncounts it, drops the author's own inbox and outbox entries and queues the
 * retraction from followers' inboxes; every other request answers 404 and changes nothing.
 * Timelines drop a deleted post at once anyway: their multi-get skips tombstones.
 */
export async function deletePost(deps: FeedDeps, actor: string, id: string, now = Date.now()): Promise<void> {
  const found = await deps.posts.lookup(id);
  if (found.state === 'absent') throw new NotFoundError(`No post "${id}"`, 'post_not_found');
  if (authorOfPostId(id) !== actor) throw new ForbiddenError('Only the author can delete a post');
  await atStep(deps, 'delete.checked', { postId: id });
  // Also for an already deleted post: a repeat finishes dropping the body of a delete that died half-way.
  if (!(await deps.posts.markDeleted(id, now))) throw new NotFoundError(`No post "${id}"`, 'post_not_found');
  await Promise.all([deps.counters.add(actor, 'posts', -1), deps.inbox.remove([actor], id), deps.outbox.remove(actor, id)]);
  await deps.queue.send({ v: 1, type: 'retract', postId: id });
}

export async function listUserPosts(deps: FeedDeps, author: string, limit: number, cursor?: string): Promise<Page<Post>> {
  await requireUser(deps.users, author);
  const after = decodeCursor(cursor, (id) => POST_ID_PATTERN.exec(id)?.[1] === author);
  const page = await deps.posts.listByAuthor(author, limit, after);
  return { items: page.items, ...(page.nextCursor ? { nextCursor: encodeCursor(page.nextCursor) } : {}) };
}
