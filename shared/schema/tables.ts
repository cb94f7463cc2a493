// shared/schema/tables.ts — the HBase schema as code: every table, its families and their
// attributes, and beside each table its row-key layout and the exact HBase REST requests each
// access pattern makes. `npm run schema` (infra/schema/apply-schema.ts) creates what is missing.
// Row keys themselves are built only in ./row-keys.ts.
//
// Design rules (product.md "HBase data design"), and why:
//  * Every access path is ONE get, ONE multi-get, or ONE scan bounded by a row-key prefix and a
//    limit. No full-table scans, no filter scans over other users' rows (seed 000 scanned the
//    whole content table with a substring filter, and `2_` matched `12_`).
//  * A user's key component is  salt(2 bytes of MD5(handle)) + handle + 0x00.  The salt spreads
//    hot users over regions (seed 003); the 0x00 terminator (never part of a handle) means user
//    `1`'s key range can never contain user `10`'s (seed 001's column-prefix unfollow bug).
//  * Newest-first order comes from reversed time: 8 bytes big-endian of (2^63-1 - millis).
//  * Post keys end in a 6-byte random suffix, and a post row is created with put-if-absent, so
//    two posts by one author in the same millisecond never collide (seed 004 lost one).
//  * All families are short (one letter) because HBase stores the family name in every cell.
//  * DATA_BLOCK_ENCODING FAST_DIFF: keys inside a block share long prefixes (same user).
//  * NEW_VERSION_BEHAVIOR on the families where a cell is deleted and then written again by a
//    later operation (edges: unfollow → refollow; inbox markers: unfollow → refollow, demote →
//    promote; m:regen). Without it a Delete masks every Put with an equal or older timestamp
//    (HBASE-3300), so a refollow in the same server millisecond as the unfollow "succeeds" and
//    stays invisible — forced with one explicit timestamp for the put, the delete and the
//    put-if-absent: masked on a plain family, kept with the attribute
//    (test/integration/hbase-delete-put-race.test.ts).
//    With it (HBASE-15968) versions are ordered by sequence id as well as timestamp: a delete
//    hides only what was written before it. Its cost: delete markers are tracked per version on
//    reads of those families; entries (inbox i, outbox o) and posts do not need it and keep the
//    cheaper default.
//  * The invariants every multi-row operation keeps, and why each interleaving keeps them:
//    docs/consistency.md.

import type { ColumnFamilySchema } from '../hbase/index.js';
import {
  firstByteSplitPoints,
  hexSaltSplitPoints,
  saltAndHexSplitPoints,
  saltSplitPoints,
  termSplitPoints,
  trendShardSplitPoints,
} from './row-keys.js';
import {
  NOTIFICATION_TTL_SECONDS,
  SESSION_TTL_SECONDS,
  TALLY_TTL_SECONDS,
  TOPIC_TTL_SECONDS,
} from '../domain/limits.js';
import { CONNECTION_TTL_SECONDS, EVENT_LOG_TTL_SECONDS } from '../domain/live.js';
import { GROUP_MEMBERS_MAX, GROUPS_MAX } from '../domain/groups.js';
import {
  HOT_ENGAGEMENT_TTL_SECONDS,
  HOT_HALF_LIFE_MS,
  HOT_MAX_POST_AGE_MS,
  HOT_MIN_PEOPLE,
  HOT_RANKED,
} from '../domain/hot.js';

export interface TableDefinition {
  /** Table name without namespace. */
  name: string;
  families: ColumnFamilySchema[];
  /** Row-key layout and access patterns, kept here so the design is read in one place. */
  design: string;
}

/** See the header: for families whose cells are deleted and then written again. */
const LATER_WRITE_WINS = { NEW_VERSION_BEHAVIOR: 'true' } as const;

/** The tally family of every row that keeps exact counts in `c` (users, content). */
export const TALLY_FAMILY = 't';
const TALLY_DESIGN = `
t:    the TALLY of the c: counts (invariant M): t:<counter>.<fact>.+ / .- = 1 once that fact's
      +1 / −1 is in c:<counter>, set by the SAME Increment as the count (one row, atomic), so
      a mark is there exactly when its change was applied. Facts: likes <liker>.<since>,
      comments <comment id>, reposts <repost id>, following <followee>.<since>, followers
      <follower>.<since>. t:<mark>.c = millis of a delivery's claim to apply a missing change.
      TTL ${TALLY_TTL_SECONDS / 86_400} days; never read with the row's other families.
tally      : PUT ?check=increment c:<counter> ± 1 AND t:<mark> +1            (one request)
judge      : GET /<table>/<k>/t:<mark +>,t:<mark ->                          (one get, delayed
             message only)
claim      : PUT ?check=put put-if-absent on t:<mark>.c (or check-and-put on a stale claim)`;

const family = (name: string, attrs: Record<string, string | number> = {}): ColumnFamilySchema => ({
  name,
  VERSIONS: 1,
  BLOOMFILTER: 'ROW',
  DATA_BLOCK_ENCODING: 'FAST_DIFF',
  ...attrs,
});

// Built by a call esbuild may drop (PURE): a bundle that needs only this file's constants and
// qualifiedTableName leaves the definitions and their prose out.
export const TABLES = /* @__PURE__ */ (() =>
  ({
    users: {
      name: 'users',
      families: [family('p'), family('a'), family('c'), family(TALLY_FAMILY, { TTL: TALLY_TTL_SECONDS })],
      design: `
row   = userKey(handle) = salt2 + handle + 0x00            (one row per user)
p:    profile — p:h handle, p:n display name, p:t created-at millis
p:sv  the naming version: which rows of the people index (below) are the user's (invariant P);
      a fresh one with every rename, set by the same write as p:n. Absent on users registered
      before the index (not findable by name: no migration, the product has no users yet)
p:av  the avatar's media id; '' once removed (overwritten, never deleted: a delete marker could
      mask a later set within the same millisecond). Absent or '' = none.
p:bi  the bio (简介), p:lo the location: free text as the user wrote it; '' once cleared (overwritten,
      never deleted, as p:av). Written by a rename's own check-and-put when the change names a name
      too, else by one put of the row: a change lands whole or not at all
p:cv  the cover picture's media id, as p:av ('' = none): claimed '@<handle>' like an avatar
p:x   the standing (invariant Q, docs/consistency.md): '' or absent = active, 'd<millis>' deactivated
      then (leave), 'e<millis>' erasure begun then. Overwritten, never deleted. Read with every
      face, mention check, search result and profile: only an active user is any of these
a:    auth    — a:pw scrypt hash record (never returned by any API); a:se the session epoch (64
      random bits, new with every leave; absent = ''): a session started under another is over;
      a:er the data export last asked for (millis), a:ed the last one built ('<asked> <file key>
      <built>'): asked by check-and-put on a:er read, marked built by check-and-put on a:er;
      the user's settings, read by nobody else: a:dm who may message them (everyone | following |
      nobody; absent = following), a:n<kind> one cell per kind of notification (likes, comments,
      reposts, mentions, follows): '0' switched off, '1' or absent on — a cell each, so changes of
      different kinds never overwrite each other
p:celeb '1' while the user is a celebrity (posts merged at read time, not fanned out), '0'
      after a demotion — overwritten, never deleted, so a promotion right after a demotion can
      never be masked by a delete marker (the p family keeps the default version behaviour)
c:    counters, 8-byte longs kept by REST increments — c:followers c:following c:posts
t:    the tally of c:followers and c:following (the layout is content's, below: TALLY_DESIGN)
register : the people rows of the new naming version first (one put), then
           PUT /users/<k>?check=put  (check p:h == "" : put-if-absent → race-free, 200 or 304);
           a loser deletes the rows it wrote
rename   : GET p:n,p:sv; PUT the new version's people rows; PUT ?check=put p:n, p:sv = new,
           check p:sv == the version read; then DELETE the old version's rows (a loser: its own)
leave    : the login's password check, then PUT ?check=put p:x = d<now>, a:se = new, check p:x ==
           '' (active) — one row: of a leave, a restore and the erasure racing, one moves it
restore  : (a login of a deactivated account) PUT ?check=put p:x = '', check p:x == the value read
           (the leave writes its departure entry, lists '~departures/erase/…', before its check-and-put)
erase    : (the erase-accounts job, docs/consistency.md R) PUT the release entry, then PUT ?check=put
           p:x = e<now>, check p:x == d<the leave's millis>; after the walk, DELETE every column
           but p:h and p:x (the handle's reservation)
release  : RESERVATION_MS later, the walk again, then DELETE every cell up to the newest read
login    : GET /users/<k>/a,p:x?e=b64 (one get, in parallel with the throttle count); a record with
           weaker scrypt parameters than today's is re-hashed after a successful verify:
           PUT ?check=put a:pw = new, check a:pw == the record verified (never clobbers a change)
profile  : GET /users/<k>/p,c?e=b64 (one get; never the t: tally)
counts   : PUT /users/<k>?check=increment                                   (per counter change;
           a follow's and unfollow's carry their tally marks, t: below)
faces    : GET /users/multiget?row=…&column=p:h&column=p:n&column=p:av&column=p:x — the name and avatar of
           every user a view names (post authors, commenters, likers, list entries, notification
           actors); one multi-get run BESIDE a stage the route has anyway wherever the handles are
           known by then (a post id names its author): the home timeline stays at 2 round trips.
           Feeds (home timeline, topics) take faces from a one-minute in-memory cache first
           (adapters/memory/caching-faces.ts) and read only the authors it lacks.
           Comments learn their authors from their scan and spend a second round trip.
avatar   : PUT /users/<k>?check=put p:av=<new>, check p:av == <the avatar read> ('' = none), after
           the picture's claim (media m:a=@<handle>); a loser reads again (docs/consistency.md L)
cover    : the same on p:cv
describe : PUT /users/<k> p:bi, p:lo (one put; with a rename: in the rename's check-and-put)
settings : GET /users/<k>/p:h,a:dm,a:n…; a change: PUT /users/<k> of the cells it names
choices  : GET /users/multiget?row=…&column=p:h&column=a:n… — the notification worker reads the
           recipients' choices beside the fact's truth (no extra round trip)`,
    },
    content: {
      name: 'content',
      families: [family('p'), family('c'), family('h'), family(TALLY_FAMILY, { TTL: TALLY_TTL_SECONDS })],
      design: `
row   = postKey = userKey(author) + revTs8 + suffix6       (one row per post; an author's posts
        are contiguous and newest first)
p:    p:b body text, p:t created-at millis, p:i idempotency key (if any),
      p:r the original's post id when the post is a repost (转发); dropped with the body on delete,
      p:e the body's @mentions (registered users only) and #topics#, parsed once at publish:
      JSON {m: [[handle, start, end]…], g: [[topic, start, end]…]} (code-point offsets); dropped
      with the body on delete,
      p:d deleted-at millis: the TOMBSTONE. A deleted post keeps its row with p:t and p:d only, so
      put-if-absent on p:t fails for that id for good: no retry can ever create it again,
      p:v the version: how many times the text was edited (absent = 0); 'deleted', written with
      the tombstone, so no edit lands after a delete,
      p:u last edited at, millis (absent: never)
h:<n> the text of version n (JSON {b, e, at}: body, entities, when it became current), written
      by the edit that replaced it; at most MAX_EDITS cells, dropped with the body on delete.
      Never read with the post (only the history and the edit read it)
c:    exact counts, 8-byte longs kept by REST increments: c:likes c:comments c:reposts. Read in
      the same get / multi-get / scan as the post (every post read asks for p:b,p:d,p:r,p:e and c),
      so counts cost no request of their own.
publish      : PUT /content/<postKey>?check=put (put-if-absent on p:t)       (one check-and-put)
count        : PUT /content/<postKey>?check=increment c:<name> (only by the request that won the
               conditional write the count follows: like, unlike, comment, delete, repost)
get post     : GET /content/multiget?row=<postKey>/p:b,p:d,p:r,p:e,p:v,p:u,c&e=b64   (one get)
edit         : GET the row with h (the versions), then PUT ?check=put p:b, p:e, p:v = n+1, p:u,
               h:<n> = the replaced text, check p:v == n (absent for 0): ONE row write, so of edits
               racing from one version exactly one lands, and none after a delete
history      : GET /content/<postKey>/p,h,c (one get): the current text and every earlier one
lookup       : GET the row's p family: live / deleted (p:d) / absent          (one get)
delete post  : PUT ?check=put put-if-absent on p:d (exactly one racing delete wins), then
               DELETE /content/<postKey>/p:b,p:i,p:r,p:e,p:u,c:likes,c:comments,c:reposts ∥ the h
               family (the body, its history and counts go; a repeat finishes it)
user's posts : scanner of p:b, p:r and c only (a tombstone has none of them once its delete is
               done, so the server skips it and it costs no slot of the limit; a count a racing
               like wrote after the delete can leave a counts-only row: it is not shown, and the
               page is cut by rows, so it never ends the list early) startRow=userKey(author)
               (or keyAfter(cursor's postKey)), stopRow=prefixEnd(userKey(author)), limit n+1
               (the extra row = "more"); then the originals and the reader's reactions, one
               parallel stage
timeline body: GET /content/multiget?row=..&e=b64 of p:b,p:d,p:r,p:e,c for the page's posts AND the
               originals of its reposts (known from the inbox cells' values), one multi-get;
               tombstones dropped
backfill     : scanner startRow=userKey(followee), stopRow=userKey(followee)+revTs8(notOlderThan)
               (keys are newest first, so the stop row is the time bound), limit ≤ 200 —
               cost independent of table size and of the followee's history${TALLY_DESIGN}`,
    },
    relations: {
      name: 'relations',
      families: [family('e', LATER_WRITE_WINS)],
      design: `
Tall: one row per edge and direction, so a celebrity's follower list spreads over many rows
(and regions) and is paged by a bounded prefix scan — never one unbounded wide row (seed 001).
row   = userKey(a) + 'F' + userKey(b)   "a follows b"  (following side — the source of truth)
row   = userKey(b) + 'R' + userKey(a)   "b is followed by a" (followers side — repaired to agree)
e:    e:t since millis;  e:away (followers side only) the reader's m:seen when the away sweep
      marked them inactive, empty once they are back — fan-out skips a non-empty one
follow     : PUT the two list entries (lists), then PUT 'F' row ?check=put (put-if-absent on
             e:t: of racing follows exactly one wins), then only the winner PUTs the 'R' row
             (not atomic across rows: the pair's settle message restores 'R' from 'F'), then
             counters by increment; a loser GETs 'F' and DELETEs its entries (unless 'F' holds
             its since)
unfollow   : GET 'F'; PUT 'F' ?check=delete (e:t == value read: of racing unfollows exactly
             one wins), then DELETE the two list entries of that since, then PUT 'R'
             ?check=delete with the same e:t (a refollow that slipped in between has rewritten
             'R' with its own since, and keeps it)
is-following : GET /relations/multiget?row=<userKey(a)+'F'+userKey(b)>     (one get)
settle     : GET 'F' and GET 'R' (in parallel); PUT the list entries and 'R' = F's since, or
             DELETE the entries and PUT 'R' ?check=delete on the since read (only if that since
             is not newer than the operation settled)
walks      : scanner prefix userKey(a)+'F' (or userKey(b)+'R'), start keyAfter(cursor's row),
             limit n+1 (cursor = last handle; order = the other user's salted key, not
             alphabetical, not by time): promotion, demotion, away marks and rebuilds read
             every edge this way in chunks (with e:away: who is away costs no extra read)
following / followers lists (newest first): the lists table, confirmed here in one multi-get of
             the page's 'F' rows
audience segment : the same scan from userKey(b)+'R'+salt(lo) to userKey(b)+'R'+salt(hi): one of
             n equal salt ranges of the followers (relationSegment), one fan-out message each
away marks : PUT batch of 'R' rows {e:away = seen} per chunk of the reader's 'F' rows (away
             message); PUT batch {e:away = ''} per chunk when the reader is rebuilt
row   = userKey(b) + 'P' + block (1 byte, 0..15 = the follower's salt >> 12)   b's PACKED AUDIENCE:
        the 'R' rows of one block of b's followers kept a second time in one cell, derived from
        them (invariant N in docs/consistency.md); 'P' sorts between 'F' and 'R', so no edge scan
        meets it, and the repair job's walk skips it (not an edge key)
e:v   the block's version: random, put by every writer of an 'R' row of that block BEFORE it
      writes the row (follow, unfollow, settle, away marks, repair job), never deleted
e:p   the pack: the e:v it was built under, then one line per follower in key order:
      salt (4 hex) + '~' away or '.' + handle
audience   : GET /relations/multiget of the blocks a fan-out message covers (e:v, e:p): a pack
             whose tag is the row's e:v is the block's followers; the other blocks are read by
             the audience scan above (one per run of neighbouring blocks) and their packs PUT
             (one multi-row put) when e:v landed more than W + 2 s before — so a 100,000-follower
             post reads its followers in ~32 small gets instead of 100,000 scanned rows. A block
             of more than 20,000 followers is never packed: its audience is scanned per message`,
    },
    inbox: {
      name: 'inbox',
      families: [family('i'), family('c', LATER_WRITE_WINS), family('m', LATER_WRITE_WINS)],
      design: `
Wide but bounded: one row per reader, one cell per (reader, post), capped by the trim job.
row   = userKey(reader)
c:<celebrity handle>  value empty: the reader follows this celebrity, whose posts are not
      fanned out but merged in at read time from the celebrity's outbox row (celebrity hybrid).
m:seen  last timeline read, millis (written at most hourly); m:regen  millis a regeneration was
      requested (present while the inbox of a returning inactive reader is being rebuilt);
      m:away  the m:seen at which the reader's follows were marked away (the sweep skips it).
i:<revTs8 + postKey>  value: empty. Qualifiers sort ascending = newest first across all
      followees (seed 000 kept N versions per followee and read them grouped by author). The
      same post always lands in the same cell, so a re-delivered fan-out rewrites it.
Cells are written with the server's clock, never an old explicit timestamp, so a delete from
an unfollow cannot mask a later refollow backfill (HBASE-3300).
timeline page : GET /inbox/multiget?row=<userKey(reader)>/i,c,m (one get: the whole row) +
                [readers with c: markers: GET /outbox/multiget of those celebrities, merged in
                feed order by the use case] + GET /content/multiget of the page's window (one
                multi-get) = 2 round trips (3 for readers who follow celebrities); the cursor
                is the last post id shown, the page starts strictly after it in feed order
A cell's value is empty, or for a repost the original's post id: the timeline learns a page's
originals from the inbox get and reads them in the same multi-get as the page's posts.
newer check   : GET /inbox/multiget?row=<userKey(reader)>/c,i&filter_b64=<filter> (one get, beside
                GET /lists/<reader's M prefix>*?limit=100: the newest mutes) = 1 round trip; the
                filter (Filter Language, shared/hbase/filter-string.ts) is
                  (FamilyFilter(=,'binary:c') OR (FamilyFilter(=,'binary:i') AND
                   ColumnRangeFilter('',false,'<revTs8+postKey of after>',false) AND
                   ColumnPaginationFilter(21,0) AND KeyOnlyFilter()))
                so only the c: markers and the keys of the 21 newest i: cells above \`after\`
                travel (at most 21 i: cells), whatever the row holds. Readers
                with c: markers add GET /outbox/multiget of those celebrities with the i: part of
                the same filter on o: (2 round trips). Writes nothing (m:seen is the timeline's)
fan-out       : PUT batch of rows {key: userKey(follower), cell i:<qualifier>}  (one per chunk)
backfill      : PUT one row {key: userKey(reader), cells i:<qualifier>...}
retract post  : DELETE /inbox/<k>/i:<qualifier> per follower (REST has no multi-row delete),
                16 at a time
unfollow purge: GET the reader's row, then DELETE /inbox/<k>/i:<q1>,i:<q2>,…/<TS> — the
                author's qualifiers in one request (chunked to keep the URL short), TS = the
                newest timestamp among them, so an entry re-added after the read survives
settle        : the purge again (not following), or c:<author> / a backfill (following)
stats         : GET the row: cell count, oldest = revTs of the last qualifier
trim (job)    : a chunked scan over the table (the one whole-table walk, bounded per step and
                resumable); per row over INBOX_CAP one DELETE of the oldest qualifiers, up to
                the newest timestamp among them`,
    },
    outbox: {
      name: 'outbox',
      families: [family('o')],
      design: `
Every author's newest posts as one bounded wide row, for the celebrity read-time merge (a reader
who follows k celebrities gets all k outboxes with ONE multi-get) and for the author's own posts
page (one get instead of a scanner over the content rows).
row   = userKey(author)
o:<revTs8 + postKey>  value empty or the original's id — the same cell as an inbox cell, so
      merging is a sort.
publish  : PUT one cell (in parallel with the own-inbox put)
timeline : GET /outbox/multiget?row=<userKey(celeb1)>&row=…  (one multi-get, only when the
           reader follows celebrities: their page costs 3 round trips instead of 2)
newer    : the same multi-get with the inbox's newer-check filter on o: (keys of at most 21 cells
           above \`after\` per row), only for readers who follow celebrities
author   : GET /outbox/<k>/o (the whole row, at most OUTBOX_CAP cells + what publishes added since
           the last trim) beside the author's users row: while the row holds at least c:posts
           cells it holds every post, and a page it runs out in is the list's end; past the tail
           of a trimmed row the page comes from a content scan (use case: posts.ts listUserPosts)
delete   : DELETE /outbox/<k>/o:<qualifier>
trim     : the scheduled trim keeps the newest OUTBOX_CAP (200) cells`,
    },
    idempotency: {
      name: 'idempotency',
      families: [family('k', { TTL: 86_400 })],
      design: `
row   = userKey(user) + idempotency key (client-chosen, safe charset): one key names one
        request of that user, whatever it creates (a post, a repost, a comment, an upload)
k:p   the id of what the first request creates; k:h a hash of that request (another
      operation's never matches); k:c = k:p once an upload said it created it; TTL one day
claim  : PUT ?check=put put-if-absent on k:p (with k:h), beside the request's first reads; on
         304 GET k: — another hash → 422; else the claimed id decides: the post or comment live
         → the same one (200); its tombstone → 410; absent (the first request was refused, died,
         or is creating it now) → create it under the claimed id (put-if-absent: one wins)
upload : a record is removed without a tombstone, so PUT k:c after its create: absent with k:c
         → 410, absent without → create it under the claimed id`,
    },
    throttle: {
      name: 'throttle',
      families: [family('t', { TTL: 86_400, ...LATER_WRITE_WINS })],
      design: `
Login throttling, kept apart from users so an unknown handle is throttled exactly like a known
one (a lockout must not reveal that a handle exists) and no users row is made. Every attempt is
COUNTED BEFORE its password is verified (REST increments are atomic per row), so however many
guesses run at once, each sees a distinct count and at most the allowed number is ever verified.
Two kinds of rows (product rules: shared/use-cases/log-in.ts):
source = userKey(handle) + 'S' + source   (source = IPv4 address, IPv6 /64 prefix, or 'unknown',
         from API Gateway's own requestContext.http.sourceIp, never X-Forwarded-For)
         t:f attempts from this source since its last success (8-byte long, REST increment)
         t:l locked-until millis: the lock, taken with check-and-put on the value read
global = userKey(handle) + 'G' + window4 (fixed windows of LOGIN_GLOBAL_WINDOW_SECONDS since the
         epoch, big-endian)
         t:f failed attempts on the handle from every source in that window
TTL one day. NEW_VERSION_BEHAVIOR: a success deletes the source row, and an increment or lock in
the same millisecond must not be masked by that delete (HBASE-3300).
count   : PUT source?check=increment t:f ∥ PUT global?check=increment t:f, then
          GET /throttle/multiget?row=source&row=global (the values include this attempt)
lock    : PUT source?check=put t:l = until, check t:l == the value read ("" when absent): of the
          attempts past the limit that saw the same lock, exactly one wins and is verified
success : DELETE source ∥ PUT global?check=increment t:f by −1 (the global count is failures)`,
    },
    sessions: {
      name: 'sessions',
      families: [family('s', { TTL: SESSION_TTL_SECONDS }), family('t', { TTL: SESSION_TTL_SECONDS })],
      design: `
Refresh-token sessions: one row per login (a token "family"); rotation replaces its current
token, a revoked session accepts none. Tokens are opaque to clients:
  refresh token = base64url(session id 16 bytes ‖ 32 random bytes); stored only as SHA-256.
row   = session id (16 random bytes: spread over regions without a salt)
s:h   the handle (rewritten by every rotation, so the TTL never drops it from a live session)
s:e   the account's session epoch (users a:se) when the session started; rewritten with s:h
s:c   hex SHA-256 of the CURRENT token, the only one that can be exchanged — the check cell of
      every rotation; '-' once revoked (no hash equals it)
s:r   revoked-at millis (present = revoked: logout, or a reuse was detected)
t:<hex SHA-256>  expires-at millis of every token this session issued (current and spent), so a
      spent token is told apart from a forged one. A row holds at most TTL / access-token TTL
      of them (one rotation per access token); the HBase TTL drops older ones.
TTL ${SESSION_TTL_SECONDS / 86_400} days on both families: a token's cell outlives its expiry by nothing.
start   : PUT s:h, s:c, t:<h> (a fresh random id: nothing to race)                    (one put)
refresh : GET /sessions/multiget?row=<id>/s,t:<h>&e=b64 (one get), then
          PUT ?check=put s:c = h', s:h, s:e, t:<h'>, check s:c == h            (one check-and-put)
          ∥ GET /users/<k>/p:h,p:x,a:se: not active, or a:se ≠ s:e → PUT the revoke (401, Q)
          t:<h> absent or expired → unknown (401, nothing changes); s:r present → revoked (401);
          s:c ≠ h, or the check-and-put loses (304) → h was spent: REUSE → revoke (401)
logout  : the same get; t:<h> present → PUT s:r = now, s:c = '-' (unconditional, idempotent)
Interleavings (each forced in test/integration/accounts.test.ts):
 * two refreshes of one token: both read s:c == h, both check-and-put on h; exactly one wins;
   the loser has presented a spent token: reuse → the session is revoked, so the winner's new
   refresh token dies too (OAuth 2.0 Security BCP: a replayed refresh token ends the grant).
 * refresh racing logout: the revoke writes s:c = '-'. Revoke first → the rotation's check fails
   → 401. Rotation first → its h' is current until the revoke, then s:c = '-' ≠ h' and s:r
   is set: h' is refused. Either way the session ends revoked and no refresh token issued
   after the revoke works (an access token issued before it lives out its ≤ 15 minutes).
 * reuse after rotation: s:c = h' ≠ h while t:<h> is present → revoke.`,
    },
    reactions: {
      name: 'reactions',
      families: [family('l', LATER_WRITE_WINS), family('r', LATER_WRITE_WINS), family('b', LATER_WRITE_WINS)],
      design: `
The user side of likes and reposts — the SOURCE OF TRUTH, and the reader's own state. Tall: one
row per (user, post) the user touched, so a user's likes are contiguous and never one wide row.
row   = userKey(user) + postKey(post)
l:t   liked-at millis (present = liked). NEW_VERSION_BEHAVIOR: like → unlike → like in one
      millisecond must leave the like visible (HBASE-3300, as for follow edges).
r:p   the id of the user's plain (comment-less) repost of this post: the claim that makes a
      plain repost idempotent per (user, original); replaced with check-and-put once that
      repost is deleted. r:<repost id> '' for each live repost of this post by the user
      (present = reposted).
like        : the reactors row FIRST (so every true like has its entry), then PUT ?check=put
              (put-if-absent on l:t: of racing likes exactly one wins; only the winner counts +1;
              a loser puts the reactors row back to the since l:t holds)
unlike      : GET l:t; PUT ?check=delete on that value (of racing unlikes exactly one wins;
              only the winner counts −1 and removes the reactors row on the same since)
viewer state: GET /reactions/multiget?row=<userKey(reader)+postKey(p1)>&row=… (ONE multi-get for
              a page's posts and their originals, in parallel with the content multi-get)
plain repost: PUT ?check=put put-if-absent on r:p (or check-and-put on the old id to replace a
              deleted repost's claim); then PUT r:<repost id>
b:t   bookmarked-at millis (收藏; present = bookmarked). Private: only its user reads it. Its
      newest-first list is the lists table's kind K, written before it and removed after it as
      the likers' entries are (invariant K); NEW_VERSION_BEHAVIOR as l.
bookmark    : PUT the list entry, then PUT ?check=put (put-if-absent on b:t: of racing bookmarks
              one wins); a loser deletes its entry unless b:t holds its since
unbookmark  : GET b:t; PUT ?check=delete on that value; the winner DELETEs the entry of that since
bookmarks   : the lists scan (kind K), then the page's posts and the reader's states in ONE stage
              (the viewer-state multi-get above carries b:t): an entry shows only while b:t holds
              its since and its post is live`,
    },
    reactors: {
      name: 'reactors',
      families: [family('e', LATER_WRITE_WINS)],
      design: `
The post side ("who liked", "who reposted"), DERIVED from reactions and from reposts' p:r.
Tall: a post with a million likes is a million small rows paged by a bounded prefix scan.
row   = postKey(post) + 'L' + userKey(liker)      e:t liked-at millis
row   = postKey(post) + 'R' + postKey(repost)     e:t reposted-at millis
who liked : newest first from the lists table (kind L), then ONE multi-get of those likers'
            reactions rows: an entry whose truth is not there (a like stopped between its entry
            and its truth, an unlike between its truth delete and its entry removal) or holds
            another since is skipped, never shown. The reactors 'L' row
            and the list entry are written together (one round trip), before the truth
recount   : the repair job counts these prefixes (verified against the truth) to heal a count
            left wrong by a function stopped between its two writes`,
    },
    comments: {
      name: 'comments',
      families: [family('m')],
      design: `
Tall: one row per comment. The key is ASCII on purpose: the REST gateway's stateless scan
(GET /table/<prefix>*?reversed=true&limit=…) takes string rows and is the only REST scan that
runs in reverse, so one layout serves oldest-first AND newest-first, each in ONE request.
row   = hex4(md5(postId)) + postId + '/' + commentId      (commentId = 13-digit millis + '-' +
        8 hex: ascending = oldest first; the salt spreads busy posts over regions; '/' ends the
        post id, so one post's range never contains another's)
m:t   created-at millis (kept on delete: the id is never reused)
m:v   a top-level comment as JSON {a author, b body, r reply-to id, ra reply-to author, m @mentions
      [[handle, start, end]…] parsed at write time}
m:w   a reply (楼中楼) as the same JSON with t = its thread's root id, instead of m:v: the
      post's list (rows with m:v) never shows a reply
m:r   a top-level comment's thread summary '<count>/<sequence>/<id>:<author>,…' (live replies,
      the oldest two as the preview), swapped by ?check=put on the value read (E3); kept on
      delete: a deleted row with m:r counting above 0 is listed as a placeholder
thread index rows: row + '/' + replyId → m:e the reply's author, written before the reply,
      removed on its delete. GET /comments/<root row + '/'>*?limit=n+1[&startrow=<cursor>+' ']
      pages a thread oldest first in one bounded scan; a multi-get of the replies follows
m:d   deleted-at millis: the tombstone (put-if-absent: exactly one racing delete wins, and it
      writes m:n = 'x' in the same change). A row with m:t and no m:v reads as deleted
m:n   the likes' state '<count>/<sequence>' (absent: none yet; 'x': deleted)
m:l.<handle>  one liker's since ('' once taken back). Like / unlike: GET m:t, m:v, m:d, m:n,
      m:l.<liker> → PUT m:l.<liker> + m:n ?check=put on the m:n read: count and likers move in one
      row change (E2); a loser reads again
create  : the author's lists entry (kind W) beside the checks, and the mentions' (kinds N, n)
          right after the mentions' check, then PUT ?check=put
          put-if-absent on m:t (with m:v); the winner counts c:comments +1
delete  : GET m:v (who may delete) → DELETE m:v (from here on it is deleted for every read, so a
          delete cut after it is whole but for its count, which its delayed notify settles) →
          PUT ?check=put put-if-absent on m:d → the winner counts −1
oldest  : GET /comments/<salt+postId+'/'>*?column=m:v&limit=n+1[&startrow=<cursor row>+' ']
newest  : the same with reversed=true&startrow=<cursor row or prefix+'~'> (inclusive: n+2, the
          cursor row dropped) — m:v, m:d, m:r, m:n and the reader's m:l.<reader> are asked for,
          through SingleColumnValueFilter('m','v',…) OR SingleColumnValueFilter('m','r',…): rows
          with neither (deleted comments without a thread, replies, thread index rows) are
          skipped by the server and never take a slot
          Both run in parallel with the post's get: a deleted post's comments are gone at once
purge   : the same scan, then DELETE each row (the fan-out worker, after a post is deleted)`,
    },
    quota: {
      name: 'quota',
      families: [family('q', { TTL: 3600 })],
      design: `
Per-user write limits in fixed one-minute windows (comments, likes + unlikes, reposts).
row   = userKey(user) + action + 0x00 + window4 (domain/quota.ts: minutes since the epoch, big-endian). TTL 1 h.
q:n   the count, an 8-byte long (REST increment)
take  : PUT ?check=increment q:n, then GET q:n: the value includes this request, so racing
        requests can only be refused early at the boundary, never let through past the limit`,
    },
    notifications: {
      name: 'notifications',
      families: [
        family('n'),
        family('m', LATER_WRITE_WINS),
        family('e', { ...LATER_WRITE_WINS, TTL: NOTIFICATION_TTL_SECONDS }),
        family('r'),
      ],
      design: `
One user's notifications, grouped at write time (Mastodon's grouped notifications: likes and
reposts of one post, and new followers, within a 12-hour window are ONE group; a comment, a reply
and a mention are each a group of one). Written only by the worker (message notify), never in the
request path. Four kinds of rows, all of one recipient:
group  = userKey(recipient) + 'G' + groupKey          (groupKey = notification.ts, ASCII)
         n:s  the group's ONE state, JSON {c: exact count of members (people), t: its latest
              join (millis, its place in the list), l: the latest actors [[handle, millis]…] ≤ 3,
              k: a clock, max(previous + 1, now)}: replaced by check-and-put on the value read,
              retried until it lands, so count, place and names always move together
              (groups written before kept n:c, n:t, n:l; they are read as such until changed);
              r: 1 when the group records whom it counts:
         n:m.<member> '1' while the count includes that member, '0' once not: written by the
              same check-and-put as n:s, so a delivery finishing a cut one counts what is missing
member = group + 0x00 + member (the actor)
         m:t  JSON array of the actor's live facts in this group (a like's or follow's since, a
              repost's id, a comment's or post's id); [] = not a member. Swapped by
              check-and-put on the value read, never deleted (a Delete would mask a later put of
              the same millisecond). Written before: the one since as a number
entry  = hex4(md5(handle)) + handle + '/T/' + 13-digit millis + '/' + groupKey   (the list) — TEXT,
         like comment keys, so the REST stateless scan lists it newest first in ONE request;
         the table's split points cut this hex space too (SPLITS 'salt+hex'), so entries spread
         e:l  the latest actors of the newest state that listed it, put with cell timestamp =
         that state's clock (HBase keeps the newest whatever order writers land in); the page
         reads the names to check (blocks, mutes, faces) from here, so it needs no second read;
         e:x the comment's text (cut) for a comment, reply or mention in a comment. One live
         entry per group: the writer that moves t deletes the entry at the old time; an entry
         whose time is not the group's t (left by racing writers) is skipped when read. TTL
         ${NOTIFICATION_TTL_SECONDS / 86_400} days: the list is bounded in time (groups and members keep no TTL, so counts stay exact)
marker = userKey(recipient) + 'M'      r:t read-up-to millis, cell timestamp = that millis (max-register:
              an older mark-read never moves it back)
reconcile (the worker, per recipient of a fact): GET member → its instances disagree with the
          truth: PUT member ?check=put on the value read (add or take out this fact) → the winner:
          GET group n:s, n:m.<member> → PUT n:s + n:m.<member> ?check=put on n:s read (count ±1
          when n:m.<member> disagrees with the member's list, place, names; again until it
          lands) → PUT entry, DELETE the old entry. A member already right still gets the group
          step: it finishes a delivery cut between the two rows
list      : GET /notifications/<entry prefix>*?reversed=true&startrow=<cursor's entry, or prefix+'~'>
            &limit=n+spare (one request), then ONE parallel stage: multi-get of the page's group
            rows (their n:s: count, place, names of one state), multi-get of the
            posts they name (content), multi-get of the recipient's block/mute rows for those
            actors (blocks), GET marker = 2 round trips. A tab (filter: mentions, comments,
            likes) adds filter_b64=RowFilter(=, 'regexstring:^[^/]*/T/[0-9]{13}/(<types>)/') to
            the same scan: still one request inside the recipient's prefix (entries live
            ${NOTIFICATION_TTL_SECONDS / 86_400} days), the limit counting matching rows only
unread    : GET marker ∥ the same reversed scan of the newest UNREAD_CAP entries, then the list's
            parallel stage for the newer ones (2 round trips): it counts only what the list shows
mark read : PUT marker r:t (timestamp = the millis marked)`,
    },
    topics: {
      name: 'topics',
      families: [family('t', { TTL: TOPIC_TTL_SECONDS })],
      design: `
The topic index (#话题#): tall, one row per (topic, post), newest first within a topic.
row   = hex4(md5(name)) + name + '/' + inv13(post time) + '/' + post id — TEXT, like the list
        keys, so the REST stateless scan reads a page in ONE request (the salt spreads topics over
        regions; a name never holds '/', so topic "ab" never lists "ab c"; inv13 = 13 digits of
        9999999999999 − millis: ascending = newest first). Rows of the earlier binary layout
        (salt2 + name + 0x00 + revTs8 + postKey) are never read again and expire with the TTL
t:a   '' (the row is the entry). TTL ${TOPIC_TTL_SECONDS / 86_400} days: a topic page reaches back at most that far
      (bounded per time), and a page is a bounded scan (bounded per request)
name row = '#' + name (row-keys.ts topicNameKey): one per topic in use, written again with every
        post carrying it, so it lives TTL days after the last one ('#' never starts a hex salt
        nor appears in a name: these rows never fall among a topic's entries)
publish : PUT one entry row and one name row per topic of the post (≤ MAX_TOPICS, one batched
          put beside the inbox put)
suggest : GET /topics/%23<prefix>*?limit=TOPIC_NAME_SCAN (one stateless scan of name rows, in
          name order) ∥ the trending multi-get (cached 30 s), ranked in use-cases/topics.ts = 1 round trip
page    : GET /topics/<prefix>*?startrow=<cursor's row + ' '>&limit=n+spare+1 (one stateless
          scan), then ONE parallel stage: content multi-get ∥ the reader's block/mute multi-get;
          a deleted post's entry is dropped at read (its row stays until the TTL) = 2 round trips
delete  : DELETE each of the post's topic rows (≤ MAX_TOPICS) — reads already skip it`,
    },
    search: {
      name: 'search',
      families: [family('s')],
      design: `
Post search (GET /search/posts): an inverted index, tall, one row per (term, post), newest first
within a term. Terms (domain/post-search.ts indexTerms): the post's folded words, every CJK
character and every pair of neighbouring CJK characters, '#' + each topic, '@' + each mention.
row   = hex4(md5(term)) + term + '/' + inv13(post time) + '/' + post id — TEXT, like the topic
        index, so the REST stateless scan reads a page of one term in ONE request (the salt
        spreads terms over regions; a term never holds '/')
s:a   '' (the row is the entry). No TTL: search reaches back to the first post
publish : PUT every entry of the post's text (one batched put, ≤ 2 × POST_MAX_CODE_POINTS + 30
          rows) BEFORE the post row: a post is never readable without its entries (invariant V)
edit    : PUT the entries the new text adds BEFORE the check-and-put that makes it the text;
          entries of words the text dropped stay, and the read checks the text
page    : GET /search/<prefix of term>*?startrow=<cursor's row + ' '>&limit=SEARCH_SCAN_ROWS + 1,
          one stateless scan per scanned term (≤ SEARCH_SCANNED_TERMS, in parallel), then ONE
          parallel stage: content multi-get ∥ the reader's block/mute multi-get = 2 round trips.
          A term in millions of posts costs the same: every scan stops at its limit
delete  : the worker DELETEs each entry of every text the post had (an unindex message queued by
          the delete with the terms, ≤ 500 rows a message, 16 at a time: the gateway deletes one
          row per request); pages drop them at once. The erasure does the same for its posts,
          and takes the '@' + handle entry off each post that named it`,
    },
    people: {
      name: 'people',
      families: [family('e')],
      design: `
Find people (GET /users?q=): a prefix index of handles and display names, one row per findable
term of a user's current naming (domain/people-search.ts: the handle, the whole name, the name
from each later word on; in their search form, NFKC and lowercased).
row   = term + 0x00 + handle + 0x00 + naming version (row-keys.ts peopleKey) — unsalted, since a
        query reads every term it prefixes as one key range; 0x00 sorts below any character of
        a term, so the rows whose term IS the query come first
e:a   '' (the row is the entry)
The version in the key makes every naming's rows its own: a row is written before its version
becomes the user's p:sv and deleted only once that version can never be current again, so no
delete marker ever falls on a row that is put again (invariant P, docs/consistency.md).
find  : GET /people/<search form of q>*?limit=PEOPLE_SCAN (one stateless scan), then ONE
        parallel stage: users multi-get (face, c:followers, p:sv; and the query itself when it
        is a handle) ∥ the searcher's follow edges to them ∥ the visibility multi-get (blocks)
        = 2 round trips. A row shows its user only while the users row holds its version`,
    },
    trends: {
      name: 'trends',
      families: [family('n', { TTL: 7200 })],
      design: `
Trending topics: posts per topic in five-minute buckets, sharded so no single row is hot.
row   = shard1 (md5(name)[0] mod TREND_SHARDS = 8, row-keys.ts) + bucket4 (five-minute buckets
        since the epoch, big-endian). The shard leads and the table is split on it (SPLITS): the
        current bucket's increments land on 8 rows in up to 8 regions, not on the one region a
        time-led key would give them. TTL 2 h: the table holds about two hours (rows of the
        earlier bucket-first layout are never asked for again and expire with it).
n:<name>  8-byte long, REST increment: +1 per post per topic (≤ MAX_TOPICS increments a post,
          in parallel with the post's other writes: bounded work per post)
trending : ONE multi-get of the last hour's 12 buckets × 8 shards = 96 rows, summed per topic by
           the store; what trending means (window, rank, tie-break, top 10) is domain/trending.ts
           (work bounded by the distinct topics of one hour), cached 30 s per container
           (use-cases/topics.ts). A deleted post stays counted until its bucket leaves the hour.`,
    },
    hot: {
      name: 'hot',
      families: [family('e', { TTL: HOT_ENGAGEMENT_TTL_SECONDS }), family('r')],
      design: `
The hot feed (热门微博, GET /hot): the engagements of the last ${HOT_MAX_POST_AGE_MS / 3600_000} hours, filed by hour, and the
ranking a scheduled job makes of them every 5 minutes (domain/hot.ts: distinct people, half-life
${HOT_HALF_LIFE_MS / 3600_000} h, posts ≤ ${HOT_MAX_POST_AGE_MS / 3600_000} h old, at least ${HOT_MIN_PEOPLE} people).
row   = shard1 (md5(post id)[0] mod HOT_SHARDS = 8) + hour bucket4 (big-endian), as trends: the
        current hour's writes land on 8 rows in up to 8 regions
e:<post id>/<handle>  '' with the cell timestamp = when that person engaged (a like, a comment,
        a repost of the post): a person is ONE cell per post per hour, and the newest timestamp
        is what a read sees. TTL ${HOT_ENGAGEMENT_TTL_SECONDS / 86_400} days (the window and a day to spare)
row   = 0xff + 'ranking' (above every shard's rows)
r:a   the ranking, JSON {rankedAt, posts: [{id, score, people}]}, the top ${HOT_RANKED}, replaced whole
engage : ONE put of one cell, by the worker's notify message of the like, comment or repost once
         its truth holds (no read; a redelivery writes the same cell). An unlike or a deleted
         comment leaves the person counted: they did engage, and the entry ages out
rank   : ONE multi-get of the window's ${HOT_MAX_POST_AGE_MS / 3600_000 + 1} hours × 8 shards (392 rows, in chunks), then ONE
         content multi-get of the best candidates (deleted ones dropped), then ONE put of the
         ranking row. Work grows with the engagements of two days, not with the table
read   : ONE get of the ranking row (cached 60 s per container), then the page's details stage`,
    },
    blocks: {
      name: 'blocks',
      families: [family('e', LATER_WRITE_WINS)],
      design: `
Blocks and mutes, tall, one row per edge (the blocker's side only: every check is a point get,
so no reverse side is needed).
row   = userKey(a) + 'B' + userKey(b)   "a blocks b"
row   = userKey(a) + 'M' + userKey(b)   "a mutes b"
e:t   since millis (NEW_VERSION_BEHAVIOR: block → unblock → block in one millisecond stays blocked)
block / mute     : PUT the list entry (lists), then PUT ?check=put (put-if-absent on e:t: a
                   repeat changes nothing but GETs e:t and DELETEs its own entry)
unblock / unmute : GET e:t, PUT ?check=delete on it, then DELETE the list entry of that since
list             : newest first from the lists table (kind B or M), then ONE multi-get of the
                   page's rows here: an entry shows only while its row holds its since
check (timeline, topic page, notifications): ONE multi-get of (reader,'B',x), (reader,'M',x) and
          (x,'B',reader) for the page's authors x, in parallel with the content multi-get
check (a follow, comment, repost, like, post read): ONE multi-get of (a,'B',b) and (b,'B',a)`,
    },
    lists: {
      name: 'lists',
      families: [family('e', LATER_WRITE_WINS)],
      design: `
The newest-first lists — following, followers, likers, blocked, muted: a time-ordered index
BESIDE each edge, DERIVED from it (invariant K in docs/consistency.md). The edge rows stay keyed by
the other user (every check is a point get; fan-out's segments need the salted order); this
table only orders them. A table of its own, so no scan of relations, reactors or blocks (fan-out's
audience segments, the repair job's walk, the recount) ever meets an index row.
row   = hex4(md5(owner)) + owner + '/' + kind + '/' + inv13 + '/' + other handle — TEXT, like
        comment keys, so the REST stateless scan reads a page in ONE request
        (inv13 = 13 digits of 9999999999999 − since: ascending = newest first; the salt
        spreads owners over regions; neither a handle nor a post id holds '/')
        kind F: owner follows other   R: other follows owner   B / M: owner blocks / mutes other
        kind L: other likes the post  (owner = the post id)
        kind b / m: other blocks / mutes owner (the reverse of B / M, written and removed in the
        same request as the forward entry; read only by the erasure: who blocks or mutes it)
        kind k: other bookmarked the post owner (the reverse of K, the same way; owner = post id)
        kind K: owner bookmarked the post other   kind W: owner wrote the comment other =
        post id + '~' + comment id (read by the data export, and the erasure: one scan, then
        a multi-get of those comment rows confirms them)
        kind N: owner is named with a link (@owner) at other = a post id, or post id + '~' +
        comment id; kind n: its reverse, owner = the post id, other = the named handle (+ '~' +
        comment id for a comment's mention). Both in ONE put by the publish (before the post
        row), the edit (mentions it gains, beside its topic rows) and the comment (beside its
        checks); never removed by a request: each is checked against the text when read. Read
        only by the erasure: N to unlink the named account from every text, n to drop a
        post's entries with it (docs/consistency.md R)
row   = '~departures/' + ('erase' | 'release') + '/' + 13-digit due + '/' + handle: the accounts
        on their way out (注销), oldest due first ('~' sorts above every hex4 salt); the erase-
        accounts job reads what is due in ONE stateless scan (docs/consistency.md R)
e:t   '' (the key is the entry). NEW_VERSION_BEHAVIOR: an entry removed and written again with
      the same since (a remove, then a settle's restore) must stay.
Written and removed by the adapter methods that write and remove the edge side each list reads,
so every caller (the request, the settle) keeps the index without knowing of it:
  follow     : PUT both entries (F of the follower, R of the followee: one multi-row put), THEN
               the put-if-absent of 'F' — an edge never lacks its entries; a repeat that loses
               DELETEs its own unless 'F' holds that since. The settle's restore of 'R' PUTs them
               again (idempotent)
  unfollow   : after the winning delete of 'F': DELETE both entries at the since read (two
               DELETEs in parallel), THEN the 'R' check-and-delete — a crash in between leaves
               'R', which the settle's remove (entries, then 'R' on its since) clears with them
  like       : the entry is PUT beside the reactors row, BEFORE the truth (never missing); a
               repeat that loses moves it to the truth's since (PUT there, DELETE its own); the
               winning unlike DELETEs the entry at the since it removed
  block/mute : PUT the entry, THEN put-if-absent of the edge (never missing); a repeat that loses
               DELETEs its own entry unless the edge holds that since; unblock / unmute: the
               edge's check-and-delete, then DELETE the entry at that since
list  : GET /lists/<prefix>*?limit=n+1[&startrow=<cursor's row>+' '] (one request; the cursor is
        the position (since, handle) of the page's last entry: entries that land meanwhile sort
        before it, so pages neither repeat nor skip), in parallel with the list's other first
        read (the user's or the post's existence, where the list has one); then ONE multi-get of the truth for the page's
        entries (relations 'F', reactions l:t, blocks): an entry is shown only when its edge
        holds the same since = 2 round trips
who to follow (shared/use-cases/suggestions.ts), ≤ 3 round trips:
        1. GET /lists/<reader's F prefix>*?limit=21 (the newest 20 followees) ∥ GET
           /lists/<h>*?startrow=<h + 3 random hex>&limit=100 (h = a random first hex char: a run
           of F and R entries of whoever owns them — a sample of the graph in which a user shows
           about as often as they have edges; one request, never beyond the salt character)
        2. GET /lists/<followee's F prefix>*?limit=31 for each of those 20, in parallel
           (skipped when the reader follows nobody)
        3. in parallel: GET /relations/multiget of the reader's 'F' rows to the ≤ 50 candidates ∥
           GET /blocks/multiget of the visibility edges ∥ GET /users/multiget of their faces
        Entries are counted as indexed, not confirmed (a stale one counts once: approximate)
stale : an entry whose edge is gone or holds another since — written by a request still on its
        way to the edge, left by a crash between two writes, or by a race whose cleanup is
        still to come — is never shown, and never twice (a refollow's entry has another
        since). It is not deleted at read (every entry rightly precedes its edge); the removal
        of that edge's since deletes it, and an orphan a crash left beside no edge is only ever
        skipped
data  : rows written before this table existed have no entries; the product has no production
        data yet, so there is no migration (a store with data would need one walk of relations,
        reactions and blocks writing the entries)`,
    },
    groups: {
      name: 'groups',
      families: [
        family('g', LATER_WRITE_WINS),
        family('m', LATER_WRITE_WINS),
        family('h', LATER_WRITE_WINS),
        family('n', { TTL: NOTIFICATION_TTL_SECONDS }),
      ],
      design: `
分组 and 特别关注: each owner's private groups of people they follow (domain/groups.ts), and an
index of who holds a member in a group. Invariant X in docs/consistency.md.
row   = userKey(owner)   the owner's GROUP BOOK, changed only whole by a check-and-put on g:v
g:v   the book's version: random, rewritten by every change (absent: never changed)
g:<group id>  JSON {name, at} of a group of the owner's own (id g + 7 of [0-9a-z]); 特别关注
      (id special) is built in and has no cell; '' = deleted
m:<group id>/<member>  millis the member was added; '' = taken out (a check-and-put cannot
      delete, so a change writes the cells it changes, empty ones included, and a read skips
      empty cells: at most ${GROUP_MEMBERS_MAX} live members a group, ${GROUPS_MAX} groups of one's own + 特别关注)
row   = userKey(member) + 'H'   who holds the member: h:<owner>/<group id> = ''. Written BEFORE
      the commit that adds the member, deleted AFTER the commit that takes them out, so it holds
      every real holding and maybe a stale one, which its readers check against the book
row   = userKey(author) + 'N'   n:<post id>/<fan> = '': a 特别关注 notice of that post may have gone
      to that fan; put by the fan-out's first message before it writes the notices, read only by
      the author's erasure (which forgets those notices). TTL ${NOTIFICATION_TTL_SECONDS / 86_400} days, as the notices
book    : GET /groups/<userKey(owner)> (one get: every group and member)
change  : the book read, then ONE PUT ?check=put of the cells that changed + a new g:v, with
          the check g:v = the version read (absent: never changed): of racing changes exactly
          one lands per version; the others read again (create, rename, delete, add, remove;
          the unfollow's and the block's removal from every group; the settle's)
members : GET /groups/<userKey(owner)>?filter_b64=(FamilyFilter g AND ColumnRange [id, id]) OR
          (FamilyFilter m AND ColumnRange [id/, id0)) — one get of that group's cells only
group timeline : the members get ∥ the home inbox get, then the celebrity members' outboxes
          (only when some are celebrities), then the page's details = 2 round trips (3)
holders : GET /groups/<userKey(member)+'H'>/h (one get): the fan-out's first message reads it
          for 特别关注 (beside its other reads), the erasure to take the account out of groups`,
    },
    meta: {
      name: 'meta',
      families: [family('v')],
      design: `
The namespace's record of itself: the layout version its data is in, and how far each migration
got (shared/schema/migrations.ts; npm run migrate; docs/operations.md, "Upgrades"). A few rows.
row   = 'layout'             v:version the layout version the data is in (decimal text); absent
      in a namespace made before versions were recorded, which holds version 1's layout
      v:at   millis it was recorded
row   = 'migration/<to>'     the migration to layout <to>: v:cursor where its next batch starts
      (the migration's own text; '' = the start), v:rows rows it went through so far, v:done
      millis it finished (absent: not yet)
layout   : GET /meta/layout (one get; npm run schema and npm run migrate)
record   : PUT /meta/layout v:version, v:at: only ever a higher version, once every migration up
           to it is done (a fresh namespace: the code's version at once, nothing to migrate)
progress : GET /meta/migration%2F<to> at its start, PUT after every batch: a run that stops (a
           crash, its time up) is resumed from the last batch it recorded`,
    },
    live: {
      name: 'live',
      families: [
        family('c', { TTL: CONNECTION_TTL_SECONDS }),
        family('s'),
        family('e', { TTL: EVENT_LOG_TTL_SECONDS }),
        family('d', { TTL: EVENT_LOG_TTL_SECONDS }),
        family('w', { TTL: EVENT_LOG_TTL_SECONDS }),
      ],
      design: `
The live channel: who is connected where, each user's event log, and who to tell of an author's
posts. The push is a hint; the log is the truth (docs/consistency.md S, T). Three kinds of rows:
reader     = userKey(reader)                                        (one row per user)
  c:<connection id>  the session's expiry millis (the access token's); TTL 3 h, past API
                     Gateway's 2-hour connection limit, since $disconnect is not guaranteed
  s:n   the log's head: the position of its last event, decimal text — THE check cell of every
        append (absent: 0, nothing logged yet). No TTL: a position is never reused
  s:p   presence: millis of the last connect. Events are logged only for a reader with s:p
        newer than EVENT_LOG_TTL (a reader never connected costs no log writes)
  s:w   millis the reader's followees were last told of it (the watcher marks below)
  s:k   the reader's own random secret its positions are sealed with (shared/auth/positions.ts);
        made once, by put-if-absent at a connect. A reader without one is not logged for
  e:<position>   the event (JSON), position as 12 zero-padded digits so qualifiers sort by it;
        TTL 24 h (EVENT_LOG_TTL)
  d:<event key>  the position that event was logged at: a redelivered message logs it once
connection = salt2(id) + '~' + connection id                        (one row per connection)
  c:h   the reader's handle, c:x the session's expiry millis; TTL 3 h (as c: above)
watchers   = userKey(author) + 'w'                                   (one row per author)
  w:<reader>  '' — the reader follows the author and connected within the last 24 h (TTL)
connect  : PUT (one batch put) the reader row's c:<id>, s:p and the connection row, beside
           PUT ?check=put s:k, check s:k absent (the seal key, made once); then, at
           most hourly (s:w older than WATCH_REFRESH), the following list (scan pages) and ONE
           batch put of w:<reader> into each followee's watchers row, and s:w
message  : GET the connection row (c:h, c:x): who speaks, and until when       (one get)
close    : DELETE the reader row's c:<id> and the connection row
append   : (the worker; one event to many readers) GET /live/multiget of the readers' rows,
           columns s:n, s:p, s:k, d:<key>, c (heads, presence, seal keys, the key already logged, connections:
           ONE multi-get), then per present reader not yet holding the key
           PUT ?check=put e:<n+1>, d:<key>, s:n = n+1, check s:n == n        (one each; a loser
           reads its row again and retries at its new head)
read     : GET /live/<reader>/e with ColumnRangeFilter(e:<after+1>, …) AND
           ColumnPaginationFilter(EVENT_LOG_READ_MAX + 1) ∥ GET s:n,s:p — one round trip
watchers : GET /live/<author>w/w                                            (one get a post)
gone     : DELETE the reader row's c:<id> and the connection row (a push answered 410)`,
    },
    messages: {
      name: 'messages',
      families: [
        family('s'),
        family('m'),
        family('k'),
        family('h'),
        family('c'),
        family('q'),
        family('u'),
        family('p'),
      ],
      design: `
私信: each conversation between two people in ONE row (its state and its messages together, so
one check-and-put changes both), and each user's index of conversations by latest activity.
The invariants: docs/consistency.md U. Two kinds of rows:
conversation = salt2(low|high) + '!' + low + 0x00 + high         (one row per pair of people)
  s:state  the conversation's state, JSON (domain/messages.ts ConversationState): a version
        that every change moves, the head (last seq), who sent and read how much, the status
        (open / request / declined), each side's "deleted up to", the last message's preview.
        THE check cell of every change: a change is computed from the state as read and written
        only while the cell still holds exactly those bytes (absent: no conversation yet)
  m:<999999999999 − seq>  a message, JSON (text, pictures, time, client id, the two sides'
        sent counts); seq inverted (12 digits) so a row's newest messages come first. Seqs are
        dense (1, 2, 3 …): the head names exactly which messages exist. A recall or an erasure
        rewrites the cell with no text or pictures
  k:<sender> 0x00 <client id>  the seq that send made: a retried send finds its message
  h:<reader> 0x00 <999999999999 − seq>  '' — the reader deleted that message for themselves
index        = userKey(owner) + 'i'                                   (one row per user)
  c:<9999999999999 − activity millis><peer> 0x00 <seq, 12 digits>  '' — the conversation with
        peer is in owner's main list at that activity, put there by the message <seq> (or an
        accept at that head). Shown only while the conversation's head is that seq and owner's
        box is main: an entry a later change replaced is skipped at read, then removed
  q:…   the same for the requests tab (a request owner received)
  u:<peer>  '<unread>/<request 0|1>' — owner's counts as the conversation's version <v> left
        them, written WITH CELL TIMESTAMP v: of two writes the later version stays whatever
        order they land in (a put of an older timestamp under a newer cell is not the newest).
        Counts of 0/0 are a DELETE of the column up to timestamp v instead, which masks every
        older write, late ones too: the family holds only conversations with something to show
  p:<peer>  '' — owner takes part in a conversation with peer (deleted for themselves or not):
        written by the same put as every write-ahead entry, and before the first commit of a row
        (a block's fence makes one with no entry). What finds every conversation of a user
send     : GET s:state, k:<sender,client id> of the conversation ∥ the recipient's users row
           (standing, setting) ∥ the block check either way ∥ whether the recipient follows the
           sender (relations) — one round trip; then PUT both sides' index entries for the new
           head with both p:<peer> marks (write-ahead: an entry before the state that makes it
           true); then
           PUT ?check=put s:state, m:<seq>, k:<sender,client id>, check s:state == as read
           (a loser reads again and decides again); then PUT u:<peer> of both sides at
           timestamp v ∥ DELETE the entries the previous head had put
page     : GET the conversation row with the filter s ∪ (m, newest first from the cursor,
           ColumnPaginationFilter(limit)) ∪ (h:<reader>…, the same window) — ONE get
list     : GET the index row's c (or q) family from the cursor, ColumnPaginationFilter(limit+1)
           (one get); then ONE multi-get of the conversations' s:state
badge    : GET the index row's u family                                       (one get)
read, recall, accept, decline, delete for me: GET s:state (+ m:<seq>), then the check-and-put
           of s:state (+ m:<seq>), then the side counts at the new version
hide     : GET s:state, then PUT ?check=put s:state (the bytes read, unchanged) + h:<reader>,<seq>,
           check s:state == as read: never lands in a conversation the erasure removed
fence    : (a block) GET s:state, PUT ?check=put s:state with a new version: a send that read
           before the block writes nothing (it reads again and finds the block)
peers    : (the erasure, the export) GET the index row's p family with ColumnRangeFilter(after, …)
           AND ColumnPaginationFilter(limit)                                     (one get)
remove   : (the erasure: a conversation goes for BOTH sides, since its row is keyed by the two
           handles and the handle is released) GET s:state ∥ each side's c/q entries naming the
           other (QualifierFilter regex ^<13 digits><peer>0x00: the state's entry and any a lost
           race left) — then DELETE those entries ∥ DELETE u:<peer> of both up to timestamp v
           (the version read; a late count of an earlier change is masked too. A conversation
           the two start again begins at the time of its first change as its version, past
           every version of the removed one, so its counts are never masked) — then
           DELETE ?check s:state == as read, families s m k h (a change in between: again from
           the GET) — then DELETE p:<peer> of both, last: a removal cut anywhere is found again`,
    },
    media: {
      name: 'media',
      families: [family('m')],
      design: `
Uploads and what became of them: one row per media id (pictures of posts, avatars, covers,
private messages). The bytes are never here: the original is the object uploads/<id>, the
variants media/<id>/<name>.webp (a message picture's private/<id>/<name>.webp, read only through
a presigned GET) (shared/ports/media-objects.ts); this row says whose it is and how far it got.
row   = media id (16 random bytes: unguessable, and spread over regions without a salt)
m:o   owner handle            m:p  purpose (post | avatar | cover | message)   m:c  created-at
m:t   declared content type   m:n  declared size in bytes (the presigned upload signs both)
m:s   state: uploading → processing → ready | failed — THE check cell of every move
m:r   the reason of a failure (a refusal code)
m:d   what processing found, written with the move to ready: JSON {width, height, animated,
      placeholder, variants: [{name, width, height}]}
m:a   who holds it: '-' free (written by create), the post id it is in (a picture is in one
      post at most; docs/consistency.md L), '@<handle>' an avatar, 'dm:<conversation id>:
      <sender>:<clientId>' the private message it was sent in (kept by the cleanup job and the
      discard worker whatever its age; a recall or an erasure marks it '!discard' while it still
      holds this claim), '!discard' being discarded.
      Never absent on a live record: every claim checks a value that exists, because a check
      on an absent cell also passes on a missing row and would write a removed record back
m:w   when m:a was last written: the claim's time (a retry's claim rewrites it), or the mark's
create   : PUT ?check=put m:o,p,c,t,n,s=uploading + m:a=-, check m:o absent     (one request)
           (a fresh random id races nothing; an id an Idempotency-Key claimed is made by at most
           one of the requests carrying that key, and never reset to uploading by a late one)
read     : GET /media/<id>/m                                                         (one get)
complete : PUT ?check=put m:s=processing, check m:s == uploading   (racing completes, and the
           worker's own move, leave exactly one winner; a loser reads the state)
finish   : PUT ?check=put m:s=ready + m:d, check m:s == processing                  (one each)
fail     : PUT ?check=put m:s=failed + m:r, check m:s == uploading | processing
publish  : GET /media/multiget?row=… (the post's pictures, beside its other first reads), then
           PUT ?check=put m:a=<post id> + m:w=now, check m:a == '-', one per picture in
           parallel (a retry of the same post: then check m:a == <post id>, a second round trip);
           a loser PUT ?check=put m:a='-', check m:a == <post id> for those it claimed
discard  : (the media worker) GET the record, the claiming post's lookup, then
           PUT ?check=put m:a='!discard' + m:w=now, check m:a == '-' (never claimed) or
           m:w == <the claim time read> (claimed; a claim since the read wins), then DELETE
           every object (uploads/<id>, media/<id>/<variant>.webp), THEN DELETE /media/<id> (the
           row). Kept, nothing written, while the picture is in a live post (docs/consistency.md L)
cleanup  : (the media-cleanup job, every 6 h) the ONE walk of the table: a scan from the start
           row (or the position the last step handed on) to ff×17 (above every 16-byte key),
           family m, at most JOB_ROWS_PER_STEP rows a step (fetched 100 a round trip), then one
           multi-get of the content rows of the claiming posts and a get of each claim whose post
           is not live (few: a deleted post's lost discard, a publish in flight). Bounded per
           step by the row limit; a run by JOB_MAX_STEPS and 5.5 h; the table holds one row per
           picture not yet discarded, so it shrinks with every run
Interleavings (the invariant: a record is ready only once every variant object exists, and a
ready or failed record never moves again):
 * the worker writes every variant object BEFORE its move to ready, so a reader who sees ready
   finds the objects; a worker that dies in between leaves processing, and the redelivered
   message writes the same objects (same keys) again and moves it.
 * two workers on one message (at-least-once delivery): both write the same objects; one
   finish wins, the other's check fails and it leaves the record as the winner left it.
 * the completion call queues the message BEFORE its move uploading → processing; if it dies
   in between, the worker makes that move itself (it processes uploading or processing alike),
   so no record is left in processing without a message on its way.
 * a discard marks the record before it deletes anything, conditional on the claim it read: a
   claim that lands first makes the mark fail (decided again: kept), a claim after the mark
   finds m:a neither '-' nor its post and loses (409). Objects go before the row: a worker
   that dies in between leaves a marked row (read as gone), which a redelivery or the job
   finishes; never an object without a row.`,
    },
  }) satisfies Record<string, TableDefinition>)();

export type TableName = keyof typeof TABLES;

/**
 * How a table's row keys start, and so where its regions are split when it is created with
 * more than one (REGIONS_PER_TABLE, the stage param regionsPerTable; infra/schema/apply-schema.ts
 * pre-splits, infra/schema/shell-script.ts prints the `create … SPLITS => […]` equivalent):
 *  salt   — userKey's 2-byte MD5 salt (or a postKey, which starts with one): 2-byte points.
 *  hex    — text keys starting with hex4(md5(…)) (comments, lists): points "1000", "2000", …
 *  random — 16 random bytes (session ids): 1-byte points.
 *  shard  — trends: keys start with a shard byte (0 … TREND_SHARDS − 1): one region per shard
 *           at most, so the current five minutes' increments spread over every region.
 *  salt+hex — notifications mixes two key shapes: group / member / marker rows start with the
 *           binary salt, the list's entry rows with a hex4 text salt (first byte '0'–'9' or
 *           'a'–'f'). Split on the binary salt alone, the entries fell into the regions that
 *           cover 0x30–0x39 and 0x61–0x66 (2 of 16). The points are the union of both schemes,
 *           each for about half the regions: the entries spread over half the regions, the
 *           binary rows over the rest (and, cut finer, over those too). Chosen over a table of
 *           its own for the entries: the list's read and the group rows stay one table's
 *           requests, and nothing else about the table changes.
 *  term   — people: keys start with a name's first character (unsalted: prefix search).
 *  none   — meta: a few rows, one region whatever the stage asks.
 */
export type SplitScheme = 'salt' | 'hex' | 'random' | 'shard' | 'salt+hex' | 'term' | 'none';

export const SPLITS = {
  users: 'salt',
  content: 'salt',
  relations: 'salt',
  inbox: 'salt',
  outbox: 'salt',
  idempotency: 'salt',
  throttle: 'salt',
  sessions: 'random',
  reactions: 'salt',
  reactors: 'salt',
  comments: 'hex',
  quota: 'salt',
  notifications: 'salt+hex',
  topics: 'salt',
  search: 'hex',
  people: 'term',
  trends: 'shard',
  hot: 'shard',
  blocks: 'salt',
  lists: 'hex',
  media: 'random',
  live: 'salt',
  meta: 'none',
  messages: 'salt',
  groups: 'salt',
} as const satisfies Record<TableName, SplitScheme>;

/** The split keys of `table` created with `regions` regions (empty: one region; trends: at most TREND_SHARDS regions). */
export function splitPoints(table: TableName, regions: number): Uint8Array[] {
  const scheme: SplitScheme = SPLITS[table];
  switch (scheme) {
    case 'salt':
      return saltSplitPoints(regions);
    case 'hex':
      return hexSaltSplitPoints(regions);
    case 'random':
      return firstByteSplitPoints(regions);
    case 'shard':
      return trendShardSplitPoints(regions);
    case 'salt+hex':
      return saltAndHexSplitPoints(regions);
    case 'term':
      return termSplitPoints(regions);
    case 'none':
      return [];
  }
}

/**
 * `ns:table` as the REST gateway addresses it. Every table is named by its key in TABLES
 * (test/unit/table-names.test.ts holds it so); reading the name from TABLES instead would keep every
 * table definition in each function's bundle.
 */
export function qualifiedTableName(namespace: string, table: TableName): string {
  return `${namespace}:${table}`;
}
