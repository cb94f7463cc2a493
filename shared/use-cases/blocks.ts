// shared/use-cases/blocks.ts — block (拉黑) and mute (屏蔽).
// Block: the blocked user cannot follow you, see your posts, comment on, like or repost them, or
// notify you; existing follows in both directions are removed; neither sees the other's posts in
// timelines or topic pages (filtered at read, so it holds from the moment of the block, also
// for posts fanned out before it). Mute: you stop seeing their posts and notifications; they
// notice nothing (nothing is refused to them, no follow is touched).
//
// Block vs a racing follow (invariant G in docs/consistency.md): a follow writes its
// edge and THEN checks for a block (removing its own edge if it finds one); a block writes the
// block row and THEN removes the edges. Per-row operations are linearizable, so whichever of the
// two writes lands first, the other operation's later read sees it: no edge survives a block.
// Block vs a racing private message (invariant U3): after its row, a block fences the two's
// conversation (a new version), so a send that read before the block fails its commit, reads
// again and meets the block.
import { InvalidInputError } from '../domain/errors.js';
import type { Page } from '../ports/feed-store.js';
import type { BlockEdge, BlockKind } from '../ports/social-store.js';
import { decodeListCursor, shownPage } from './lists.js';
import type { FeedDeps } from './feed-deps.js';
import { readFaces, withFaces, type Face } from './faces.js';
import { unfollow, type UnfollowDeps } from './relations.js';
import { fenceConversation, type ChangeDeps } from './messages.js';
import { requireUser } from './users.js';

/** What unblock, mute, unmute and blockState take: the target's existence and the block rows. */
export type BlockStateDeps = Pick<FeedDeps, 'users' | 'blocks'>;
/** A block also removes the follows both ways (unfollow's ports) and fences the two's conversation. */
export type BlockDeps = BlockStateDeps & UnfollowDeps & Partial<ChangeDeps>;

function notSelf(actor: string, target: string, kind: BlockKind): void {
  if (actor === target) throw new InvalidInputError(`You cannot ${kind} yourself`, `cannot_${kind}_self`);
}

/** Idempotent. The block row first, then both follows go (unfollow: counters, settle, inbox purge). */
/**
 * A change's answer: the state it set as this request left it (as a follow answers
 * `following: true`, whatever a racing request does next), and the other kind as read beside the
 * target's existence check, in the same round trip (no read after the change).
 */
export interface BlockState {
  handle: string;
  target: string;
  blocking: boolean;
  muting: boolean;
}

/** The target exists (404), and the other kind's state, side by side. */
async function targetAndOther(deps: BlockStateDeps, actor: string, target: string, other: BlockKind): Promise<boolean> {
  const [, has] = await Promise.all([requireUser(deps.users, target), deps.blocks.has(other, actor, target)]);
  return has;
}

export async function block(deps: BlockDeps, actor: string, target: string, now = Date.now()): Promise<BlockState> {
  notSelf(actor, target, 'block');
  const muting = await targetAndOther(deps, actor, target, 'mute');
  await deps.blocks.add('block', actor, target, now);
  const { messages } = deps;
  await Promise.all([
    unfollow(deps, actor, target, now),
    unfollow(deps, target, actor, now),
    messages ? fenceConversation({ ...deps, messages }, actor, target, now) : undefined,
  ]);
  return { handle: actor, target, blocking: true, muting };
}

export async function unblock(deps: BlockStateDeps, actor: string, target: string): Promise<BlockState> {
  notSelf(actor, target, 'block');
  const muting = await targetAndOther(deps, actor, target, 'mute');
  await deps.blocks.remove('block', actor, target);
  return { handle: actor, target, blocking: false, muting };
}

export async function mute(deps: BlockStateDeps, actor: string, target: string, now = Date.now()): Promise<BlockState> {
  notSelf(actor, target, 'mute');
  const blocking = await targetAndOther(deps, actor, target, 'block');
  await deps.blocks.add('mute', actor, target, now);
  return { handle: actor, target, blocking, muting: true };
}

export async function unmute(deps: BlockStateDeps, actor: string, target: string): Promise<BlockState> {
  notSelf(actor, target, 'mute');
  const blocking = await targetAndOther(deps, actor, target, 'block');
  await deps.blocks.remove('mute', actor, target);
  return { handle: actor, target, blocking, muting: false };
}

/** Whether `actor` blocks / mutes `target` (for a profile's buttons). One get each, in parallel. */
export async function blockState(deps: BlockStateDeps, actor: string, target: string): Promise<BlockState> {
  const [, blocking, muting] = await Promise.all([
    requireUser(deps.users, target),
    deps.blocks.has('block', actor, target),
    deps.blocks.has('mute', actor, target),
  ]);
  return { handle: actor, target, blocking, muting };
}

/**
 * Whom `actor` blocks (or mutes), newest first: a page of the list index, then the page's edges
 * in one multi-get — an entry shows only while its edge holds its since (lists.ts).
 */
export async function listBlocked(
  deps: Pick<FeedDeps, 'users' | 'blocks' | 'pictures'>,
  actor: string,
  kind: BlockKind,
  limit: number,
  cursor?: string,
): Promise<Page<BlockEdge & { face: Face }>> {
  const after = decodeListCursor(cursor);
  const page = await deps.blocks.list(kind, actor, limit, after);
  const handles = page.items.map((e) => e.handle);
  const [sinces, faces] = await Promise.all([deps.blocks.sinces(kind, actor, handles), readFaces(deps, handles)]);
  const shown = shownPage(
    page,
    page.items.map((e) => sinces.get(e.handle)),
  );
  return { ...shown, items: withFaces(shown.items, faces) };
}
