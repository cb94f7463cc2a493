// test/support/contracts/fixtures.ts — what every contract suite builds its cases from: fresh
// handles and names (the HBase run shares one namespace across suites, so no two tests may meet
// on a key), post and comment ids in the product's format, and walking a paged list to its end.
import { randomBytes } from 'node:crypto';
import { newCommentId } from '../../../shared/domain/comment.js';
import { newPostId, type Post } from '../../../shared/domain/post.js';

/** Builds the store a contract runs against: a fresh fake, or an adapter on the run's namespace. */
export type Make<T> = () => T | Promise<T>;

/** A time well inside every key's range; cases add offsets to it. */
export const T0 = 1_700_000_000_000;

const run = `${Date.now().toString(36).slice(-4)}${randomBytes(2).toString('hex')}`;
let made = 0;
/** A handle no other test uses: `name` (at most 12 characters) and a tag of this run. */
export const fresh = (name: string): string => `${name}_${run}${(made++).toString(36)}`;

/** A post by `author` at `millis`, in the product's id format. */
export function post(author: string, millis: number, body = `${author} at ${millis}`, more: Partial<Post> = {}): Post {
  return { id: newPostId(author, millis), author, body, createdAt: millis, ...more };
}

/** A comment id made at `millis`. */
export const commentId = (millis: number): string => newCommentId(millis);

/** Every page of a cursor-paged list, in order (fails if it never ends). */
export async function pages<T, C>(
  read: (cursor?: C) => Promise<{ items: T[]; next?: C }>,
  guard = 100,
): Promise<T[][]> {
  const out: T[][] = [];
  let cursor: C | undefined;
  for (let i = 0; i < guard; i++) {
    const page = await read(cursor);
    out.push(page.items);
    if (page.next === undefined) return out;
    cursor = page.next;
  }
  throw new Error('the list did not end');
}

/** The same, for the `nextCursor` pages of the feed ports. */
export const cursorPages = <T>(read: (cursor?: string) => Promise<{ items: T[]; nextCursor?: string }>) =>
  pages<T, string>(async (cursor) => {
    const page = await read(cursor);
    return { items: page.items, ...(page.nextCursor === undefined ? {} : { next: page.nextCursor }) };
  });

/** Sorted copy, for lists whose order is the store's own. */
export const sorted = <T>(list: T[]): T[] => [...list].sort();
