// shared/ports/people-index.ts — where people are found by name: the terms of each naming of a
// user (domain/people-search.ts). Implemented by adapters/hbase/hbase-people-index.ts.
// A naming version is which naming of a user an entry belongs to: the user's record holds the
// current one (UserStore), and an entry counts only while it matches (invariant P).

export interface PeopleEntry {
  handle: string;
  term: string;
  /** The naming version the entry was written for. */
  naming: string;
}

export interface PeopleIndex {
  /** Makes `handle` findable by each of `terms` under naming `naming` (one write; a repeat changes nothing). */
  add(handle: string, terms: string[], naming: string): Promise<void>;
  /** Removes those entries. Only for a naming that is not, and can never again be, the user's current one. */
  remove(handle: string, terms: string[], naming: string): Promise<void>;
  /** Up to `bound` entries whose term starts with `prefix`, those whose term IS `prefix` first (one read). */
  find(prefix: string, bound: number): Promise<PeopleEntry[]>;
}
