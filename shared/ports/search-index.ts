// shared/ports/search-index.ts — the post search index: which posts carry a term
// (domain/post-search.ts says what a term is). A hint, like the topic index: every read checks
// the post's text as it is now, so an entry outlives an edit or a delete harmlessly.
import type { Page } from './feed-store.js';

export interface PostSearchIndex {
  /** Index the post under every term (one write; writing an entry again changes nothing). */
  add(postId: string, terms: readonly string[]): Promise<void>;
  /** Take the post's entries under these terms out (the post is deleted: nothing can need them again). */
  remove(postId: string, terms: readonly string[]): Promise<void>;
  /**
   * Post ids carrying `term`, newest first (the feed's order), at most `limit`, strictly after the
   * post `after`; `nextCursor` is present when the term goes on. One bounded read.
   */
  posts(term: string, limit: number, after?: string): Promise<Page<string>>;
}
