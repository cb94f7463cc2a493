// shared/schema/route-costs.ts — what each operation of the HTTP contract (shared/http/routes.ts)
// costs in HBase work, and why each step is there: the REST requests one call sends and their
// sequential round trips (shared/observability/round-trips.ts), as the `Server-Timing` header of
// every response reports them. Beside tables.ts because the costs follow from its layout and
// access patterns; the invariants the writes keep are in docs/consistency.md.
//
// The figures are upper bounds for one call on the success path in an ordinary small world (a
// page of a few authors, a post with a comment, a like and a repost), as
// test/e2e/route-costs.test.ts builds it and measures every route against them; a route that
// grows past its figure fails there. Reads are called twice and the dearer call counts; where
// a per-container cache (faces, trending, suggestions) was warm in the measured run, `why` says
// what a cold one adds. Data-dependent parts say so in `why` too (a celebrity merge, reposts).
//
// A `why` walks the round trips in order; "a ∥ b" means a and b are sent side by side in one
// round trip. Steps in [brackets] are off the measured path (another branch, or data the measured
// world does not have) and say what they add. Letters (A, C, E, K…) name the invariants of
// docs/consistency.md a write's step keeps. Queue (SQS) and object-storage calls are not HBase requests.

export interface RouteCost {
  /** REST requests one call sends, at most. */
  requests: number;
  /** Of those, how many happen one after another (parallel requests count once). */
  roundTrips: number;
  /** What each round trip reads or writes, and for a write which invariant needs it. */
  why: string;
}

export const ROUTE_COSTS = {
  getProfile: {
    requests: 1,
    roundTrips: 1,
    why: `1) one get of the users row (families p and c): profile, avatar and the exact counts.`,
  },
  getPost: {
    requests: 4,
    roundTrips: 1,
    why: [
      `1) one parallel stage: the post with its counts (content multi-get), the reader's like and`,
      `repost state (reactions multi-get), the author's face (users multi-get: a post id names its`,
      `author) and the block check either way (blocks multi-get).`,
      `[A repost: 2) its original, the reader's state of it and its author's face; 3) the block`,
      `check with the original's author = 8 requests, 3 round trips.]`,
    ].join(' '),
  },
  listUserPosts: {
    requests: 7,
    roundTrips: 2,
    why: [
      `1) side by side: the author's outbox row (the newest OUTBOX_CAP posts as feed cells, originals'`,
      `ids included), the author's users row (one get: the posts count, the face, the 404 check) and`,
      `the block check either way (blocks multi-get); 2) one parallel stage: the page's posts`,
      `and their originals (content multi-get), the reader's states (reactions multi-get), the authors'`,
      `faces (users multi-get) and, with reposts on the page, the originals' authors' visibility (blocks`,
      `multi-get). The counter says whether the outbox holds every post: past the tail of a trimmed one`,
      `the page is read from the content table (a scanner: 2 more round trips, posts.ts listScanned).`,
    ].join(' '),
  },

  listComments: {
    requests: 5,
    roundTrips: 2,
    why: [
      `1) the post (content get: a deleted post's comments are 404 at once, E) ∥ a page of top-level comments`,
      `(one stateless scan of the text keys, reversed for newest first: m:v, the like count m:n,`,
      `the reader's own liker cell m:l.<reader> and the thread's summary m:r, E3); 2) the`,
      `commenters' and the previews' authors' faces (users multi-get) ∥ with a token, whom of them the reader blocks or mutes or`,
      `is blocked by (blocks multi-get) ∥ the previews' replies with their likes (comments multi-get,`,
      `[only when a comment on the page has replies]): the authors and previews are known only from the scan.`,
    ].join(' '),
  },
  getComment: {
    requests: 4,
    roundTrips: 2,
    why: [
      `1) the post (content get, 404) ∥ the comment with its likes and the reader's liker cell (comments get);`,
      `2) its author's face (users multi-get) ∥ with a token, the blocks multi-get.`,
    ].join(' '),
  },
  listReplies: {
    requests: 6,
    roundTrips: 2,
    why: [
      `1) the post (content get, 404) ∥ the root comment (comments get: 404 unless a top-level one,`,
      `live or deleted) ∥ a page of the thread's index (one bounded stateless scan of <root key>/<reply id>);`,
      `2) the replies with their likes (comments multi-get: an entry never landed or deleted is`,
      `skipped) ∥ their authors' faces (users multi-get) ∥ with a token, the blocks multi-get.`,
    ].join(' '),
  },
  listLikers: {
    requests: 4,
    roundTrips: 2,
    why: [
      `1) the post (content get, 404) ∥ a page of the likers index (lists, one stateless scan of`,
      `n+1); 2) the page's likes by the truth (reactions multi-get of l:t: an entry shows only while`,
      `its like holds the entry's since, K) ∥ the likers' faces (users multi-get).`,
    ].join(' '),
  },
  followState: {
    requests: 3,
    roundTrips: 1,
    why: `1) three gets side by side: both users' rows (404 for either) and the edge (relations 'F').`,
  },
  listFollowing: {
    requests: 4,
    roundTrips: 2,
    why: [
      `1) the user's row (users get, 404) ∥ a page of their F entries (lists, one stateless scan of`,
      `n+1); 2) the page's edges by the truth (relations 'F' multi-get: shown only while the edge`,
      `holds the entry's since, K) ∥ the people's faces (users multi-get).`,
    ].join(' '),
  },
  suggestions: {
    // At its designed bound (at most 3), one over the reads' target of 2.
    requests: 7,
    roundTrips: 3,
    why: [
      `None while the reader's ranked list is cached (a minute per container). Cold: 1) the reader's`,
      `newest 20 followees (lists, one stateless scan) ∥ a sample of 100 follow edges from a random`,
      `point of the lists table (one stateless scan); 2) each followee's newest 30 followees, one`,
      `stateless scan each, all in parallel (2 requests here; skipped for a reader who follows`,
      `nobody); 3) when there are candidates (the sample's, from the namespace's other users): the`,
      `reader's edges to them (relations multi-get) ∥ the visibility edges (blocks multi-get) ∥`,
      `their faces (users multi-get): 2 + followees + 3 requests. Without candidates it stops at 2.`,
    ].join(' '),
  },
  listFollowers: {
    requests: 4,
    roundTrips: 2,
    why: [
      `1) the user's row (users get, 404) ∥ a page of their R entries (lists, one stateless scan of`,
      `n+1); 2) the page's edges by the truth (relations 'F' multi-get of follower → user: shown only`,
      `while the edge holds the entry's since, K) ∥ the people's faces (users multi-get).`,
    ].join(' '),
  },
  listGroups: {
    requests: 1,
    roundTrips: 1,
    why: `1) one get of the owner's group book (groups row: every group and member).`,
  },
  createGroup: {
    requests: 2,
    roundTrips: 2,
    why: `1) the book (groups get); 2) the new group's cell and a new version: check-and-put on the version read (X: changes to one book serialise; a loser reads again).`,
  },
  renameGroup: {
    requests: 2,
    roundTrips: 2,
    why: `1) the book; 2) the renamed group's cell and a new version, check-and-put on the version read.`,
  },
  deleteGroup: {
    requests: 3,
    roundTrips: 3,
    why: `1) the book; 2) the group's cell and its members' emptied, and a new version, check-and-put on the version read; 3) each member's index entry deleted, after the commit (X). The answer is the book as committed.`,
  },
  groupMembers: {
    requests: 3,
    roundTrips: 2,
    why: `1) the book; 2) the owner's edges to the members (relations multi-get: only people still followed are listed, X) ∥ their faces (users multi-get).`,
  },
  addGroupMember: {
    requests: 6,
    roundTrips: 5,
    why: [
      `1) the member's users row (404) ∥ the owner's edge to them ('F' get: 422 when not followed);`,
      `2) the book; 3) the member's index entry (groups put), before the commit (X); 4) the member's`,
      `cell and a new version, check-and-put on the version read; 5) the edge again: an unfollow that`,
      `came between took nobody out, so the add takes the member out itself (X).`,
    ].join(' '),
  },
  removeGroupMember: {
    requests: 3,
    roundTrips: 3,
    why: `1) the book; 2) the member's cell emptied and a new version, check-and-put on the version read; 3) the member's index entry deleted, after the commit (X).`,
  },
  groupTimeline: {
    requests: 6,
    roundTrips: 2,
    why: [
      `1) the group's cells (groups get through a filter: its members only) ∥ the reader's whole inbox`,
      `row, as home reads it; the entries are kept to the members' (a post id names its author);`,
      `2) the details stage of home: posts and originals (content multi-get), the reader's states,`,
      `the blocks, the faces from the feed's cache. [Celebrity members: their outboxes between 1)`,
      `and 2), one multi-get: 3 round trips.]`,
    ].join(' '),
  },
  homeTimeline: {
    requests: 5,
    roundTrips: 2,
    why: [
      `1) one get of the reader's whole inbox row (entries, celebrity markers, m:seen); 2) one`,
      `parallel stage: the window's posts and their reposts' originals (content multi-get: the`,
      `originals' ids come with the inbox cells), the reader's states (reactions multi-get), the`,
      `authors' visibility edges (blocks multi-get), and the authors' faces from the feed's`,
      `one-minute cache (a cold container adds a users multi-get: 5 requests, 4 when warm)`,
      `[∥ the m:seen put, at most hourly]. [A reader who follows celebrities: their outboxes'`,
      `multi-get between 1 and 2 = 3 round trips.]`,
    ].join(' '),
  },
  timelineNewer: {
    requests: 2,
    roundTrips: 1,
    why: [
      `1) the inbox row through a server-side filter (only the c: markers and the keys of the 21`,
      `newest entries after \`after\`) ∥ the reader's newest 100 mutes (lists, one stateless scan).`,
      `Writes nothing. [Celebrity markers: their outboxes with the same filter = 2 round trips.]`,
    ].join(' '),
  },
  notifications: {
    requests: 6,
    roundTrips: 2,
    why: [
      `1) a page of the recipient's entries (one reversed stateless scan of their text-keyed entry`,
      `rows, n + 10 spare; a \`filter\` tab adds a server-side RowFilter on the group key's type, so`,
      `the same one scan fills the page from that recipient's rows only); 2) one parallel stage: the groups' one-state cells (notifications`,
      `multi-get: count, place and names of one state, F), the posts they name (content multi-get),`,
      `the actors' blocks and mutes (blocks multi-get), their faces (users multi-get) and the read`,
      `marker (get, started only after the scan).`,
    ].join(' '),
  },
  unreadNotifications: {
    requests: 6,
    roundTrips: 2,
    why: [
      `1) the read marker (get) ∥ the newest 99 entries (one reversed stateless scan); 2) for the`,
      `unread ones, the list's stage: group states, posts, blocks and mutes, and the actors' faces`,
      `(four multi-gets; a face says the actor has not left, Q), so the badge counts exactly the`,
      `groups the list shows (F). [Nothing unread: 1.]`,
    ].join(' '),
  },
  topicPosts: {
    requests: 5,
    roundTrips: 2,
    why: [
      `1) one stateless scan of the topic index (text keys: hex4(md5(name)) + name + '/' + inv13 +`,
      `'/' + post id; limit n + 10 spare + 1); 2) one parallel stage: the posts (content multi-get),`,
      `the reader's states (reactions multi-get), the authors' visibility edges (blocks multi-get)`,
      `and their faces from the feed's one-minute cache (cold as measured: a users multi-get).`,
      `[A repost on the page: its original is read in one more round trip.]`,
    ].join(' '),
  },
  searchPosts: {
    requests: 5,
    roundTrips: 2,
    why: [
      `1) one stateless scan per scanned term of the search index, side by side (text keys:`,
      `hex4(md5(term)) + term + '/' + inv13 + '/' + post id; ≤ 4 terms, each ≤ 200 rows, or n + 10 + 1`,
      `for a one-term query); 2) one parallel stage, as a topic page: the candidates' posts, the`,
      `reader's states, the authors' visibility edges and their faces (feed cache). [Measured with a`,
      `one-term query; each further scanned term adds one request to stage 1.]`,
    ].join(' '),
  },
  hotPosts: {
    requests: 5,
    roundTrips: 2,
    why: [
      `1) ONE get of the hot table's ranking row (none while the container's copy is under 60 s`,
      `old: a warm page is ONE round trip); 2) one parallel stage, as a topic page: the page's posts`,
      `(content multi-get), the reader's states, the authors' visibility edges and their faces (feed`,
      `cache). [Before the first ranking: the get alone, an empty page. A repost on the page: its`,
      `original is read in one more round trip.]`,
    ].join(' '),
  },
  searchTopics: {
    requests: 2,
    roundTrips: 1,
    why: [
      `1) one stateless scan of the topic name rows the prefix starts (topics, '#' + prefix…, 50 at`,
      `most) ∥ the trending ranking (one multi-get of 96 trends rows; none while the container's`,
      `ranking is under 30 s old).`,
    ].join(' '),
  },
  trendingTopics: {
    requests: 1,
    roundTrips: 1,
    why: [
      `1) ONE multi-get of the last hour's 12 buckets × 8 shards (trends, 96 rows), summed and`,
      `ranked here; none while the container's ranking is under 30 s old.`,
    ].join(' '),
  },
  blockState: {
    requests: 3,
    roundTrips: 1,
    why: `1) three gets side by side: the target's users row (404), the block row and the mute row.`,
  },
  listBlocks: {
    requests: 3,
    roundTrips: 2,
    why: [
      `1) a page of the actor's B entries (lists, one stateless scan of n+1; no user check: only`,
      `yourself); 2) the page's block rows (blocks multi-get: shown only while the row holds the`,
      `entry's since, K) ∥ their faces (users multi-get).`,
    ].join(' '),
  },
  listMutes: {
    requests: 3,
    roundTrips: 2,
    why: [
      `1) a page of the actor's M entries (lists, one stateless scan of n+1); 2) the page's mute`,
      `rows (blocks multi-get: shown only while the row holds the entry's since, K) ∥ their faces.`,
    ].join(' '),
  },
  getMedia: {
    requests: 1,
    roundTrips: 1,
    why: `1) one get of the media row (404 unless the reader owns it and it is not being discarded).`,
  },
  openapi: { requests: 0, roundTrips: 0, why: `None: the document is part of the bundle.` },
  register: {
    requests: 2,
    roundTrips: 2,
    why: [
      `(scrypt, no HBase, and beside it:) 1) the people index rows of the new naming (one put: the`,
      `handle and the name are findable once the row holds that naming, P); 2) the users row:`,
      `check-and-put, put-if-absent on p:h, with the naming — of racing registrations of one handle`,
      `exactly one wins. [A loser: 3) deletes the index rows it wrote (≤ TERMS_MAX), then 409.]`,
    ].join(' '),
  },
  searchUsers: {
    requests: 4,
    roundTrips: 2,
    why: [
      `1) one stateless scan of the people index (PEOPLE_SCAN entries at most, the exact term's`,
      `first); 2) one parallel stage: the users found (multi-get: face, followers, and the naming`,
      `that says which entries are current, P) ∥ the searcher's follow edges to them (relations`,
      `multi-get) ∥ the visibility rule's edges (blocks multi-get). Anonymous: 2 requests.`,
    ].join(' '),
  },
  login: {
    requests: 7,
    roundTrips: 4,
    why: [
      `1) the attempt counted before anything is verified: increments of the (handle, source) row`,
      `and of the handle's global window row (throttle) ∥ the credentials (users get of a:pw, the`,
      `standing p:x and the session epoch a:se);`,
      `2) both throttle rows read back (one multi-get): each count includes this attempt, so of N`,
      `parallel guesses at most the allowed number is verified (H) [past the limit: the lock's`,
      `check-and-put on the lock read, one more round trip, H]; then scrypt, no HBase; 3) the`,
      `success: DELETE of the source row ∥ the global count −1 (increment) [∥ the check-and-put`,
      `rehash of an outdated record, on the record verified, H]; 4) the new session row (one put,`,
      `under the epoch read, Q). [A deactivated account: the restore's check-and-put on the standing`,
      `read comes before 4), one more round trip, Q.]`,
    ].join(' '),
  },
  exportData: {
    requests: 2,
    roundTrips: 2,
    why: [
      `1) where the export stands (users get of a:er, a:ed); a ready one answers its presigned link`,
      `here (no HBase request); 2) none ready or under way: the ask's check-and-put on the latest`,
      `ask read — of racing requests one asks — then only its winner queues the build's message`,
      `(SQS), so the worker always finds its ask (K). [While building: 1 request.]`,
    ].join(' '),
  },
  leave: {
    requests: 8,
    roundTrips: 5,
    why: [
      `1)–3) the login's password check, counted and throttled alike (H): the increments ∥ the`,
      `credentials get; the counts read back; the success's delete ∥ decrement; 4) its departure entry`,
      `(lists: the erasure finds it by it, so it is written before); 5) the deactivation:`,
      `ONE check-and-put of the standing and a new session epoch on the users row, on the standing`,
      `being active (Q: one row decides against a restore, a second leave, or the erasure).`,
    ].join(' '),
  },
  refreshSession: {
    requests: 3,
    roundTrips: 2,
    why: [
      `1) the session row (get of s and t:<hash>): unknown, expired, revoked or spent is decided`,
      `here; 2) the rotation: check-and-put of s:c on the presented hash — of two refreshes of one`,
      `token, or a refresh racing a logout, exactly one wins (H) ∥ the account's standing and epoch`,
      `(users get): a session of an account that left since it began is revoked instead (Q).`,
      `[A spent token, or a refused account: the revoke put.]`,
    ].join(' '),
  },
  updateProfile: {
    requests: 8,
    roundTrips: 4,
    why: [
      `1) the current name and naming version (users get; 404 here); 2) the new naming's people index`,
      `rows (one put), written before the row names them (P: the current name is always findable);`,
      `3) the name and the new naming (and the bio and location named with them): check-and-put on`,
      `the naming read, so of racing renames one wins and each knows whether it did; 4) the old`,
      `naming's index rows deleted (≤ TERMS_MAX = 4, in parallel: that naming can never be current`,
      `again) ∥ the profile read back for the answer. [A lost race: its own rows deleted, and the`,
      `steps again from 1), at most 3 times. No new name (a bio or location alone): 1), the put of`,
      `p:bi and p:lo, the profile read back = 3 requests, 3 round trips.]`,
    ].join(' '),
  },
  setAvatar: {
    requests: 5,
    roundTrips: 4,
    why: [
      `1) the profile (users get, 404; the avatar to replace) ∥ the picture's record (media get:`,
      `yours, an avatar, ready, free); 2) the claim: check-and-put of m:a '-' → '@<handle>' (a`,
      `picture is in one post or avatar at most, L); 3) the swap: check-and-put of p:av from the`,
      `avatar read — after the claim, so the current avatar is always claimed (L) [lost to a racing`,
      `change: read p:av again and swap from it, 2 round trips a round]; 4) the profile read back.`,
      `[Replacing an avatar (the figure sets a first one): the old picture's give-back,`,
      `check-and-put of m:a '@<handle>' → '-', after the swap (L) = 6 requests, 5 round trips.]`,
    ].join(' '),
  },
  publishPost: {
    requests: 8,
    roundTrips: 3,
    why: [
      `The author's face for the answer (users multi-get) starts first; the post's delayed notify`,
      `is queued (SQS) before the row (M: it settles c:posts if this request is cut after the row),`,
      `beside the search entries of its text (one batched put, V);`,
      `1) the post row: check-and-put, put-if-absent on p:t (exactly one request ever creates an`,
      `id, and a tombstone keeps it taken, B). Measured 3: the face read ends before the queued`,
      `notify, so the row counts as waiting on it;`,
      `2) only the creator, side by side: c:posts +1 with its tally mark (C, M), the own inbox`,
      `cell (your post is in your timeline when publish answers, A), the outbox cell (the`,
      `celebrity merge), and per topic the`,
      `index row (one batched put) and the trend increment. Then the fan-out message (SQS).`,
      `[Before 1), one round trip each: @mentions checked (users multi-get), then their index`,
      `entries (lists put, kinds N and n: before the post links anyone, R); an Idempotency-Key's`,
      `claim (put-if-absent, beside the mentions' check, B); pictures: their records (media`,
      `multi-get), then their claims (check-and-put of m:a each, in parallel, L).]`,
    ].join(' '),
  },
  addComment: {
    requests: 8,
    roundTrips: 4,
    why: [
      `1) side by side: the write quota +1 (quota increment), the post (content get, 404), the`,
      `block check either way (blocks multi-get), the commenter's face for the answer (users`,
      `multi-get), the commenter's index entry (lists put, kind W: written before the comment, K)`,
      `[∥ the replied-to comment's get, the mentions' users multi-get]; 2) the quota read`,
      `back (it includes this request: racing requests never pass the limit) [∥ the mentions'`,
      `index entries (lists put, kinds N and n, R)]; 3) the comment row:`,
      `check-and-put, put-if-absent on m:t, with the delayed notify queued beside it (F); 4) only`,
      `its creator: c:comments +1 on the post (E), and the immediate notify (SQS). [An`,
      `Idempotency-Key: its claim (put-if-absent) beside 1) = 9 requests, the same round trips; a`,
      `retry reads the claim back, then the claimed comment (a get) beside removing its own id's`,
      `entries, and answers it (E). A reply: its thread's index entry (comments put) beside the`,
      `delayed notify before 3), and beside 4) its root's thread summary read, then swapped`,
      `(check-and-put on the value read, E3) = 11 requests, 6 round trips.]`,
    ].join(' '),
  },
  like: {
    requests: 8,
    roundTrips: 5,
    why: [
      `1) side by side: the write quota +1, the post (content get, 404), the block check either way`,
      `(blocks multi-get); 2) the quota read back; 3) the post side first, both with this since:`,
      `the reactors 'L' row ∥ the likers list entry — every true like has its entry (E, K) — and the`,
      `delayed notify queued beside them (F); 4) the truth: check-and-put of l:t (reactions),`,
      `put-if-absent — of racing likes by one user exactly one wins; 5) only the winner: c:likes +1`,
      `(E), and the immediate notify. [A repeat: 5) l:t read; 6) the entry moved to its since.]`,
    ].join(' '),
  },
  bookmark: {
    requests: 5,
    roundTrips: 4,
    why: [
      `1) the write quota +1 ∥ the post (content get, 404); 2) the quota read back; 3) the list`,
      `entry (lists put) with this since, before the truth — every true bookmark has its entry (K);`,
      `4) the truth: check-and-put of b:t (reactions), put-if-absent — of racing bookmarks exactly`,
      `one wins. No count and no notification: a bookmark is private. [A repeat: 5) b:t read; 6)`,
      `the entry moved to its since.]`,
    ].join(' '),
  },
  unbookmark: {
    requests: 7,
    roundTrips: 4,
    why: [
      `1) the write quota +1 ∥ the post lookup (content get: 404 only for an id never used) ∥ the`,
      `truth's since (b:t get); 2) the quota read back; 3) check-and-delete of b:t on that since —`,
      `of racing removals exactly one wins (a bookmark made again since keeps its own); 4) only the`,
      `winner: that since's list entry deleted, after the truth (K).`,
    ].join(' '),
  },
  listBookmarks: {
    requests: 6,
    roundTrips: 2,
    why: [
      `1) a page of the reader's bookmarks index (lists kind K, one stateless scan of n+1); 2) one`,
      `parallel stage: the posts (content multi-get), the reader's states (reactions multi-get:`,
      `b:t says which entries still hold their since, K), the authors' faces (users multi-get, from`,
      `the feed's one-minute cache when warm), the blocks either way with those authors (blocks`,
      `multi-get: a post a block stands between is hidden, as its own page refuses it). [A repost`,
      `on the page: its original in one more, beside the blocks with the originals' authors.]`,
    ].join(' '),
  },
  unlike: {
    requests: 8,
    roundTrips: 5,
    why: [
      `1) the write quota +1 ∥ the post lookup (content get: 404 only for an id never used); 2) the`,
      `quota read back; 3) the like's since (reactions get of l:t) [not liked: done], then the`,
      `delayed notify queued (F); 4) the truth: check-and-delete of l:t on that since — of racing`,
      `unlikes exactly one wins (E); 5) only the winner, side by side: c:likes −1, the reactors row's`,
      `check-and-delete on that since and the DELETE of that since's list entry (an entry a later`,
      `like rewrote survives, E, K).`,
    ].join(' '),
  },
  repost: {
    requests: 16,
    roundTrips: 6,
    why: [
      `With a comment: 1) side by side: the write quota +1, the target (content get, 404), the`,
      `block check either way (blocks multi-get); 2) the quota read back [a repost of a repost: the`,
      `root and its author's block check, one more] ∥ the reposter's face (users multi-get); then`,
      `the delayed repost notify is queued, before the row (M: it applies the original's +1 if this`,
      `request is cut after the row) beside the search entries of its comment (V); 3) the repost's post row, put-if-absent on p:t (B); 4) only`,
      `the creator, side by side: c:posts +1 (C), the own inbox and outbox cells (A), c:reposts +1`,
      `on the original with its tally mark (M) and the derived r:<id> cell and reactors 'R' row`,
      `(E); 5) the answer's embedded original: the original (content multi-get), the reader's`,
      `states (reactions multi-get), both authors' faces (users). Measured 6: the face read ends`,
      `before the queued notify, so the row counts as waiting on it. [A plain repost (no comment)`,
      `takes the r:p claim first (put-if-absent: one plain repost per user and original, E) in its`,
      `own round trip.]`,
    ].join(' '),
  },
  unfollow: {
    requests: 13,
    roundTrips: 5,
    why: [
      `1) the target's users row (404) ∥ the edge ('F' get: the since the follower notification`,
      `retracts and the delete below checks); then the delayed settle and the delayed notify are`,
      `queued before the first write (settle message: A, C, D, M; F). Then two branches side by`,
      `side. The edge: 2) the truth: check-and-delete of 'F' on that since — of racing unfollows`,
      `exactly one wins (C) [no edge read in 1): the store reads 'F' again first, one more] ∥ a`,
      `new version of the follower's block of the target's packed audience, well before 'R' (N);`,
      `3) the edge's two list entries deleted side by side, after the edge (K); 4) the followers`,
      `side: check-and-delete of 'R' on the same since (a refollow that slipped in keeps its own,`,
      `C); 5) only the winner: following −1 ∥ followers −1, each with its tally mark (C, M). The`,
      `view, beside it (a fan-out that read the edge before its removal is purged again by the`,
      `settle, A): 2) the celebrity marker deleted (D) ∥ the reader's inbox row read for the purge`,
      `(the author's posts leave the timeline when unfollow answers, A) ∥ the target's p:celeb ∥`,
      `the actor's group book (groups get: the target leaves every group, X; a commit and the index`,
      `entries' delete only when they are in one);`,
      `3) the purge's DELETE of those cells (when there are any). [A celebrity that fell below the`,
      `threshold: its followers count, one more, to queue a demotion.]`,
    ].join(' '),
  },
  markNotificationsRead: {
    requests: 2,
    roundTrips: 2,
    why: [
      `1) the marker put, r:t with cell timestamp = the millis marked (a max-register: a late, older`,
      `mark never moves it back); 2) the marker read back (get): the answer is the marker as kept.`,
    ].join(' '),
  },
  unblock: {
    requests: 6,
    roundTrips: 4,
    why: [
      `1) the target's users row (404) ∥ the mute row (the answer's other half); 2) the block row's`,
      `since (blocks get); 3) check-and-delete of the row on that since (a block made again after`,
      `the read survives; of racing unblocks one wins); 4) that since's list entry deleted, after`,
      `the edge (K). [Not blocked: 1), 2).]`,
    ].join(' '),
  },
  unmute: {
    requests: 6,
    roundTrips: 4,
    why: [
      `1) the target's users row (404) ∥ the block row (the answer's other half); 2) the mute row's`,
      `since (blocks get); 3) check-and-delete of the row on that since (a mute made again after`,
      `the read survives); 4) that since's list entry deleted, after the edge (K).`,
    ].join(' '),
  },
  createUpload: {
    requests: 3,
    roundTrips: 3,
    why: [
      `1) the upload quota +1 (quota increment); 2) the quota read back (it includes this request:`,
      `racing uploads never pass the limit); 3) the media row: check-and-put, put-if-absent on m:o,`,
      `uploading, m:a = '-' ('-' so every later claim checks a value that exists, L). The`,
      `presigned PUT is signed locally. [An Idempotency-Key: its claim (put-if-absent) beside 1),`,
      `and after 3) the claim marked made (one put: a removed upload's retry is 410, L) = 5`,
      `requests, 4 round trips; a retry reads the claim (a get) and the record (a get) instead.]`,
    ].join(' '),
  },
  completeUpload: {
    requests: 3,
    roundTrips: 3,
    why: [
      `1) the media row (get: yours, its state; a repeat answers here); then a HEAD of the uploaded`,
      `object (storage) and the processing message (SQS), neither HBase; 2) the move uploading →`,
      `processing, check-and-put on m:s: exactly one racing move wins, and it comes after the`,
      `message, so no record waits in processing without one (L); 3) only when the worker took the`,
      `message and made that move first (it does within milliseconds on an idle queue): a get of`,
      `the row, to answer the state as it now is (processing, or already ready). Without the race:`,
      `2 requests, 2 round trips.`,
    ].join(' '),
  },
  follow: {
    requests: 12,
    roundTrips: 6,
    why: [
      `1) side by side: the target's users row (404), the actor's following count (the limit), the`,
      `block check either way; then the delayed settle and the delayed notify (SQS) are queued`,
      `before the first write (settle message; F); 2) the edge's two list entries (lists, one`,
      `multi-row put) before the edge (K) ∥ a new version of the follower's block of the target's`,
      `packed audience, before 'R' (N); 3) the truth: check-and-put of 'F', put-if-absent on e:t`,
      `— of racing follows exactly one wins (C); 4) only the winner: the followers side 'R' (a crash`,
      `before it is healed by the settle, C); 5) following +1 ∥ followers +1 (C) ∥ the block check`,
      `again now that the edge exists (G: a racing block is seen here, or its unfollows see our`,
      `edge); 6) the target's followers count ∥ its p:celeb (two gets of the same users row) ∥ the`,
      `immediate notify: anyone else's recent posts are backfilled through the queue (A).`,
      `[A celebrity: the reader's c: marker put, one more round trip (D). A repeat: 3) loses,`,
      `then 'F' read and its own entries deleted unless 'F' holds their since (K).]`,
    ].join(' '),
  },
  mute: {
    requests: 4,
    roundTrips: 3,
    why: [
      `1) the target's users row (404) ∥ the block row (the answer's other half); 2) the mute list`,
      `entry (lists put) before the edge (K); 3) the mute row: check-and-put, put-if-absent on e:t`,
      `[a repeat: the row's since read and its own entry deleted unless the row holds that since, K].`,
    ].join(' '),
  },
  block: {
    requests: 27,
    // 8 by the steps below, 9 as last measured; one more allowed: its two unfollows are branches
    // of unequal length, and a request of one that starts after a request of the other ended
    // counts as a link in the interval measure (round-trips.ts) though it did not wait for it
    // (the same code measured 13 and 14 in two runs before the later cuts).
    roundTrips: 10,
    why: [
      `1) the target's users row (404) ∥ the mute row (the answer's other half); 2) the block list entry (lists put) before the edge (K);`,
      `3) the block row: check-and-put, put-if-absent on e:t. Then both follows go, AFTER the block`,
      `row (G: a follow's re-check sees the row, or the unfollows see its edge): the two unfollows`,
      `side by side, each as unfollow above with its own users-row and edge reads. Measured, the`,
      `blocked user follows the blocker and not the other way, so the longer one runs 4) the users`,
      `row ∥ 'F'; 5) 'F' check-and-delete on the since read (C) ∥ the packed audience's version`,
      `(N); 6) the two list entries deleted (K); 7) 'R' check-and-delete (C); 8) the counts −1,`,
      `tallied (C, M); beside 5)–8) the marker deleted`,
      `(D) ∥ the inbox row read ∥ p:celeb ∥ the group book (X), then the purge's DELETE of the blocker's posts from the`,
      `blocked user's inbox (A); the other one (no edge) takes three: the users row ∥ 'F', 'F'`,
      `again ∥ the marker deleted ∥ the inbox row read ∥ p:celeb ∥ the group book. Beside the unfollows, the two's`,
      `conversation is fenced (U3): its state read, [none yet: both sides' participation marks put`,
      `(R),] then written back with a new version (check-and-put).`,
    ].join(' '),
  },
  likeComment: {
    requests: 7,
    roundTrips: 4,
    why: [
      `1) side by side: the write quota +1, the post (content get, 404), the comment with its likes`,
      `and the liker's own cell (comments get of m:t, m:v, m:d, m:n, m:l.<liker>: 404 unless live),`,
      `the block check with the post's author (blocks multi-get); 2) the quota read back; 3) the`,
      `block check with the comment's author; then the delayed notify queued (F); 4) the swap:`,
      `check-and-put of m:l.<liker> and m:n together on the m:n read (E2) [lost to a racing change:`,
      `read again and swap again]. [Liked already: done after 3.]`,
    ].join(' '),
  },
  unlikeComment: {
    requests: 4,
    roundTrips: 3,
    why: [
      `1) the write quota +1 ∥ the comment's likes and the liker's cell (comments get); 2) the quota`,
      `read back; [not liked, or gone: done] the delayed notify queued (F); 3) the swap: check-and-put`,
      `of m:l.<liker> = '' and m:n together on the m:n read (E2).`,
    ].join(' '),
  },
  deleteComment: {
    requests: 5,
    roundTrips: 4,
    why: [
      `1) the comment (comments get: who may delete it, 404), then the delayed notify queued (F);`,
      `2) the tombstone: check-and-put, put-if-absent on m:d, with m:n = 'x' in the same change (a`,
      `like that read the comment live fails its swap, L) — of racing deletes exactly one wins`,
      `(E); 3) m:v deleted (a repeat finishes a half-done delete; lists ask only for m:v);`,
      `4) only the winner: c:comments −1 on the post (E), and the immediate notify. [A reply,`,
      `beside 4): its thread's index entry removed, then its root's thread summary read and swapped`,
      `(E3; when it was in the preview, the first index entries and a multi-get of them before the`,
      `swap) = up to 9 requests, 7 round trips.]`,
    ].join(' '),
  },
  editPost: {
    requests: 13,
    roundTrips: 5,
    why: [
      `1) the post with its earlier versions (content get of p, h and c: author, version, when it`,
      `was published, which topics it ever had) ∥ the new text's mentions (users multi-get) ∥ who`,
      `reposted it (a reactors scanner, begun here: its create and first page run through 1 and 2,`,
      `its delete is handed off); 2) the topic index rows of topics the text gains (one put)`,
      `[∥ the index entries of mentions it gains (lists put, R)], BEFORE the text names them (a`,
      `topic page never misses it) ∥ the search entries of words it gains (one put, V); 3) the text, version, editedAt and the replaced text as history: one`,
      `check-and-put on the version (of racing edits one lands, none after a delete); 4) the post`,
      `as the answer shows it (the post-details stage: content ∥ the author's state ∥ face). [A topic`,
      `the post never had: its trend increments beside 4), ≤ MAX_TOPICS; a lost race: a get, 412.]`,
      `The notify facts (changed mentions; the edit, for the reposters) are queue messages, not HBase.`,
      `Four stages wait on each other; a fifth round trip shows when the gateway is slow to open the`,
      `scanner: its page then starts after the topic put of 2) has answered, and counts after it.`,
    ].join(' '),
  },
  postHistory: {
    requests: 3,
    roundTrips: 1,
    why: `1) the post's row with its history family (one get) ∥ the block check either way (blocks multi-get) ∥ whether the author is still here (users get, Q).`,
  },
  deletePost: {
    requests: 7,
    roundTrips: 4,
    why: [
      `(The author is checked from the id.) 1) the post lookup (content get of p: 404 for an id`,
      `never used, and what the clean-up needs: topics, mentions, original, pictures); 2) the`,
      `tombstone: check-and-put, put-if-absent on p:d with p:v = 'deleted' — of racing deletes exactly`,
      `one wins, the id can never be created again, and no edit lands after it (B); 3) the body,`,
      `entities, pictures and counts deleted (one DELETE) ∥ the edit history (the h family: one`,
      `DELETE); a repeat finishes a half-done delete; 4) only the winner, side by side: posts −1`,
      `(C), the own inbox and outbox cells deleted (gone when delete answers, A) [a repost: its`,
      `original's c:reposts −1 and the r:<id> cell and reactors 'R' row (E); a topic: its index`,
      `row — more requests, no more round trips]. Then the retraction, the comment purge and the`,
      `pictures' discards are queued (A, E, L).`,
    ].join(' '),
  },
  removeAvatar: {
    requests: 4,
    roundTrips: 4,
    why: [
      `1) the profile (users get: which avatar, 404); 2) the swap of p:av to '' (check-and-put on the`,
      `avatar read; overwritten, never deleted, L); 3) the give-back of the picture, check-and-put`,
      `of m:a '@<handle>' → '-', after the swap so the current avatar is always claimed (L); 4) the`,
      `profile read back for the answer. [No avatar: 1) and 4) only.]`,
    ].join(' '),
  },
  setCover: {
    requests: 5,
    roundTrips: 4,
    why: [
      `As setAvatar, on p:cv: 1) the profile (users get, 404; the cover to replace) ∥ the picture's`,
      `record (media get: yours, a cover, ready, free); 2) the claim, check-and-put of m:a '-' →`,
      `'@<handle>' (L); 3) the swap, check-and-put of p:cv from the cover read; 4) the profile read`,
      `back. [Replacing a cover: the old picture's give-back after the swap = 6 requests, 5 round trips.]`,
    ].join(' '),
  },
  removeCover: {
    requests: 4,
    roundTrips: 4,
    why: [
      `As removeAvatar, on p:cv: 1) the profile (users get: which cover, 404); 2) the swap of p:cv to`,
      `''; 3) the give-back of the picture (L); 4) the profile read back. [No cover: 1) and 4) only.]`,
    ].join(' '),
  },
  getSettings: {
    requests: 1,
    roundTrips: 1,
    why: `1) one get of the users row's p:h, a:dm and a:n<kind> cells (defaults where absent).`,
  },
  changeSettings: {
    requests: 2,
    roundTrips: 2,
    why: [
      `1) the settings read (users get; 404, so nothing is written for nobody); 2) one put of the`,
      `cells the change names (a cell per kind: changes of different kinds never undo each other).`,
      `The answer is the read with the change applied.`,
    ].join(' '),
  },
  logOut: {
    requests: 2,
    roundTrips: 2,
    why: [
      `1) the session row (get): only a token the session issued may end it; 2) the revoke, an`,
      `unconditional put of s:c = '-' and s:r: it overwrites the check cell of every rotation, so no`,
      `refresh wins after it (H). [Nothing to revoke: 1.]`,
    ].join(' '),
  },
  listConversations: {
    requests: 3,
    roundTrips: 2,
    why: [
      `1) a page of the owner's index (messages, one get of the c or q family from the cursor,`,
      `ColumnPaginationFilter(n+1)); 2) side by side: the conversations' states (messages multi-get of`,
      `s:state: an entry shows only while the state still puts it there, U2) and the people's faces`,
      `(users multi-get). [Entries a later change replaced and whose removal was cut: one delete more.]`,
    ].join(' '),
  },
  messageBadge: {
    requests: 1,
    roundTrips: 1,
    why: `1) one get of the owner's index row, family u: each conversation's counts at its latest version (U4).`,
  },
  readConversation: {
    requests: 2,
    roundTrips: 1,
    why: [
      `1) side by side: ONE get of the conversation row with a filter (the state, the page's messages`,
      `newest first from the cursor, the reader's own deletions in the same window) and the peer's face`,
      `(users get). Pictures' signed URLs are computed, not read.`,
    ].join(' '),
  },
  sendMessage: {
    requests: 16,
    roundTrips: 6,
    why: [
      `1) side by side: the conversation (get of s:state and the client id's cell), the recipient's`,
      `users row twice (standing; setting), the block check either way, whether the recipient follows`,
      `the sender (relations get) and the write quota +1; 2) the quota read back [a new conversation:`,
      `its own quota, 2 more]; 3) both sides' index entries for the new head and participation marks`,
      `(R), written ahead (one put, U2); 4) the check-and-put of the state, the message and the client id's claim (U1: a loser reads`,
      `again); 5) side by side: each side's counts at the new version (U4), the entries the previous`,
      `head had put removed, and the live event (live multi-get of both sides' logs); 6) a log append`,
      `per side connected in the last day (check-and-put, S). [Pictures: their records (multi-get)`,
      `in 1, their claims (check-and-put each) before 3.]`,
    ].join(' '),
  },
  markMessagesRead: {
    requests: 7,
    roundTrips: 5,
    why: [
      `1) the head (get of s:state); 2) the state and the message read up to (one get); 3) the`,
      `check-and-put of the state (a loser reads again); 4) side by side: the reader's and the peer's`,
      `counts at the new version (U4) and the live event to both (live multi-get); 5) the log appends.`,
    ].join(' '),
  },
  acceptRequest: {
    requests: 8,
    roundTrips: 5,
    why: [
      `1) the state (get); 2) the recipient's main-list entry, written ahead (U2); 3) the check-and-put`,
      `of the state; 4) side by side: both sides' counts, the requests entry removed, the live event;`,
      `5) the log appends.`,
    ].join(' '),
  },
  declineRequest: {
    requests: 5,
    roundTrips: 3,
    why: `1) the state (get); 2) the check-and-put of the state; 3) both sides' counts ∥ the requests entry removed. Nobody is told.`,
  },
  recallMessage: {
    requests: 6,
    roundTrips: 4,
    why: [
      `1) the state and the message (one get); 2) the check-and-put of both (U5: a loser reads again);`,
      `3) both sides' counts ∥ the live event (live multi-get); 4) the log appends. [Pictures: their`,
      `release (check-and-put each) and the discard queued.]`,
    ].join(' '),
  },
  deleteMessage: {
    requests: 2,
    roundTrips: 2,
    why: `1) the state (get: the message exists); 2) the reader's own deletion mark, by a check-and-put on the state as read (never into a conversation the erasure removed meanwhile).`,
  },
  deleteConversation: {
    requests: 5,
    roundTrips: 3,
    why: `1) the state (get); 2) the check-and-put of the state (the side's "deleted up to"); 3) both sides' counts ∥ the side's entry removed.`,
  },
} as const satisfies Record<string, RouteCost>;
