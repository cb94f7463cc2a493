// test/support/model/driver.ts — runs the plan's waves against the HTTP API and updates the
// reference model from what the responses say happened. An answer that contradicts the
// specified behaviour is a mismatch, and the model keeps to the specification (a deleted post
// stays deleted even when a retry "recreates" it). A request that got no answer is sent again
// when it is idempotent (follow, unfollow, delete, a publish with a key, like, unlike, a plain
// repost, a keyed repost, a comment delete); a publish or a repost with a comment and without
// a key cannot be, so its lost answer ends the seed (ModelLost): the model could not be exact.
// A comment cannot be either, but it is found again by its unique body once the seed settled:
// the model keeps it as 'unknown' meanwhile (and later steps on it are skipped).
// Blocks and mutes: a block answers 200 and removes the follows both ways; a follow racing it
// may answer 200 or 403 `blocked`, and no edge survives either way; a follow, like, comment or
// repost across a standing block is 403 `blocked`. Every block / mute request, and every like
// and publish (the facts notifications are made of), is timed for the model's notification
// check (reference-model.ts, `exactAround`).
// Groups (分组): each user makes their groups in the first wave; adds answer 200 for someone the
// user follows and 422 not_following otherwise (either when racing an unfollow of the two),
// removes 200; the model keeps the members the answers left (an unfollow or block empties the
// pair's memberships).
import { COMMENT_ID_PATTERN } from '../../../shared/domain/comment.js';
import { POST_ID_PATTERN } from '../../../shared/domain/post.js';
import type { ApiResponse } from '../api.js';
import {
  callSafely,
  describeAnswer as describe,
  errorCode,
  isNoAnswer,
  isSuccess,
  read,
  sendUntilAnswered,
  type Api,
} from './http.js';
import type { Group, Pair, Plan, Step } from './plan.js';
import {
  chainBody,
  commentSubject,
  pairSubject,
  slotSubject,
  type ModelComment,
  type ModelPost,
  type ReferenceModel,
} from './reference-model.js';

export interface Actor {
  handle: string;
  /** Replaced by the restoring login's after a leave (the old one would outlive it by minutes only). */
  token: string;
  password: string;
}

export class ModelLost extends Error {}

interface Ctx {
  wave: number;
  label: string;
  /** Two or more requests of the group ran at once. */
  racing: boolean;
  deletes: Map<number, DeleteOutcome>;
  /** The same for a wave's deletes of one comment. */
  commentDeletes: Map<number, DeleteOutcome>;
  /** A wave's plain reposts of one original by one user (`user>original id`): one post, one 201 at most. */
  plainReposts: Map<string, RepostOutcome>;
}

interface RepostOutcome {
  label: string;
  what: string;
  /** The user's plain repost of that original was live before: every answer is 200 with it. */
  existedBefore: boolean;
  statuses: number[];
  resent: boolean;
}

/** A wave's deletes of one post are judged together: racing deletes answer in any order. */
interface DeleteOutcome {
  label: string;
  liveBefore: boolean;
  statuses: number[];
  /** A delete was sent again: the unanswered send may have been the one that deleted it. */
  resent: boolean;
}

export class Driver {
  readonly mismatches: string[] = [];

  constructor(
    private readonly api: Api,
    private readonly plan: Plan,
    private readonly users: readonly Actor[],
    private readonly model: ReferenceModel,
  ) {}

  async runWave(wave: number, groups: Group[]): Promise<void> {
    const deletes = new Map<number, DeleteOutcome>();
    const commentDeletes = new Map<number, DeleteOutcome>();
    const plainReposts = new Map<string, RepostOutcome>();
    const ctx = (g: Group, label = g.label): Ctx => ({
      wave,
      label,
      racing: g.tasks.length > 1,
      deletes,
      commentDeletes,
      plainReposts,
    });
    await settleAll(groups.flatMap((g) => g.tasks.map((task) => this.runTask(task, ctx(g)))));
    this.judgeDeletes(wave, deletes);
    this.judgeDeletes(wave, commentDeletes, 'comment c', (c) => ` ${this.model.history(commentSubject(c))}`);
    this.judgePlainReposts(wave, plainReposts);
    await settleAll(groups.flatMap((g) => (g.decider ? [this.runStep(g.decider, ctx(g, `${g.label} decider`))] : [])));
  }

  private async runTask(task: Step[], ctx: Ctx): Promise<void> {
    for (const step of task) await this.runStep(step, ctx);
  }

  private runStep(step: Step, ctx: Ctx): Promise<void> {
    switch (step.kind) {
      case 'publish':
        return this.publish(step.slot, ctx);
      case 'retry':
        return this.retry(step.slot, ctx);
      case 'reuseKey':
        return this.reuseKey(step.slot, ctx);
      case 'delete':
        return this.delete(step.slot, ctx);
      case 'edit':
        return this.edit(step.slot, step.from, step.racing, ctx);
      case 'follow':
      case 'unfollow':
        return this.edge(step.kind, step.pair, ctx);
      case 'like':
      case 'unlike':
        return this.like(step.kind, step.user, step.slot, ctx);
      case 'bookmark':
      case 'unbookmark':
        return this.bookmark(step.kind, step.user, step.slot, ctx);
      case 'comment':
        return this.comment(step.comment, ctx);
      case 'deleteComment':
        return this.deleteComment(step.user, step.comment, ctx);
      case 'repost':
        return this.repost(step, ctx);
      case 'block':
      case 'unblock':
      case 'mute':
      case 'unmute':
        return this.silence(step.kind, step.pair, ctx);
      case 'followRacingBlock':
        return this.followRacingBlock(step.pair, ctx);
      case 'refused':
        return this.refused(step, ctx);
      case 'leave':
        return this.leave(step.user, ctx);
      case 'restore':
        return this.restore(step.user, ctx);
      case 'createGroup':
        return this.createGroup(step.user, step.group, ctx);
      case 'groupAdd':
        return this.groupAdd(step, ctx);
      case 'groupRemove':
        return this.groupRemove(step, ctx);
    }
  }

  // --- groups (分组) ----------------------------------------------------------------------------

  /**
   * 201 with the new group. Sent again after no answer: a 409 group_name_taken then says the
   * unanswered send made it, found in the owner's list by its name.
   */
  private async createGroup(userIndex: number, index: number, ctx: Ctx): Promise<void> {
    const user = this.users[userIndex]!;
    const name = `分组 ${index}`;
    const subject = `groups of ${user.handle}`;
    const what = `create group ${index} of ${user.handle}`;
    const { res, resent } = await this.sendIdempotent(ctx, subject, what, () =>
      this.call('POST', `/users/${user.handle}/groups`, user.token, { name }),
    );
    this.model.note(subject, `w${ctx.wave} ${ctx.label}: ${what} ${describe(res)}`);
    const made = res.json;
    if (res.status === 201 && made?.name === name && made?.special === false && made?.members === 0)
      return this.model.groupCreated(user.handle, index, String(made.id));
    if (resent && res.status === 409 && errorCode(res) === 'group_name_taken') {
      const list = await read(this.api, `/users/${user.handle}/groups`, { token: user.token });
      const found = (list.json?.groups as { id: string; name: string }[] | undefined)?.find((g) => g.name === name);
      if (found) return this.model.groupCreated(user.handle, index, found.id);
    }
    this.clientError(res, ctx, what, `201 with the group "${name}"`);
  }

  /**
   * 200 with the group and hasMember: true when the user follows the member, else 422
   * not_following and nothing changes. Racing an unfollow of the two: either, and the model
   * leaves the membership to the unfollow (it takes the member out of every group). Idempotent:
   * sent again after no answer.
   */
  private async groupAdd(step: Extract<Step, { kind: 'groupAdd' }>, ctx: Ctx): Promise<void> {
    const [owner, member] = [this.users[step.user]!, this.users[step.member]!];
    const subject = pairSubject(owner.handle, member.handle);
    const what = `add of ${member.handle} to group ${step.group} of ${owner.handle}`;
    const groupId = this.model.groupId(owner.handle, step.group);
    if (!groupId) return this.model.note(subject, `w${ctx.wave} ${ctx.label}: ${what} skipped (no such group made)`);
    const following = this.model.follows(owner.handle, member.handle);
    const { res } = await this.sendIdempotent(ctx, subject, what, () =>
      this.call('PUT', `/users/${owner.handle}/groups/${groupId}/members/${member.handle}`, owner.token),
    );
    this.model.note(subject, `w${ctx.wave} ${ctx.label}: group add (${groupId}) ${describe(res)}`, ctx.racing);
    const added = res.status === 200 && res.json?.id === groupId && res.json?.hasMember === true;
    const refused = res.status === 422 && errorCode(res) === 'not_following';
    if (step.racing) {
      if (added || refused) return;
      return this.clientError(res, ctx, what, '200 with hasMember: true, or 422 not_following');
    }
    if (following) {
      if (added) return this.model.setMember(owner.handle, groupId, member.handle, true);
      return this.clientError(res, ctx, what, '200 with hasMember: true');
    }
    if (refused) return;
    if (added)
      return this.mismatch(
        ctx,
        `${what} answered 200 although ${owner.handle} does not follow ${member.handle}, expected 422 not_following ${this.model.history(subject)}`,
      );
    this.clientError(res, ctx, what, '422 not_following');
  }

  /** 200 with the group and hasMember: false, whether or not it held them. Idempotent. */
  private async groupRemove(step: Extract<Step, { kind: 'groupRemove' }>, ctx: Ctx): Promise<void> {
    const [owner, member] = [this.users[step.user]!, this.users[step.member]!];
    const subject = pairSubject(owner.handle, member.handle);
    const what = `removal of ${member.handle} from group ${step.group} of ${owner.handle}`;
    const groupId = this.model.groupId(owner.handle, step.group);
    if (!groupId) return this.model.note(subject, `w${ctx.wave} ${ctx.label}: ${what} skipped (no such group made)`);
    const { res } = await this.sendIdempotent(ctx, subject, what, () =>
      this.call('DELETE', `/users/${owner.handle}/groups/${groupId}/members/${member.handle}`, owner.token),
    );
    this.model.note(subject, `w${ctx.wave} ${ctx.label}: group remove (${groupId}) ${describe(res)}`, ctx.racing);
    if (res.status === 200 && res.json?.id === groupId && res.json?.hasMember === false)
      return this.model.setMember(owner.handle, groupId, member.handle, false);
    this.clientError(res, ctx, what, '200 with hasMember: false');
  }

  // --- leaving (注销) --------------------------------------------------------------------------

  /**
   * 200 with the dates (30 days apart); from the answer on the profile is 404, and so is every
   * live post of the user (asked anonymously: no block between two users decides it). Nothing of the model changes: a restore follows.
   */
  private async leave(userIndex: number, ctx: Ctx): Promise<void> {
    const user = this.users[userIndex]!;
    const what = `leave of ${user.handle}`;
    const { res } = await this.sendIdempotent(ctx, `user ${user.handle}`, what, () =>
      this.call('DELETE', `/users/${user.handle}`, user.token, { password: user.password }),
    );
    if (res.status !== 200) return this.clientError(res, ctx, what, '200');
    if (Date.parse(res.json.erasableFrom) - Date.parse(res.json.deactivatedAt) !== 30 * 86_400_000)
      this.mismatch(ctx, `${what}: answered ${res.text}, expected dates 30 days apart`);
    const profile = await this.call('GET', `/users/${user.handle}`, '');
    if (profile.status !== 404)
      this.mismatch(ctx, `${what}: the profile answered ${describe(profile)} after the leave, expected 404`);
    const own = this.plan.slots.flatMap((_, slot) => {
      const post = this.model.post(slot);
      return post?.live && post.author === user.handle ? [post] : [];
    });
    for (const post of own.slice(0, 2)) {
      const res = await this.call('GET', `/posts/${post.id}`, '');
      if (res.status !== 404)
        this.mismatch(
          ctx,
          `${what}: ${this.model.describe(post)} answered ${describe(res)} after the leave, expected 404`,
        );
    }
  }

  /** Logging in again: 200 with `restored: true`; the new session's token is the user's from now on. */
  private async restore(userIndex: number, ctx: Ctx): Promise<void> {
    const user = this.users[userIndex]!;
    const what = `restoring login of ${user.handle}`;
    const { res, resent } = await this.sendIdempotent(ctx, `user ${user.handle}`, what, () =>
      callSafely(this.api, 'POST', '/sessions', { body: { handle: user.handle, password: user.password } }),
    );
    if (res.status !== 200) return this.clientError(res, ctx, what, '200');
    // A resend after a lost answer finds the account restored already.
    if (res.json.restored !== true && !resent) this.mismatch(ctx, `${what}: answered without restored: true`);
    user.token = res.json.token;
  }

  // --- posts -----------------------------------------------------------------------------------

  /** A new post: 201. Sent again after no answer (with a key only), 200 with the post is as good. */
  private async publish(slot: number, ctx: Ctx): Promise<void> {
    const { author, body, key } = this.slot(slot);
    const subject = slotSubject(slot);
    const sent = Date.now();
    const { res, resent } = key
      ? await this.sendIdempotent(ctx, subject, `publish #${slot}`, () => this.sendPublish(slot, body))
      : { res: await this.sendPublish(slot, body), resent: false };
    this.model.note(subject, `w${ctx.wave} ${ctx.label}: publish ${res.status}`);
    const id = this.postIdIn(res, author, body, ctx, `publish #${slot}`);
    if (res.status !== 201 && !resent)
      this.mismatch(ctx, `publish #${slot} answered ${res.status}, expected 201 (a new post)`);
    this.model.created(slot, id, author.handle, body, undefined, { sent, answered: Date.now() });
  }

  /** The same key and body again: the live post again (200), or 410 post_deleted once deleted. */
  private async retry(slot: number, ctx: Ctx): Promise<void> {
    const post = this.published(slot);
    const subject = slotSubject(slot);
    // The body as first sent (an edit since changed the post's text, not the request's).
    const { res } = await this.sendIdempotent(ctx, subject, `retry of #${slot}`, () =>
      this.sendPublish(slot, this.slot(slot).body),
    );
    this.model.note(subject, `w${ctx.wave} ${ctx.label}: retry ${res.status}`, ctx.racing || !post.live);
    if (!post.live && res.status === 410 && errorCode(res) === 'post_deleted') return;
    if (isSuccess(res)) {
      this.samePost(res, post, ctx, `retry of #${slot}`);
      if (!post.live)
        this.mismatch(
          ctx,
          `retry of deleted ${this.model.describe(post)} answered ${res.status} with it again — resurrected (expected 410 post_deleted)`,
        );
      else if (res.status !== 200)
        this.mismatch(ctx, `retry of live post #${slot} answered ${res.status}, expected 200 with the same post`);
      return;
    }
    this.clientError(
      res,
      ctx,
      `retry of ${post.live ? 'live' : 'deleted'} post #${slot}`,
      post.live ? '200 with the same post' : '410 post_deleted',
    );
  }

  /** The same key with another body is a client bug: 422 idempotency_key_mismatch, nothing changes. */
  private async reuseKey(slot: number, ctx: Ctx): Promise<void> {
    const post = this.published(slot);
    const subject = slotSubject(slot);
    const what = `same key, other body for #${slot}`;
    const { res } = await this.sendIdempotent(ctx, subject, what, () =>
      this.sendPublish(slot, `${this.slot(slot).body} (other)`),
    );
    this.model.note(subject, `w${ctx.wave} ${ctx.label}: same key, other body ${res.status}`);
    if (res.status === 422 && errorCode(res) === 'idempotency_key_mismatch') return;
    if (isSuccess(res)) {
      this.samePost(res, post, ctx, what);
      this.mismatch(
        ctx,
        `${what} answered ${res.status} with the original post (expected 422 idempotency_key_mismatch)`,
      );
      return;
    }
    this.clientError(res, ctx, what, '422 idempotency_key_mismatch');
  }

  /**
   * PATCH with If-Match `from`: 200 with the new text at version from + 1 — unless another edit
   * from `from` landed first (412: the server's version has moved past `from`) or a racing
   * delete did (404). Two 200s from one version are a lost update. Sent again after no answer:
   * a 412 whose post holds this very text at from + 1 is this edit, landed.
   */
  private async edit(slot: number, from: number, racing: 'edit' | 'delete' | undefined, ctx: Ctx): Promise<void> {
    const post = this.published(slot);
    const subject = slotSubject(slot);
    const body = `${this.slot(slot).body} ✎${from + 1}`;
    const token = this.slot(slot).author.token;
    const what = `edit of #${slot} from version ${from}`;
    const { res, resent } = await this.sendIdempotent(ctx, subject, what, () =>
      this.call('PATCH', `/posts/${post.id}`, token, { body }, { 'if-match': `"${from}"` }),
    );
    this.model.note(subject, `w${ctx.wave} ${ctx.label}: edit from ${from} ${res.status}`, racing !== undefined);
    const landed = () => {
      if ((post.version ?? 0) !== from)
        this.mismatch(ctx, `${what} answered 200, but an edit from version ${from} had landed already (a lost update)`);
      this.model.edited(slot, body, from + 1);
    };
    if (res.status === 200) {
      if (res.json?.body !== body || res.json?.version !== from + 1 || typeof res.json?.editedAt !== 'string') {
        this.mismatch(
          ctx,
          `${what} answered 200 with version ${String(res.json?.version)}, body ${JSON.stringify(res.json?.body)}: expected ${from + 1}, ${JSON.stringify(body)}`,
        );
      }
      return landed();
    }
    if (res.status === 412 && errorCode(res) === 'version_mismatch') {
      const now = await this.call('GET', `/posts/${post.id}`, token);
      if (resent && now.json?.body === body && now.json?.version === from + 1) return landed();
      if (racing !== 'edit') this.mismatch(ctx, `${what} answered 412 with no other edit of it`);
      else if (now.status === 200 && !((now.json?.version ?? 0) > from))
        this.mismatch(ctx, `${what} answered 412, but the post is still at version ${String(now.json?.version)}`);
      return;
    }
    // The delete of the same group may answer after this 404: the plan deletes the post either way.
    if (res.status === 404 && errorCode(res) === 'post_not_found' && racing === 'delete') return;
    this.clientError(
      res,
      ctx,
      what,
      racing === 'edit'
        ? '200, or 412 version_mismatch after the other edit'
        : racing === 'delete'
          ? '200, or 404 after the delete'
          : '200 with the new text',
    );
  }

  private async delete(slot: number, ctx: Ctx): Promise<void> {
    const post = this.published(slot);
    const subject = slotSubject(slot);
    const outcome = ctx.deletes.get(slot) ?? { label: ctx.label, liveBefore: post.live, statuses: [], resent: false };
    ctx.deletes.set(slot, outcome);
    const token = this.slot(slot).author.token;
    const { res, resent } = await this.sendIdempotent(ctx, subject, `delete #${slot}`, () =>
      this.call('DELETE', `/posts/${post.id}`, token),
    );
    this.model.note(subject, `w${ctx.wave} ${ctx.label}: delete ${res.status}`, ctx.racing);
    if (res.status !== 204 && res.status !== 404) throw this.lost(ctx, `delete #${slot}`, res);
    outcome.statuses.push(res.status);
    outcome.resent ||= resent;
    // 204: this request deleted it. 404: the server says it is gone (judged once the wave is over).
    this.model.deleted(slot);
  }

  /**
   * At least one 204 for a live post, none for a deleted one. A racing loser may answer 204 as
   * well as 404; whether the delete then counted twice shows in the author's posts count.
   */
  private judgeDeletes(
    wave: number,
    deletes: Map<number, DeleteOutcome>,
    thing = 'post #',
    history: (n: number) => string = () => '',
  ): void {
    for (const [slot, { label, liveBefore, statuses, resent }] of deletes) {
      const ctx = { wave, label };
      const wins = statuses.filter((s) => s === 204).length;
      if (liveBefore && wins === 0 && !resent)
        this.mismatch(
          ctx,
          `delete of live ${thing}${slot} answered ${statuses.join(' and ')}, expected a 204${history(slot)}`,
        );
      if (!liveBefore && wins > 0)
        this.mismatch(ctx, `delete of deleted ${thing}${slot} answered 204, expected 404${history(slot)}`);
    }
  }

  // --- edges -----------------------------------------------------------------------------------

  private async edge(kind: 'follow' | 'unfollow', [a, b]: Pair, ctx: Ctx): Promise<void> {
    const [follower, followee] = [this.users[a]!, this.users[b]!];
    const on = kind === 'follow';
    const subject = pairSubject(follower.handle, followee.handle);
    const path = `/users/${follower.handle}/following/${followee.handle}`;
    const { res } = await this.sendIdempotent(ctx, subject, `${kind} ${subject}`, () =>
      this.call(on ? 'PUT' : 'DELETE', path, follower.token),
    );
    this.model.note(subject, `w${ctx.wave} ${ctx.label}: ${kind} ${res.status}`, ctx.racing);
    if (res.status !== 200 || res.json?.following !== on) throw this.lost(ctx, `${kind} ${subject}`, res);
    // In a refollow the last answer to arrive wins here; the decider then sets the real state.
    this.model.setEdge(follower.handle, followee.handle, on);
    // An unfollow takes the followee out of every group of the follower (a racing add's too).
    if (!on) this.model.leaveGroups(follower.handle, followee.handle);
  }

  // --- likes -----------------------------------------------------------------------------------

  /** 200 {liked} whatever the state was (idempotent); a like of a deleted post is 404, an unlike of one 200. */
  private async like(kind: 'like' | 'unlike', userIndex: number, slot: number, ctx: Ctx): Promise<void> {
    const user = this.users[userIndex]!;
    const post = this.published(slot);
    const on = kind === 'like';
    const subject = slotSubject(slot);
    const what = `${kind} of #${slot} by ${user.handle}`;
    this.model.touchedLikes(slot);
    const path = `/users/${user.handle}/likes/${post.id}`;
    const silencedAtSend = this.model.silenced(post.author, user.handle);
    const sent = Date.now();
    const { res } = await this.sendIdempotent(ctx, subject, what, () =>
      this.call(on ? 'PUT' : 'DELETE', path, user.token),
    );
    this.model.likeFact(slot, user.handle, { sent, answered: Date.now() }, silencedAtSend);
    this.model.note(subject, `w${ctx.wave} ${ctx.label}: ${user.handle} ${kind} ${res.status}`, ctx.racing);
    if (on && !post.live) {
      if (res.status === 404 && errorCode(res) === 'post_not_found') return;
      if (isSuccess(res))
        this.mismatch(
          ctx,
          `${what}: liking deleted ${this.model.describe(post)} answered ${res.status}, expected 404 post_not_found`,
        );
      else this.clientError(res, ctx, what, '404 post_not_found');
      return;
    }
    if (
      res.status === 200 &&
      res.json?.liked === on &&
      res.json?.user === user.handle &&
      res.json?.postId === post.id
    ) {
      // In a relike the last answer to arrive wins here; the decider then sets the real state.
      this.model.setLike(slot, user.handle, on);
      return;
    }
    if (isSuccess(res)) throw this.lost(ctx, what, res);
    this.clientError(res, ctx, what, `200 liked: ${on}`);
  }

  /** 200 {bookmarked} whatever the state was (idempotent); a bookmark of a deleted post is 404, a removal 200. */
  private async bookmark(kind: 'bookmark' | 'unbookmark', userIndex: number, slot: number, ctx: Ctx): Promise<void> {
    const user = this.users[userIndex]!;
    const post = this.published(slot);
    const on = kind === 'bookmark';
    const subject = slotSubject(slot);
    const what = `${kind} of #${slot} by ${user.handle}`;
    const { res } = await this.sendIdempotent(ctx, subject, what, () =>
      this.call(on ? 'PUT' : 'DELETE', `/users/${user.handle}/bookmarks/${post.id}`, user.token),
    );
    this.model.note(subject, `w${ctx.wave} ${ctx.label}: ${user.handle} ${kind} ${res.status}`, ctx.racing);
    if (on && !post.live) {
      if (res.status === 404 && errorCode(res) === 'post_not_found') return;
      if (isSuccess(res))
        this.mismatch(
          ctx,
          `${what}: bookmarking deleted ${this.model.describe(post)} answered ${res.status}, expected 404 post_not_found`,
        );
      else this.clientError(res, ctx, what, '404 post_not_found');
      return;
    }
    if (
      res.status === 200 &&
      res.json?.bookmarked === on &&
      res.json?.user === user.handle &&
      res.json?.postId === post.id
    ) {
      // In a race the last answer to arrive wins here; the decider then sets the real state.
      this.model.setBookmark(slot, user.handle, on);
      return;
    }
    if (isSuccess(res)) throw this.lost(ctx, what, res);
    this.clientError(res, ctx, what, `200 bookmarked: ${on}`);
  }

  // --- comments --------------------------------------------------------------------------------

  /** 201 with the comment; 404 post_not_found on a deleted post, comment_not_found in reply to a deleted comment. */
  private async comment(index: number, ctx: Ctx): Promise<void> {
    const planned = this.plan.comments[index]!;
    const post = this.published(planned.post);
    const author = this.users[planned.author]!;
    const subject = slotSubject(planned.post);
    const what = `comment c${index} by ${author.handle} on #${planned.post}`;
    this.model.touchedComments(planned.post);
    let replyTo: ModelComment | undefined;
    if (planned.replyTo !== undefined) {
      replyTo = this.model.comment(planned.replyTo);
      if (!replyTo?.id) {
        // The comment it answers got no answer when created (or was never created): no id to send.
        this.model.note(subject, `w${ctx.wave} ${ctx.label}: ${what} skipped (c${planned.replyTo} has no known id)`);
        return;
      }
    }
    const expected = !post.live
      ? 'post_not_found'
      : replyTo && replyTo.state !== 'live'
        ? 'comment_not_found'
        : undefined;
    const reply = replyTo ? { replyTo: replyTo.id } : {};
    const res = await this.call('POST', `/posts/${post.id}/comments`, author.token, { body: planned.body, ...reply });
    const created = `w${ctx.wave} ${ctx.label}: c${index} by ${author.handle}${replyTo ? ` → c${replyTo.index}` : ''} ${describe(res)}`;
    this.model.note(subject, created, ctx.racing);
    this.model.note(commentSubject(index), `${created}${res.status === 201 ? ` ${res.json?.id}` : ''}`);
    const modelled = {
      post: planned.post,
      author: author.handle,
      body: planned.body,
      ...(replyTo ? { replyTo: { id: replyTo.id!, author: replyTo.author } } : {}),
    };
    if (isNoAnswer(res)) {
      // Created or not: the settled comments list tells (by the unique body).
      if (!expected) this.model.commented(index, { ...modelled, state: 'unknown' });
      return;
    }
    if (res.status === 201) {
      const c = res.json;
      if (typeof c?.id !== 'string' || !COMMENT_ID_PATTERN.test(c.id)) throw this.lost(ctx, what, res);
      const replyOk = replyTo
        ? c.replyTo?.id === replyTo.id && c.replyTo?.author === replyTo.author
        : c.replyTo === null;
      if (c.postId !== post.id || c.author !== author.handle || c.body !== planned.body || !replyOk) {
        this.mismatch(ctx, `${what} answered 201 with ${res.text.slice(0, 200)}: not the comment sent`);
      }
      if (expected)
        this.mismatch(
          ctx,
          `${what} answered 201, expected 404 ${expected} (${expected === 'post_not_found' ? `${this.model.describe(post)} is deleted` : `c${replyTo!.index} is deleted`})`,
        );
      if (post.live) this.model.commented(index, { ...modelled, id: c.id, state: 'live' });
      return;
    }
    if (expected && res.status === 404 && errorCode(res) === expected) return;
    this.clientError(res, ctx, what, expected ? `404 ${expected}` : '201 with the comment');
  }

  /** The comment's author or the post's: 204 (a racing loser 404); anyone else 403, and it stays. */
  private async deleteComment(userIndex: number, index: number, ctx: Ctx): Promise<void> {
    const planned = this.plan.comments[index]!;
    const post = this.published(planned.post);
    const user = this.users[userIndex]!;
    const subject = slotSubject(planned.post);
    const what = `delete of c${index} by ${user.handle}`;
    const comment = this.model.comment(index);
    if (!comment?.id || comment.state === 'unknown') {
      this.model.note(subject, `w${ctx.wave} ${ctx.label}: ${what} skipped (its create got no answer)`);
      return;
    }
    const allowed = user.handle === comment.author || user.handle === post.author;
    const outcome = ctx.commentDeletes.get(index) ?? {
      label: ctx.label,
      liveBefore: comment.state === 'live',
      statuses: [],
      resent: false,
    };
    if (allowed) ctx.commentDeletes.set(index, outcome);
    const path = `/posts/${post.id}/comments/${comment.id}`;
    const { res, resent } = await this.sendIdempotent(ctx, subject, what, () => this.call('DELETE', path, user.token));
    this.model.note(subject, `w${ctx.wave} ${ctx.label}: ${what} ${describe(res)}`, ctx.racing);
    this.model.note(commentSubject(index), `w${ctx.wave} ${ctx.label}: ${what} ${describe(res)}`);
    if (!allowed) {
      if (res.status === 403 && errorCode(res) === 'forbidden') return;
      if (res.status === 204) {
        this.mismatch(
          ctx,
          `${what}: a stranger deleted ${this.model.describeComment(comment)} (204), expected 403 forbidden`,
        );
        this.model.commentDeleted(index);
      } else this.clientError(res, ctx, what, '403 forbidden');
      return;
    }
    if (res.status !== 204 && !(res.status === 404 && errorCode(res) === 'comment_not_found')) {
      if (res.status >= 400 && res.status < 500)
        this.mismatch(ctx, `${what} answered ${describe(res)}, expected 204 or 404 comment_not_found`);
      else throw this.lost(ctx, what, res);
      return;
    }
    outcome.statuses.push(res.status);
    outcome.resent ||= resent;
    this.model.commentDeleted(index);
  }

  // --- reposts ---------------------------------------------------------------------------------

  /**
   * A repost of the target's root original: 201 with the new repost, or for a plain one 200 with
   * the user's live plain repost of that original; 404 post_not_found when target or root is deleted.
   */
  private async repost(step: Extract<Step, { kind: 'repost' }>, ctx: Ctx): Promise<void> {
    const user = this.users[step.user]!;
    const target = this.published(step.target);
    const root = target.repostOf ? this.model.byId(target.repostOf) : target;
    if (!root) throw new Error(`model: the original of #${step.target} is unknown`);
    const plain = step.comment === undefined;
    const what = `${plain ? 'plain repost' : 'repost with comment'} of #${step.target} by ${user.handle}`;
    const subject = slotSubject(step.target);
    const send = () =>
      this.call(
        'POST',
        `/posts/${target.id}/reposts`,
        user.token,
        plain ? {} : { comment: step.comment },
        step.key ? { 'idempotency-key': step.key } : {},
      );
    const notes = (res: ApiResponse) => {
      const text = `w${ctx.wave} ${ctx.label}: ${what} ${describe(res)}`;
      this.model.note(subject, text, ctx.racing);
      if (root !== target) this.model.note(slotSubject(root.slot), text, ctx.racing);
    };

    if (!target.live || !root.live) {
      const res = plain || step.key ? (await this.sendIdempotent(ctx, subject, what, send)).res : await send();
      notes(res);
      if (res.status === 404 && errorCode(res) === 'post_not_found') return;
      const gone = !target.live ? this.model.describe(target) : `its original ${this.model.describe(root)}`;
      if (isSuccess(res))
        this.mismatch(ctx, `${what} answered ${res.status} although ${gone} is deleted, expected 404 post_not_found`);
      else this.clientError(res, ctx, what, '404 post_not_found');
      return;
    }
    if (step.slot === undefined) throw new Error(`plan bug: ${what} has no slot, but its original is live`);
    const body = chainBody(step.comment ?? '', target.repostOf ? target : undefined);
    const existing = plain ? this.model.plainRepostOf(user.handle, root.id) : undefined;
    if (existing && existing.slot !== step.slot)
      throw new Error(`plan bug: ${what} names #${step.slot}, the model has #${existing.slot}`);
    const outcomeKey = `${user.handle}>${root.id}`;
    const outcome = plain
      ? (ctx.plainReposts.get(outcomeKey) ?? {
          label: ctx.label,
          what,
          existedBefore: existing !== undefined,
          statuses: [],
          resent: false,
        })
      : undefined;
    if (outcome) ctx.plainReposts.set(outcomeKey, outcome);

    const sent = Date.now();
    const { res, resent } =
      plain || step.key ? await this.sendIdempotent(ctx, subject, what, send) : { res: await send(), resent: false };
    const answered = Date.now();
    notes(res);
    this.model.note(slotSubject(step.slot), `w${ctx.wave} ${ctx.label}: ${what} ${describe(res)}`, ctx.racing);
    const p = res.json;
    if (!isSuccess(res))
      return this.clientError(
        res,
        ctx,
        what,
        plain && existing ? `200 with #${existing.slot}` : '201 with the new repost',
      );
    if (
      typeof p?.id !== 'string' ||
      !POST_ID_PATTERN.test(p.id) ||
      p.author !== user.handle ||
      p.repostOf?.id !== root.id
    )
      throw this.lost(ctx, what, res);
    if (p.repostOf?.state !== 'live')
      this.mismatch(
        ctx,
        `${what} answered with its original ${this.model.describe(root)} as ${JSON.stringify(p.repostOf).slice(0, 120)}, expected state 'live'`,
      );
    const known = this.model.post(step.slot);
    if (known && known.id !== p.id)
      throw this.lost(ctx, `${what} (another repost than #${step.slot} ${known.id})`, res);
    const expectedBody = known?.body ?? body;
    if (p.body !== expectedBody)
      this.mismatch(ctx, `${what} answered body ${JSON.stringify(p.body)}, expected ${JSON.stringify(expectedBody)}`);
    if (outcome) {
      outcome.statuses.push(res.status);
      outcome.resent ||= resent;
    } else if (res.status !== 201 && !resent)
      this.mismatch(ctx, `${what} answered ${res.status}, expected 201 (a new repost)`);
    if (!known) this.model.created(step.slot, p.id, user.handle, body, { of: root.id, plain }, { sent, answered });
  }

  // --- blocks and mutes ------------------------------------------------------------------------

  /** 200 with the state; a block also removes the follows both ways. Idempotent: sent again after no answer. */
  private async silence(kind: 'block' | 'unblock' | 'mute' | 'unmute', [a, b]: Pair, ctx: Ctx): Promise<void> {
    const [actor, target] = [this.users[a]!, this.users[b]!];
    const blocking = kind === 'block' || kind === 'unblock';
    const on = kind === 'block' || kind === 'mute';
    const subject = pairSubject(actor.handle, target.handle);
    const what = `${kind} ${subject}`;
    const path = `/users/${actor.handle}/${blocking ? 'blocks' : 'mutes'}/${target.handle}`;
    const sent = Date.now();
    const { res } = await this.sendIdempotent(ctx, subject, what, () =>
      this.call(on ? 'PUT' : 'DELETE', path, actor.token),
    );
    // Whatever it answered, the two users' notifications around now are no longer exact.
    this.model.silencingChanged(actor.handle, target.handle, { sent, answered: Date.now() });
    const text = `w${ctx.wave} ${ctx.label}: ${kind} by ${actor.handle} ${describe(res)}`;
    this.model.note(subject, text, true);
    if (blocking) this.model.note(pairSubject(target.handle, actor.handle), text, true);
    const state = res.json;
    if (
      res.status !== 200 ||
      state?.handle !== actor.handle ||
      state?.target !== target.handle ||
      state?.[blocking ? 'blocking' : 'muting'] !== on
    ) {
      if (res.status >= 400 && res.status < 500)
        this.mismatch(
          ctx,
          `${what} answered ${describe(res)}, expected 200 ${blocking ? 'blocking' : 'muting'}: ${on}`,
        );
      throw this.lost(ctx, what, res);
    }
    if (!blocking) return this.model.setMute(actor.handle, target.handle, on);
    this.model.setBlock(actor.handle, target.handle, on);
    if (on) {
      // Follows both ways are gone when the block answers (a racing follow's too: followRacingBlock),
      // and with them each from the other's groups.
      this.model.setEdge(actor.handle, target.handle, false);
      this.model.setEdge(target.handle, actor.handle, false);
      this.model.leaveGroups(actor.handle, target.handle);
      this.model.leaveGroups(target.handle, actor.handle);
    }
  }

  /** A follow racing a block between the two: 200 if it landed first (the block then removed it), else 403 blocked. The edge is the block's business. */
  private async followRacingBlock([a, b]: Pair, ctx: Ctx): Promise<void> {
    const [follower, followee] = [this.users[a]!, this.users[b]!];
    const subject = pairSubject(follower.handle, followee.handle);
    const what = `follow ${subject} racing a block`;
    const { res } = await this.sendIdempotent(ctx, subject, what, () =>
      this.call('PUT', `/users/${follower.handle}/following/${followee.handle}`, follower.token),
    );
    this.model.note(subject, `w${ctx.wave} ${ctx.label}: follow racing a block ${describe(res)}`, true);
    if (res.status === 200 && res.json?.following === true) return;
    if (res.status === 403 && errorCode(res) === 'blocked') return;
    this.clientError(res, ctx, what, '200 following, or 403 blocked');
  }

  /** Across a standing block: 403 blocked, and nothing changes. */
  private async refused(step: Extract<Step, { kind: 'refused' }>, ctx: Ctx): Promise<void> {
    const [user, other] = [this.users[step.user]!, this.users[step.other]!];
    const post = step.slot === undefined ? undefined : this.published(step.slot);
    const what = `${step.action} ${post ? this.model.describe(post) : other.handle} by ${user.handle} across a block`;
    const subject = post ? slotSubject(post.slot) : pairSubject(user.handle, other.handle);
    let res: ApiResponse;
    switch (step.action) {
      case 'follow':
        res = (
          await this.sendIdempotent(ctx, subject, what, () =>
            this.call('PUT', `/users/${user.handle}/following/${other.handle}`, user.token),
          )
        ).res;
        break;
      case 'like':
        this.model.touchedLikes(post!.slot);
        res = (
          await this.sendIdempotent(ctx, subject, what, () =>
            this.call('PUT', `/users/${user.handle}/likes/${post!.id}`, user.token),
          )
        ).res;
        break;
      case 'comment':
        // Should it be created after all, the post's comments list (read back) shows it.
        this.model.touchedComments(post!.slot);
        res = await this.call('POST', `/posts/${post!.id}/comments`, user.token, {
          body: `seed ${this.plan.seed} refused comment by ${user.handle} in w${ctx.wave}`,
        });
        if (isNoAnswer(res)) return;
        break;
      case 'repost':
        res = (
          await this.sendIdempotent(ctx, subject, what, () =>
            this.call('POST', `/posts/${post!.id}/reposts`, user.token, {}),
          )
        ).res;
        break;
    }
    this.model.note(subject, `w${ctx.wave} ${ctx.label}: ${what} ${describe(res)}`, true);
    if (res.status === 403 && errorCode(res) === 'blocked') return;
    if (isSuccess(res)) {
      this.mismatch(
        ctx,
        `${what} answered ${res.status} (${this.model.blocks(user.handle, other.handle) ? `${user.handle} blocks ${other.handle}` : `${other.handle} blocks ${user.handle}`}), expected 403 blocked`,
      );
      // Keep the model with what happened, where it can follow.
      if (step.action === 'follow') return this.model.setEdge(user.handle, other.handle, true);
      if (step.action === 'like') return this.model.setLike(post!.slot, user.handle, true);
      if (step.action === 'repost') throw this.lost(ctx, `${what} (a repost the model cannot place)`, res);
      return;
    }
    this.clientError(res, ctx, what, '403 blocked');
  }

  /** One plain repost per user and original: a new one answers 201 once (racing twins: the other 200), an existing one 200. */
  private judgePlainReposts(wave: number, outcomes: Map<string, RepostOutcome>): void {
    for (const { label, what, existedBefore, statuses, resent } of outcomes.values()) {
      const ctx = { wave, label };
      const created = statuses.filter((s) => s === 201).length;
      if (existedBefore && created > 0)
        this.mismatch(
          ctx,
          `${what} answered ${statuses.join(' and ')}: 201 although that plain repost existed (expected 200 with it)`,
        );
      if (!existedBefore && created > 1)
        this.mismatch(
          ctx,
          `${what} answered ${statuses.join(' and ')}: created twice (expected one 201, the others 200)`,
        );
      if (!existedBefore && created === 0 && !resent && statuses.length > 0)
        this.mismatch(ctx, `${what} answered ${statuses.join(' and ')}, expected a 201 (a new repost)`);
    }
  }

  // --- helpers ---------------------------------------------------------------------------------

  /** Sent again while the machine gives no answer, and noted in the subject's history. */
  private sendIdempotent(ctx: Ctx, subject: string, what: string, request: () => Promise<ApiResponse>) {
    return sendUntilAnswered(request, (res) =>
      this.model.note(subject, `w${ctx.wave} ${ctx.label}: no answer to ${what} (${describe(res)}), sent again`),
    );
  }

  private slot(slot: number): { author: Actor; body: string; key?: string } {
    const planned = this.plan.slots[slot]!;
    return { ...planned, author: this.users[planned.author]! };
  }

  /** The plan only retries or deletes a post published in an earlier step, whose answer the model has. */
  private published(slot: number): ModelPost {
    const post = this.model.post(slot);
    if (!post) throw new Error(`plan bug: #${slot} used before it was published`);
    return post;
  }

  private sendPublish(slot: number, body: string): Promise<ApiResponse> {
    const { author, key } = this.slot(slot);
    return this.call('POST', '/posts', author.token, { body }, key ? { 'idempotency-key': key } : {});
  }

  private call(
    method: string,
    path: string,
    token: string,
    body?: unknown,
    headers: Record<string, string> = {},
  ): Promise<ApiResponse> {
    return callSafely(this.api, method, path, { token, body, headers });
  }

  /** The id of the post a 2xx publish answered, checked against what was sent. */
  private postIdIn(res: ApiResponse, author: Actor, body: string, ctx: Ctx, what: string): string {
    const post = res.json;
    const ok =
      isSuccess(res) &&
      typeof post?.id === 'string' &&
      POST_ID_PATTERN.test(post.id) &&
      post.author === author.handle &&
      post.body === body;
    if (!ok) throw this.lost(ctx, what, res);
    return post.id;
  }

  /** A 2xx to a retry must be the post the key belongs to; another one is a post the model cannot place. */
  private samePost(res: ApiResponse, post: ModelPost, ctx: Ctx, what: string): void {
    if (this.postIdIn(res, this.slot(post.slot).author, post.body, ctx, what) !== post.id)
      throw this.lost(ctx, `${what} (another post id)`, res);
  }

  /** A 4xx changed nothing: a mismatch. Anything else may have changed state: the seed ends. */
  private clientError(res: ApiResponse, ctx: Ctx, what: string, expected: string): void {
    if (res.status < 400 || res.status >= 500) throw this.lost(ctx, what, res);
    this.mismatch(ctx, `${what} answered ${describe(res)}, expected ${expected}`);
  }

  private mismatch(ctx: Pick<Ctx, 'wave' | 'label'>, text: string): void {
    this.mismatches.push(`w${ctx.wave} ${ctx.label}: ${text}`);
  }

  private lost(ctx: Ctx, what: string, res: ApiResponse): ModelLost {
    return new ModelLost(
      `w${ctx.wave} ${ctx.label}: ${what} answered ${describe(res)} ${res.text.slice(0, 200)} — the model cannot tell what happened, so the seed stops here`,
    );
  }
}

/** Like Promise.all, but waits for every request, so none is still running when a ModelLost ends the seed. */
async function settleAll(work: Promise<void>[]): Promise<void> {
  const failed = (await Promise.allSettled(work)).find((r): r is PromiseRejectedResult => r.status === 'rejected');
  if (failed) throw failed.reason;
}

/** Registers and logs in, sent again when the machine gives no answer (a 409 then means an earlier send registered it). */
export async function registerActor(api: Api, handle: string, password: string): Promise<Actor> {
  const reg = await sendUntilAnswered(() =>
    callSafely(api, 'POST', '/users', { body: { handle, displayName: handle, password } }),
  );
  if (reg.res.status !== 201 && !(reg.resent && reg.res.status === 409))
    throw new Error(`register ${handle}: ${reg.res.status} ${reg.res.text}`);
  const login = await sendUntilAnswered(() => callSafely(api, 'POST', '/sessions', { body: { handle, password } }));
  if (login.res.status !== 200) throw new Error(`login ${handle}: ${login.res.status} ${login.res.text}`);
  return { handle, token: login.res.json.token, password };
}
