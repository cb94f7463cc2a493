// test/support/model/driver.ts — runs the plan's waves against the HTTP API and updates the
// reference model from what the responses say happened. An answer that contradicts the
// specified behaviour is a mismatch, and the model keeps to the specification (a deleted post
// stays deleted even when a retry "recreates" it). A request that got no answer is sent again
// when it is idempotent (follow, unfollow, delete, a publish with a key); a publish without a
// key cannot be, so its lost answer ends the seed (ModelLost): the model could not be exact.
import { POST_ID_PATTERN } from '../../../shared/domain/post.js';
import type { ApiResponse } from '../api.js';
import { callSafely, describeAnswer as describe, errorCode, isSuccess, sendUntilAnswered, type Api } from './http.js';
import type { Group, Pair, Plan, Step } from './plan.js';
import { pairSubject, slotSubject, type ModelPost, type ReferenceModel } from './reference-model.js';

export interface Actor {
  handle: string;
  token: string;
}

export class ModelLost extends Error {}

interface Ctx {
  wave: number;
  label: string;
  /** Two or more requests of the group ran at once. */
  racing: boolean;
  deletes: Map<number, DeleteOutcome>;
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
    const ctx = (g: Group, label = g.label): Ctx => ({ wave, label, racing: g.tasks.length > 1, deletes });
    await settleAll(groups.flatMap((g) => g.tasks.map((task) => this.runTask(task, ctx(g)))));
    this.judgeDeletes(wave, deletes);
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
      case 'follow':
      case 'unfollow':
        return this.edge(step.kind, step.pair, ctx);
    }
  }

  // --- posts -----------------------------------------------------------------------------------

  /** A new post: 201. Sent again after no answer (with a key only), 200 with the post is as good. */
  private async publish(slot: number, ctx: Ctx): Promise<void> {
    const { author, body, key } = this.slot(slot);
    const subject = slotSubject(slot);
    const { res, resent } = key
      ? await this.sendIdempotent(ctx, subject, `publish #${slot}`, () => this.sendPublish(slot, body))
      : { res: await this.sendPublish(slot, body), resent: false };
    this.model.note(subject, `w${ctx.wave} ${ctx.label}: publish ${res.status}`);
    const id = this.postIdIn(res, author, body, ctx, `publish #${slot}`);
    if (res.status !== 201 && !resent) this.mismatch(ctx, `publish #${slot} answered ${res.status}, expected 201 (a new post)`);
    this.model.created(slot, id, author.handle, body);
  }

  /** The same key and body again: the live post again (200), or 410 post_deleted once deleted. */
  private async retry(slot: number, ctx: Ctx): Promise<void> {
    const post = this.published(slot);
    const subject = slotSubject(slot);
    const { res } = await this.sendIdempotent(ctx, subject, `retry of #${slot}`, () => this.sendPublish(slot, post.body));
    this.model.note(subject, `w${ctx.wave} ${ctx.label}: retry ${res.status}`, ctx.racing || !post.live);
    if (!post.live && res.status === 410 && errorCode(res) === 'post_deleted') return;
    if (isSuccess(res)) {
      this.samePost(res, post, ctx, `retry of #${slot}`);
      if (!post.live) this.mismatch(ctx, `retry of deleted ${this.model.describe(post)} answered ${res.status} with it again — resurrected (expected 410 post_deleted)`);
      else if (res.status !== 200) this.mismatch(ctx, `retry of live post #${slot} answered ${res.status}, expected 200 with the same post`);
      return;
    }
    this.clientError(res, ctx, `retry of ${post.live ? 'live' : 'deleted'} post #${slot}`, post.live ? '200 with the same post' : '410 post_deleted');
  }

  /** The same key with another body is a client bug: 422 idempotency_key_mismatch, nothing changes. */
  private async reuseKey(slot: number, ctx: Ctx): Promise<void> {
    const post = this.published(slot);
    const subject = slotSubject(slot);
    const what = `same key, other body for #${slot}`;
    const { res } = await this.sendIdempotent(ctx, subject, what, () => this.sendPublish(slot, `${post.body} (edited)`));
    this.model.note(subject, `w${ctx.wave} ${ctx.label}: same key, other body ${res.status}`);
    if (res.status === 422 && errorCode(res) === 'idempotency_key_mismatch') return;
    if (isSuccess(res)) {
      this.samePost(res, post, ctx, what);
      this.mismatch(ctx, `${what} answered ${res.status} with the original post (expected 422 idempotency_key_mismatch)`);
      return;
    }
    this.clientError(res, ctx, what, '422 idempotency_key_mismatch');
  }

  private async delete(slot: number, ctx: Ctx): Promise<void> {
    const post = this.published(slot);
    const subject = slotSubject(slot);
    const outcome = ctx.deletes.get(slot) ?? { label: ctx.label, liveBefore: post.live, statuses: [], resent: false };
    ctx.deletes.set(slot, outcome);
    const token = this.slot(slot).author.token;
    const { res, resent } = await this.sendIdempotent(ctx, subject, `delete #${slot}`, () => this.call('DELETE', `/posts/${post.id}`, token));
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
  private judgeDeletes(wave: number, deletes: Map<number, DeleteOutcome>): void {
    for (const [slot, { label, liveBefore, statuses, resent }] of deletes) {
      const ctx = { wave, label };
      const wins = statuses.filter((s) => s === 204).length;
      if (liveBefore && wins === 0 && !resent) this.mismatch(ctx, `delete of live post #${slot} answered ${statuses.join(' and ')}, expected a 204`);
      if (!liveBefore && wins > 0) this.mismatch(ctx, `delete of deleted post #${slot} answered 204, expected 404`);
    }
  }

  // --- edges -----------------------------------------------------------------------------------

  private async edge(kind: 'follow' | 'unfollow', [a, b]: Pair, ctx: Ctx): Promise<void> {
    const [follower, followee] = [this.users[a]!, this.users[b]!];
    const on = kind === 'follow';
    const subject = pairSubject(follower.handle, followee.handle);
    const path = `/users/${follower.handle}/following/${followee.handle}`;
    const { res } = await this.sendIdempotent(ctx, subject, `${kind} ${subject}`, () => this.call(on ? 'PUT' : 'DELETE', path, follower.token));
    this.model.note(subject, `w${ctx.wave} ${ctx.label}: ${kind} ${res.status}`, ctx.racing);
    if (res.status !== 200 || res.json?.following !== on) throw this.lost(ctx, `${kind} ${subject}`, res);
    // In a refollow the last answer to arrive wins here; the decider then sets the real state.
    this.model.setEdge(follower.handle, followee.handle, on);
  }

  // --- helpers ---------------------------------------------------------------------------------

  /** Sent again while the machine gives no answer, and noted in the subject's history. */
  private sendIdempotent(ctx: Ctx, subject: string, what: string, request: () => Promise<ApiResponse>) {
    return sendUntilAnswered(request, (res) => this.model.note(subject, `w${ctx.wave} ${ctx.label}: no answer to ${what} (${describe(res)}), sent again`));
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

  private call(method: string, path: string, token: string, body?: unknown, headers: Record<string, string> = {}): Promise<ApiResponse> {
    return callSafely(this.api, method, path, { token, body, headers });
  }

  /** The id of the post a 2xx publish answered, checked against what was sent. */
  private postIdIn(res: ApiResponse, author: Actor, body: string, ctx: Ctx, what: string): string {
    const post = res.json;
    const ok = isSuccess(res) && typeof post?.id === 'string' && POST_ID_PATTERN.test(post.id) && post.author === author.handle && post.body === body;
    if (!ok) throw this.lost(ctx, what, res);
    return post.id;
  }

  /** A 2xx to a retry must be the post the key belongs to; another one is a post the model cannot place. */
  private samePost(res: ApiResponse, post: ModelPost, ctx: Ctx, what: string): void {
    if (this.postIdIn(res, this.slot(post.slot).author, post.body, ctx, what) !== post.id) throw this.lost(ctx, `${what} (another post id)`, res);
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
    return new ModelLost(`w${ctx.wave} ${ctx.label}: ${what} answered ${describe(res)} ${res.text.slice(0, 200)} — the model cannot tell what happened, so the seed stops here`);
  }
}

/** Like Promise.all, but waits for every request, so none is still running when a ModelLost ends the seed. */
async function settleAll(work: Promise<void>[]): Promise<void> {
  const failed = (await Promise.allSettled(work)).find((r): r is PromiseRejectedResult => r.status === 'rejected');
  if (failed) throw failed.reason;
}
