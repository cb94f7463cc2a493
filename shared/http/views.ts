// shared/http/views.ts — how domain objects look on the wire: times as ISO 8601 strings, the
// same as profiles, whatever the storage keeps.
import type { Post } from '../domain/post.js';
import type { Edge, Page } from '../ports/feed-store.js';

export const postView = (p: Post) => ({ id: p.id, author: p.author, body: p.body, createdAt: new Date(p.createdAt).toISOString() });

export const edgeView = (e: Edge) => ({ handle: e.handle, since: new Date(e.since).toISOString() });

export const pageView = <T, V>(page: Page<T>, key: string, view: (t: T) => V) => ({
  [key]: page.items.map(view),
  nextCursor: page.nextCursor ?? null,
});
