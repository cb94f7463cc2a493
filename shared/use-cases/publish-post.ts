// shared/use-cases/publish-post.ts — publish a post as the token's user.
// Steps: with an idempotency key, claim it for a fresh post id and a fingerprint of the body →
// create the post row (put-if-absent: exactly one request ever creates a given id) → only the
// creator counts it → own inbox (visible at once) and outbox (celebrity read-time merge) →
// queue the fan-out. Mentions and topics are parsed here, once (entities.ts); the fan-out worker
// sends the mention and repost notifications, the topic index is written beside the inbox.
// Pictures (up to nine) are checked (one multi-get: beside the mentions' read, after the key's
// claim when there is a key), then claimed for the post id BEFORE the post row is created
// (media/attach.ts): a post never shows a picture another post holds. A
// publish that stops between the two leaves its pictures claimed by an id that has no post; a
// retry with the same Idempotency-Key finishes it (invariant L).
//
// Idempotency keys follow Stripe's semantics: a retry answers the outcome of the first request.
// The same key with another body is a client mistake (422 idempotency_key_mismatch). A retry
// after the post was deleted answers 410 post_deleted and creates nothing: the deleted post's
// tombstone keeps its id taken for good, so neither this retry nor any later one can bring it
// back (invariant B in docs/consistency.md).
import { createHash } from 'node:crypto';
import { ConflictError, GoneError, InvalidInputError } from '../domain/errors.js';
import { authorOfPostId, isPostId, newPostId, type Post } from '../domain/post.js';
import type { FeedDeps } from './feed-deps.js';
import { mentionedHandles, topicNames } from '../domain/text-entities.js';
import { trendBucketOf } from '../domain/trending.js';
import { indexTerms } from '../domain/post-search.js';
import { entitiesOf, type BodyEntities } from './entities.js';
import { faceOf, readFaces, type Face } from './faces.js';
import { atStep } from './steps.js';
import { countedFact, notifyLater } from './notifications.js';
import { attachPictures, checkPictures, postMediaOf, releasePictures, type PictureRequest } from './media/attach.js';

/** Creating a post under a claimed id, or answering the one there (a repost's path too). */
export type CreateOrReplayDeps = Pick<
  FeedDeps,
  'posts' | 'inbox' | 'counters' | 'outbox' | 'reactions' | 'topics' | 'search' | 'queue' | 'limits' | 'step'
>;
/** Publishing: what creating the post takes, and the idempotency keys, the users (mentions, the author's face), the pictures. */
export type PublishDeps = CreateOrReplayDeps & Pick<FeedDeps, 'users' | 'idempotency' | 'pictures'>;
/** Finishing what a cut request may have left of a post it created. */
export type FinishCreatedDeps = Pick<FeedDeps, 'inbox' | 'outbox' | 'reactions' | 'queue'>;

const MAX_ID_ATTEMPTS = 3;

export interface PublishResult {
  post: Post;
  /** true when an earlier request with the same idempotency key already published it. */
  replayed: boolean;
}

/** What makes two requests "the same request" for an idempotency key: what they publish. */
function fingerprintOf(body: string, repostOf?: string, media: readonly PictureRequest[] = []): string {
  const hash = createHash('sha256').update(repostOf === undefined ? body : `${repostOf}\n${body}`, 'utf8');
  // Without pictures the fingerprint is what it always was (keys claimed before pictures existed still match).
  if (media.length > 0) hash.update(`\n${JSON.stringify(media.map((m) => [m.id, m.alt ?? '']))}`, 'utf8');
  return hash.digest('base64url');
}

type PublishInput = { body: string; idempotencyKey?: string; repostOf?: string; media?: readonly PictureRequest[] };

/** Publishes, and answers the author's face with the post: read beside the first stage, no round trip of its own. */
export async function publishPost(
  deps: PublishDeps,
  author: string,
  input: PublishInput,
  now = Date.now(),
): Promise<PublishResult & { face: Face }> {
  const face = readFaces(deps, [author]).then((faces) => faceOf(faces, author));
  face.catch(() => {}); // awaited below; a publish that fails first must not leave it unhandled
  const result = await publish(deps, author, input, now);
  return { ...result, face: await face };
}

async function publish(deps: PublishDeps, author: string, input: PublishInput, now: number): Promise<PublishResult> {
  const repost = input.repostOf === undefined ? {} : { repostOf: input.repostOf };
  const wanted = input.media ?? [];
  const fresh = (entities: BodyEntities): Post => ({
    id: newPostId(author, now),
    author,
    body: input.body,
    createdAt: now,
    ...repost,
    ...entities,
  });
  const withMedia = (post: Post, records: Awaited<ReturnType<typeof checkPictures>>): Post =>
    records.length ? { ...post, media: postMediaOf(deps.pictures, records, wanted) } : post;

  if (input.idempotencyKey) {
    const candidate = fresh({});
    const fingerprint = fingerprintOf(input.body, input.repostOf, wanted);
    // The mentions are checked in the same round trip as the key's claim.
    const [earlier, entities] = await Promise.all([
      deps.idempotency.claim(author, input.idempotencyKey, { id: candidate.id, fingerprint }),
      entitiesOf(deps, input.body, { topics: true }),
    ]);
    if (earlier) {
      // A key names one request: another body, or a key a comment or an upload claimed, is a mismatch.
      if (
        (earlier.fingerprint !== undefined && earlier.fingerprint !== fingerprint) ||
        !isPostId(earlier.id) ||
        authorOfPostId(earlier.id) !== author
      ) {
        throw new InvalidInputError(
          'This Idempotency-Key was used with a different request body',
          'idempotency_key_mismatch',
        );
      }
      // A retry: its pictures may already be claimed by this very post (forPost).
      const records = await checkPictures(deps.pictures, author, wanted, earlier.id);
      await attachPictures(deps.pictures, records, earlier.id, now);
      const post = {
        id: earlier.id,
        author,
        body: input.body,
        createdAt: createdAtOf(earlier.id),
        ...repost,
        ...entities,
      };
      return createOrReplay(deps, withMedia(post, records), input.idempotencyKey, now);
    }
    await atStep(deps, 'publish.claimed', { author, postId: candidate.id });
    const records = await checkPictures(deps.pictures, author, wanted);
    await attachPictures(deps.pictures, records, candidate.id, now);
    await atStep(deps, 'publish.pictures-attached', { author, postId: candidate.id });
    return createOrReplay(deps, withMedia({ ...candidate, ...entities }, records), input.idempotencyKey, now);
  }

  const [entities, records] = await Promise.all([
    entitiesOf(deps, input.body, { topics: true }),
    checkPictures(deps.pictures, author, wanted),
  ]);
  for (let attempt = 0; attempt < MAX_ID_ATTEMPTS; attempt++) {
    const post = withMedia(fresh(entities), records);
    await attachPictures(deps.pictures, records, post.id, now);
    await atStep(deps, 'publish.pictures-attached', { author, postId: post.id });
    if (await createPost(deps, post, now)) return { post: await afterCreate(deps, post), replayed: false };
    // Another post drew this id (same author, millisecond and random suffix): ours was not created.
    await releasePictures(deps.pictures, records, post.id);
  }
  throw new ConflictError('Could not allocate a post id; retry', 'publish_conflict');
}

const createdAtOf = (postId: string) => Number(postId.split('.')[1]);

/**
 * The post under a claimed id: create it if no request has yet (the first one may have died
 * before writing it, or is writing it right now — put-if-absent lets exactly one of them win),
 * otherwise answer what is there: the live post, or 410 for a deleted one.
 */
export async function createOrReplay(
  deps: CreateOrReplayDeps,
  post: Post,
  idempotencyKey?: string,
  now = Date.now(),
): Promise<PublishResult> {
  if (await createPost(deps, post, now, idempotencyKey))
    return { post: await afterCreate(deps, post), replayed: false };
  const found = await deps.posts.lookup(post.id);
  if (found.state === 'deleted')
    throw new GoneError('The post this Idempotency-Key created has been deleted', 'post_deleted');
  if (found.state === 'absent')
    throw new ConflictError('A request with this idempotency key is in progress', 'idempotency_in_progress');
  return { post: await finishCreated(deps, found.post), replayed: true };
}

/**
 * A retry's answer for a post an earlier request created: finishes what that request may not
 * have done, since it may have been cut right after the row (each step is idempotent). Nothing
 * is counted again: only the creator counts (and the delayed notify makes good a cut count).
 */
export async function finishCreated(deps: FinishCreatedDeps, post: Post): Promise<Post> {
  await Promise.all([
    deps.inbox.add([post.author], post),
    deps.outbox.add(post.author, post),
    ...(post.repostOf ? [deps.reactions.addRepost(post.author, post.repostOf, post.id, post.createdAt)] : []),
    deps.queue.send({ v: 1, type: 'fanout', postId: post.id }),
  ]);
  return post;
}

/**
 * The post row, put-if-absent. First the delayed notify of its fact (a repost's, or the post's
 * own), which tallies its author's posts count and a repost's count on its original (invariant
 * M): a request cut between this row and those counts is made good a settle window later.
 * The mentions' index entries go before the row too
 * (R: a post never links a user without the entry the erasure of that user unlinks it by), and
 * so do its search entries (V: a post is never readable without them).
 */
async function createPost(
  deps: Pick<FeedDeps, 'posts' | 'search' | 'queue' | 'limits' | 'step'>,
  post: Post,
  now: number,
  idempotencyKey?: string,
): Promise<boolean> {
  await Promise.all([
    notifyLater(deps, countedFact(post), { at: now, removal: false }),
    post.mentions?.length
      ? deps.posts.listMentions({ postId: post.id }, mentionedHandles(post.mentions), post.createdAt)
      : undefined,
    deps.search.add(post.id, indexTerms(post)),
  ]);
  await atStep(deps, 'publish.indexed', { author: post.author, postId: post.id });
  return deps.posts.create(post, idempotencyKey);
}

/** Only the request whose create won runs this: every count moves exactly once. */
async function afterCreate(
  deps: Pick<FeedDeps, 'posts' | 'inbox' | 'counters' | 'outbox' | 'reactions' | 'topics' | 'queue' | 'step'>,
  post: Post,
): Promise<Post> {
  await atStep(deps, 'publish.created', { author: post.author, postId: post.id });
  await Promise.all([
    deps.counters.add(post.author, 'posts', 1, post.id),
    deps.inbox.add([post.author], post),
    deps.outbox.add(post.author, post), // what celebrity followers merge at read time
    // A repost (转发): counted on its original, and the reposter's `reposted` state set.
    ...(post.repostOf
      ? [
          deps.posts.count(post.repostOf, 'reposts', 1, post.id),
          deps.reactions.addRepost(post.author, post.repostOf, post.id, post.createdAt),
        ]
      : []),
    // Topic pages and trending (only the creator: the trend counts are increments).
    ...(post.topics?.length
      ? [deps.topics.add(post.id, post.createdAt, topicNames(post.topics), trendBucketOf(post.createdAt))]
      : []),
  ]);
  await deps.queue.send({ v: 1, type: 'fanout', postId: post.id });
  return post;
}
