// shared/use-cases/people.ts — find people by handle or display name (GET /users?q=).
// Steps (round trips):
//   1. one bounded scan of the people index for the query's search form (domain/people-search.ts):
//      the entries whose term starts with it, those whose term IS it first;
//   2. one parallel stage: the users found (face, followers, current naming — and the query
//      itself when it is a handle, so an exact handle is found however many names crowd the
//      scan) ∥ the searcher's follow edges to them ∥ whom the searcher must not see.
// An entry shows its user only while the user's row holds the entry's naming (invariant P): an
// old name stops finding a user the moment the rename's row write lands, whatever of its
// entries are still there. Ranking: exact first, then followers (domain). The scan's bound makes
// a one-letter query cheap and its answer a sample: the best of the first PEOPLE_SCAN entries in
// term order, exact ones always among them.
import { isHandle } from '../domain/handle.js';
import { rankPeople, searchForm } from '../domain/people-search.js';
import type { PeopleIndex } from '../ports/people-index.js';
import type { FeedDeps } from './feed-deps.js';
import { faceFrom, type Face } from './faces.js';
import { hiddenFrom } from './visibility.js';

/** Index entries one search reads (one stateless scan). */
export const PEOPLE_SCAN = 100;

export interface PersonView {
  face: Face;
  followers: number;
  /** The searcher follows them (false for an anonymous search). */
  followedByYou: boolean;
}

export type PeopleDeps = Pick<FeedDeps, 'users' | 'relations' | 'blocks' | 'pictures'> & { people: PeopleIndex };

/** Up to `limit` people `query` finds, best first; `searcher` '' for an anonymous search. */
export async function findPeople(
  deps: PeopleDeps,
  searcher: string,
  query: string,
  limit: number,
): Promise<PersonView[]> {
  const q = searchForm(query);
  if (q.length === 0) return [];
  const entries = await deps.people.find(q, PEOPLE_SCAN);
  const handles = [...new Set([...(isHandle(q) ? [q] : []), ...entries.map((e) => e.handle)])];
  if (handles.length === 0) return [];
  const others = handles.filter((h) => h !== searcher);
  const [users, sinces, hidden] = await Promise.all([
    deps.users.findable(handles),
    searcher
      ? deps.relations.followSinces(others.map((followee) => ({ follower: searcher, followee })))
      : Promise.resolve([]),
    searcher ? hiddenFrom(deps, searcher, others) : Promise.resolve(new Set<string>()),
  ]);
  const followed = new Set(others.filter((_, i) => sinces[i] !== null && sinces[i] !== undefined));
  // Current: the row holds the entry's naming; or the query is exactly the handle (a handle never changes).
  const current = new Set(entries.filter((e) => users.get(e.handle)?.naming === e.naming).map((e) => e.handle));
  if (isHandle(q) && users.has(q)) current.add(q);
  const found = [...current].flatMap((h) => (hidden.has(h) ? [] : [users.get(h)!]));
  return rankPeople(q, found)
    .slice(0, limit)
    .map((u) => ({
      face: faceFrom(deps.pictures, u),
      followers: Math.max(0, u.followers),
      followedByYou: followed.has(u.handle),
    }));
}
