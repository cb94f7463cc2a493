// shared/domain/people-search.ts — domain: how people are found by name. What a query and a name
// are compared as (their search form), which terms of a user are findable, and the ranking.
// Storage (the people index, tables.ts) and the use case (use-cases/people.ts) take them from here.
import { randomBytes } from 'node:crypto';

/** The longest query, in code points after normalising (a display name is at most 50). */
export const QUERY_MAX_LENGTH = 50;
/** The most people one answer holds (`limit` 1..PEOPLE_MAX). */
export const PEOPLE_MAX = 30;
export const PEOPLE_DEFAULT = 10;
/** At most this many terms of one user are indexed: the handle, the whole name, word starts. */
export const TERMS_MAX = 4;

/**
 * What a query and a name are compared as: NFKC (full-width ａｂｃ and half-width ｶﾀｶﾅ fold to
 * their usual forms, ligatures open), lowercased without locale, every run of whitespace one
 * space, trimmed. A leading '@' is dropped (people type handles as they see them in posts).
 */
export function searchForm(text: string): string {
  return text.normalize('NFKC').toLowerCase().replace(/\s+/gu, ' ').trim().replace(/^@/u, '');
}

/**
 * The terms a user is findable by (a query finds them when it is a prefix of one): the handle,
 * the whole name, and the name from each later word on ("John Smith" is found by "smi" too), at
 * most TERMS_MAX, each once. A CJK name without spaces is one term: "王小明" is found by "王" and
 * "王小", not by "小明".
 */
export function searchTerms(handle: string, displayName: string): string[] {
  const name = searchForm(displayName);
  const words = [...name.matchAll(/ /gu)].map((m) => name.slice(m.index + 1));
  return [...new Set([handle, name, ...words].filter((t) => t.length > 0))].slice(0, TERMS_MAX);
}

/**
 * A naming version: which naming (handle and display name) of a user the index entries belong
 * to. A new one with every registration and rename: 64 random bits, so a user's never repeat.
 */
export const newNaming = (): string => randomBytes(8).toString('hex');
export const isNaming = (value: string): boolean => /^[0-9a-f]{16}$/.test(value);

export interface PersonFound {
  handle: string;
  displayName: string;
  followers: number;
}

/**
 * Best first: an exact match (the query is the handle, or the whole name) before a prefix match,
 * then more followers first, then by handle.
 */
export function rankPeople<P extends PersonFound>(query: string, people: P[]): P[] {
  const exact = (p: P) => (p.handle === query || searchForm(p.displayName) === query ? 0 : 1);
  return people.toSorted(
    (a, b) =>
      exact(a) - exact(b) || b.followers - a.followers || (a.handle < b.handle ? -1 : a.handle > b.handle ? 1 : 0),
  );
}
