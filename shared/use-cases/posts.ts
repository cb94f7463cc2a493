// shared/use-cases/posts.ts — read and delete single posts, and list one author's posts.
import { ForbiddenError, NotFoundError } from '../domain/errors.js';
import { POST_ID_PATTERN, type Post } from '../domain/post.js';
import type { Page } from '../ports/feed-store.js';
import { decodeCursor, encodeCursor } from './cursor.js';
import type { FeedDeps } from './feed-deps.js';
import { requireUser } from './users.js';

export async function getPost(deps: Pick<FeedDeps, 'posts'>, id: string): Promise<Post> {
  const post = await deps.posts.get(id);
  if (!post) throw new NotFoundError(`No post "${id}"`, 'post_not_found');
  return post;
}

/**
 * Author only. Steps: read it (404) → check the author (403) → delete the row, the count and the
 * author's own inbox entry → queue the retraction from followers' inboxes. Timelines drop a
 * deleted post at once anyway: their multi-get no longer finds its row.
 */
export async function deletePost(deps: FeedDeps, actor: string, id: string): Promise<void> {
  const post = await getPost(deps, id);
  if (post.author !== actor) throw new ForbiddenError('Only the author can delete a post');
  await deps.posts.delete(id);
  await Promise.all([deps.counters.add(actor, 'posts', -1), deps.inbox.remove([actor], id), deps.outbox.remove(actor, id)]);
  await deps.queue.send({ v: 1, type: 'retract', postId: id });
}

export async function listUserPosts(deps: FeedDeps, author: string, limit: number, cursor?: string): Promise<Page<Post>> {
  await requireUser(deps.users, author);
  const after = decodeCursor(cursor, (id) => POST_ID_PATTERN.exec(id)?.[1] === author);
  const page = await deps.posts.listByAuthor(author, limit, after);
  return { items: page.items, ...(page.nextCursor ? { nextCursor: encodeCursor(page.nextCursor) } : {}) };
}
