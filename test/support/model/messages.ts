// test/support/model/messages.ts — the model check's private messages (私信): a seeded script per
// pair of the seed's message users, the pairs run side by side and beside the seed's waves, and a
// model of every conversation fed by the answers. Sends carry a clientId and are retried with it
// (some retries sent at once: one message, the same for every answer, one 201 at most); both
// sides write at once (two seqs, one each, dense); recalls within the window (own message: the
// placeholder; the other's: 403); read markers; blocks and unblocks (a send across a block is 403
// `messages_refused`; a block drops the follows both ways); the recipient's setting is the default
// (`following`), so a first message from someone they do not follow is a request holding two of
// the sender's messages at most (403 `message_request_pending`), until a reply or an accept;
// accept and decline. Once settled: every conversation page of both sides, each user's
// conversation lists (main, requests: each peer once, in activity order, with its counts) and
// message badge must equal the model.
//
// The message users are the seed's own (m<seed>_d<n>), so the plan's blocks,
// follows and leaves never touch them: what decides a send is here only.
import { setTimeout as sleep } from 'node:timers/promises';
import { RECALL_WINDOW_MS, REQUEST_MESSAGES_MAX } from '../../../shared/domain/messages.js';
import type { ApiResponse } from '../api.js';
import type { Actor } from './driver.js';
import { callSafely, describeAnswer as describe, errorCode, read, sendUntilAnswered, type Api } from './http.js';
import { seededRng, type Rng } from './prng.js';

type Side = 0 | 1;

/** One step of a pair's script; `who` is a side of the pair. */
export type DmStep =
  /** A message with a new clientId, sent `copies` times (the retries at once when `together`). */
  | { kind: 'send'; who: Side; copies: number; together: boolean }
  /** Both sides send at once (in an open conversation without a block; otherwise side 0 alone). */
  | { kind: 'both' }
  /** `who` recalls their latest message, or (`others`) tries to recall the other's. */
  | { kind: 'recall'; who: Side; others: boolean }
  /** `who` marks the conversation read, up to the head or to an earlier message. */
  | { kind: 'read'; who: Side; toHead: boolean }
  /** The request's recipient (or `who`, when there is none) accepts or declines. */
  | { kind: 'accept' | 'decline'; who: Side }
  /** `who` blocks the other; where a block stands between them already, its author lifts it. */
  | { kind: 'block'; who: Side };

export interface DmPairPlan {
  a: number;
  b: number;
  /** Who follows whom before the script: a follows b, b follows a. */
  follows: [boolean, boolean];
  steps: DmStep[];
}

export interface DmPlan {
  users: number;
  pairs: DmPairPlan[];
}

/**
 * Every pair of `users` message users with a script of `steps` steps. Sends are kept to a few a
 * user a minute (the write limit is 30, retries count): a script paces itself (`DM_PACE_MS`).
 */
export function makeDmPlan(seed: number, users: number, steps: number): DmPlan {
  const rng = seededRng(seed ^ 0x5eed_d1a1);
  const pairs: DmPairPlan[] = [];
  for (let a = 0; a < users; a++)
    for (let b = a + 1; b < users; b++)
      pairs.push({
        a,
        b,
        follows: [rng.chance(0.5), rng.chance(0.5)],
        steps: Array.from({ length: steps }, () => dmStep(rng)),
      });
  return { users, pairs };
}

function dmStep(rng: Rng): DmStep {
  const who = rng.pick([0, 1] as const);
  const r = rng.next();
  if (r < 0.4) {
    const retried = rng.chance(0.4);
    return { kind: 'send', who, copies: retried ? rng.int(2, 3) : 1, together: retried && rng.chance(0.6) };
  }
  if (r < 0.5) return { kind: 'both' };
  if (r < 0.6) return { kind: 'recall', who, others: rng.chance(0.25) };
  if (r < 0.75) return { kind: 'read', who, toHead: rng.chance(0.7) };
  if (r < 0.85) return { kind: rng.chance(0.6) ? 'accept' : 'decline', who };
  return { kind: 'block', who };
}

/** The pause between two steps of a script: the steps spread over the waves, as they run beside them. */
const DM_PACE_MS = 400;

interface ModelMessage {
  seq: number;
  from: string;
  text: string;
  clientId: string;
  at: string;
  recalled: boolean;
}

interface ModelConversation {
  people: [string, string];
  messages: Map<number, ModelMessage>;
  status: 'open' | 'request' | 'declined';
  requester?: string;
  read: Map<string, number>;
  /** The newest `at` of its messages (ms). */
  activityAt: number;
}

type Expected = { ok: true; seq: number; state: 'open' | 'requested' } | { refused: string };

/** The conversations, follows and blocks among the message users, as the answers made them. */
export class DmModel {
  private readonly conversations = new Map<string, ModelConversation>();
  /** `x>y`: x follows y. */
  readonly follows = new Set<string>();
  /** `x>y`: x blocks y. */
  readonly blocks = new Set<string>();

  conversation(x: string, y: string): ModelConversation {
    const people: [string, string] = x < y ? [x, y] : [y, x];
    const key = people.join('|');
    let c = this.conversations.get(key);
    if (!c) {
      c = { people, messages: new Map(), status: 'open', read: new Map(), activityAt: 0 };
      this.conversations.set(key, c);
    }
    return c;
  }

  blocked(x: string, y: string): boolean {
    return this.blocks.has(`${x}>${y}`) || this.blocks.has(`${y}>${x}`);
  }

  /** What a send of `from` to `to` must answer now. */
  expectSend(from: string, to: string): Expected {
    const c = this.conversation(from, to);
    const head = c.messages.size;
    if (this.blocked(from, to)) return { refused: 'messages_refused' };
    if (head === 0) return { ok: true, seq: 1, state: this.follows.has(`${to}>${from}`) ? 'open' : 'requested' };
    if (c.status !== 'open' && c.requester === from) {
      const mine = [...c.messages.values()].filter((m) => m.from === from).length;
      if (c.status === 'declined' || mine >= REQUEST_MESSAGES_MAX) return { refused: 'message_request_pending' };
      return { ok: true, seq: head + 1, state: 'requested' };
    }
    return { ok: true, seq: head + 1, state: 'open' };
  }

  /** A message landed (its answer's view). */
  landed(from: string, to: string, m: ModelMessage): void {
    const c = this.conversation(from, to);
    if (c.messages.size === 0) {
      if (this.follows.has(`${to}>${from}`)) c.status = 'open';
      else {
        c.status = 'request';
        c.requester = from;
      }
    } else if (c.status !== 'open' && c.requester !== from) {
      c.status = 'open';
      delete c.requester;
    }
    c.messages.set(m.seq, m);
    // Writing is reading: the sender has read everything up to their message.
    c.read.set(from, Math.max(c.read.get(from) ?? 0, m.seq));
    c.activityAt = Math.max(c.activityAt, Date.parse(m.at));
  }

  stateFor(c: ModelConversation, who: string): 'open' | 'request' | 'requested' {
    if (c.status === 'open') return 'open';
    return c.requester === who ? 'requested' : 'request';
  }

  boxOf(c: ModelConversation, who: string): 'main' | 'requests' | 'none' {
    if (c.messages.size === 0) return 'none';
    if (c.status === 'open' || c.requester === who) return 'main';
    return c.status === 'request' ? 'requests' : 'none';
  }

  unread(c: ModelConversation, who: string): number {
    const upTo = c.read.get(who) ?? 0;
    return [...c.messages.values()].filter((m) => m.from !== who && m.seq > upTo).length;
  }

  all(): ModelConversation[] {
    return [...this.conversations.values()];
  }
}

const viewOf = (m: ModelMessage) => ({
  seq: m.seq,
  from: m.from,
  text: m.recalled ? '' : m.text,
  recalled: m.recalled,
  clientId: m.clientId,
  at: m.at,
});

/** Runs the pairs' scripts side by side; each pair's steps in order. Differences go to `mismatches`. */
export class DmDriver {
  readonly mismatches: string[] = [];
  readonly model = new DmModel();
  private counter = 0;
  readonly counts = {
    sends: 0,
    retries: 0,
    racingRetries: 0,
    landed: 0,
    refused: 0,
    pending: 0,
    both: 0,
    recalls: 0,
    reads: 0,
    answers: 0,
    blocks: 0,
  };

  constructor(
    private readonly api: Api,
    private readonly seed: number,
    private readonly plan: DmPlan,
    private readonly users: readonly Actor[],
  ) {}

  /** The follows the plan starts from (before any script runs). */
  async setUp(): Promise<void> {
    const edges = this.plan.pairs.flatMap((p) => [
      ...(p.follows[0] ? [[p.a, p.b] as const] : []),
      ...(p.follows[1] ? [[p.b, p.a] as const] : []),
    ]);
    await Promise.all(
      edges.map(async ([x, y]) => {
        const [fx, fy] = [this.users[x]!, this.users[y]!];
        const res = await this.call('PUT', `/users/${fx.handle}/following/${fy.handle}`, fx);
        if (res.status !== 200 && res.status !== 201)
          this.mismatches.push(`dm set-up: ${fx.handle} follows ${fy.handle}: ${describe(res)}`);
        else this.model.follows.add(`${fx.handle}>${fy.handle}`);
      }),
    );
  }

  async run(): Promise<void> {
    await Promise.all(this.plan.pairs.map((p) => this.runPair(p)));
  }

  private async runPair(p: DmPairPlan): Promise<void> {
    const sides = [this.users[p.a]!, this.users[p.b]!] as const;
    for (const [i, step] of p.steps.entries()) {
      await sleep(DM_PACE_MS);
      const before = this.mismatches.length;
      await this.runStep(sides, step, `dm ${sides[0].handle}–${sides[1].handle} step ${i} ${step.kind}`);
      // A wrong answer leaves the model unsure of this pair: its script stops (the compare still runs).
      if (this.mismatches.length > before) return;
    }
  }

  private call(method: string, path: string, as: Actor, body?: unknown) {
    return sendUntilAnswered(() =>
      callSafely(this.api, method, path, { token: as.token, ...(body === undefined ? {} : { body }) }),
    ).then((r) => r.res);
  }

  private runStep(sides: readonly [Actor, Actor], step: DmStep, label: string): Promise<void> {
    switch (step.kind) {
      case 'send':
        return this.send(sides[step.who], sides[1 - step.who]!, step.copies, step.together, label);
      case 'both':
        return this.both(sides, label);
      case 'recall':
        return this.recall(sides[step.who], sides[1 - step.who]!, step.others, label);
      case 'read':
        return this.read(sides[step.who], sides[1 - step.who]!, step.toHead, label);
      case 'accept':
      case 'decline':
        return this.answer(step.kind, sides, step.who, label);
      case 'block':
        return this.block(sides[step.who], sides[1 - step.who]!, label);
    }
  }

  private newClientId(): string {
    return `m${this.seed}-${this.counter++}`;
  }

  /** One message sent `copies` times with one clientId: one message whatever the answers' order. */
  private async send(from: Actor, to: Actor, copies: number, together: boolean, label: string): Promise<void> {
    const expected = this.model.expectSend(from.handle, to.handle);
    const clientId = this.newClientId();
    const text = `${label} ${clientId}`;
    this.counts.sends++;
    if (copies > 1) this.counts[together ? 'racingRetries' : 'retries']++;
    const attempt = () =>
      sendUntilAnswered(() =>
        callSafely(this.api, 'POST', `/users/${from.handle}/conversations/${to.handle}/messages`, {
          token: from.token,
          body: { text, clientId },
        }),
      );
    const answers: { res: ApiResponse; resent: boolean }[] = [];
    if (together) answers.push(...(await Promise.all(Array.from({ length: copies }, attempt))));
    else for (let i = 0; i < copies; i++) answers.push(await attempt());
    const what = `${label}: ${copies} send(s)${together ? ' at once' : ''} of ${clientId} (expected ${'refused' in expected ? expected.refused : `seq ${expected.seq}`})`;
    this.judgeSend(from, to, expected, answers, clientId, text, what);
  }

  private judgeSend(
    from: Actor,
    to: Actor,
    expected: Expected,
    answers: { res: ApiResponse; resent: boolean }[],
    clientId: string,
    text: string,
    what: string,
  ): number | undefined {
    const statuses = answers.map((a) => describe(a.res)).join(', ');
    if ('refused' in expected) this.counts[expected.refused === 'messages_refused' ? 'refused' : 'pending']++;
    else this.counts.landed++;
    if ('refused' in expected) {
      if (answers.some((a) => a.res.status !== 403 || errorCode(a.res) !== expected.refused))
        this.mismatches.push(`${what}: answered ${statuses}`);
      return undefined;
    }
    const created = answers.filter((a) => a.res.status === 201).length;
    const resent = answers.some((a) => a.resent);
    if (
      answers.some((a) => a.res.status !== 200 && a.res.status !== 201) ||
      created > 1 ||
      (!resent && created !== 1)
    ) {
      this.mismatches.push(`${what}: answered ${statuses} (one 201, the others 200)`);
      return undefined;
    }
    const messages = answers.map((a) => a.res.json.message as ModelMessage);
    const first = messages[0]!;
    const same = messages.every((m) => m.seq === first.seq && m.at === first.at && m.clientId === clientId);
    if (!same || first.seq !== expected.seq || first.from !== from.handle || first.text !== text || first.recalled) {
      this.mismatches.push(
        `${what}: answered ${JSON.stringify(messages.map((m) => [m.seq, m.from, m.clientId, m.at]))}`,
      );
      return undefined;
    }
    const states = answers.map((a) => a.res.json.state as string);
    if (states.some((s) => s !== expected.state))
      this.mismatches.push(`${what}: state ${states.join(', ')}, expected ${expected.state}`);
    this.model.landed(from.handle, to.handle, {
      seq: first.seq,
      from: from.handle,
      text,
      clientId,
      at: first.at,
      recalled: false,
    });
    return first.seq;
  }

  /** Both write at once into an open conversation: two messages, seqs head+1 and head+2 in either order. */
  private async both(sides: readonly [Actor, Actor], label: string): Promise<void> {
    const [x, y] = sides;
    const c = this.model.conversation(x.handle, y.handle);
    if (c.messages.size === 0 || c.status !== 'open' || this.model.blocked(x.handle, y.handle))
      return this.send(x, y, 1, false, `${label} (alone)`);
    this.counts.both++;
    const head = c.messages.size;
    const sends = sides.map((from, i) => {
      const clientId = this.newClientId();
      const text = `${label} ${clientId}`;
      return { from, to: sides[1 - i]!, clientId, text };
    });
    const answers = await Promise.all(
      sends.map((s) =>
        sendUntilAnswered(() =>
          callSafely(this.api, 'POST', `/users/${s.from.handle}/conversations/${s.to.handle}/messages`, {
            token: s.from.token,
            body: { text: s.text, clientId: s.clientId },
          }),
        ),
      ),
    );
    const seqs = answers.map((a) => (a.res.json?.message?.seq as number | undefined) ?? 0).sort((p, q) => p - q);
    if (seqs[0] !== head + 1 || seqs[1] !== head + 2) {
      this.mismatches.push(
        `${label}: both sides at once after seq ${head} answered ${answers.map((a) => `${describe(a.res)} seq ${a.res.json?.message?.seq}`).join(', ')}`,
      );
      return;
    }
    for (const [i, s] of sends.entries()) {
      const seq = answers[i]!.res.json.message.seq as number;
      this.judgeSend(
        s.from,
        s.to,
        { ok: true, seq, state: 'open' },
        [answers[i]!],
        s.clientId,
        s.text,
        `${label} side ${i}`,
      );
    }
  }

  private async recall(who: Actor, other: Actor, others: boolean, label: string): Promise<void> {
    const c = this.model.conversation(who.handle, other.handle);
    const author = others ? other.handle : who.handle;
    const target = [...c.messages.values()].filter((m) => m.from === author && !m.recalled).pop();
    if (!target) return;
    const age = Date.now() - Date.parse(target.at);
    // Near the window's end the answer depends on the clocks: not asked.
    if (!others && age > RECALL_WINDOW_MS - 20_000 && age < RECALL_WINDOW_MS + 20_000) return;
    this.counts.recalls++;
    const res = await this.call(
      'POST',
      `/users/${who.handle}/conversations/${other.handle}/messages/${target.seq}/recall`,
      who,
    );
    const what = `${label}: ${who.handle} recalls seq ${target.seq} by ${author}, ${Math.round(age / 1000)} s old`;
    if (others) {
      if (res.status !== 403 || errorCode(res) !== 'forbidden')
        this.mismatches.push(`${what}: answered ${describe(res)}, expected 403 forbidden`);
      return;
    }
    if (age >= RECALL_WINDOW_MS) {
      if (res.status !== 409 || errorCode(res) !== 'recall_window_closed')
        this.mismatches.push(`${what}: answered ${describe(res)}, expected 409 recall_window_closed`);
      return;
    }
    if (res.status !== 200 || res.json.seq !== target.seq || !res.json.recalled || res.json.text !== '') {
      this.mismatches.push(`${what}: answered ${describe(res)} ${res.text.slice(0, 200)}`);
      return;
    }
    target.recalled = true;
  }

  private async read(who: Actor, other: Actor, toHead: boolean, label: string): Promise<void> {
    const c = this.model.conversation(who.handle, other.handle);
    const head = c.messages.size;
    const upTo = toHead ? head + 3 : Math.max(1, head - 1);
    this.counts.reads++;
    const res = await this.call('POST', `/users/${who.handle}/conversations/${other.handle}/read`, who, { upTo });
    const what = `${label}: ${who.handle} reads up to ${upTo} (head ${head})`;
    if (head === 0) {
      if (res.status !== 404 || errorCode(res) !== 'conversation_not_found')
        this.mismatches.push(`${what}: answered ${describe(res)}, expected 404 conversation_not_found`);
      return;
    }
    const marker = Math.max(c.read.get(who.handle) ?? 0, Math.min(upTo, head));
    if (res.status !== 200 || res.json.readUpTo !== marker) {
      this.mismatches.push(`${what}: answered ${describe(res)} ${res.text.slice(0, 100)}, expected readUpTo ${marker}`);
      return;
    }
    c.read.set(who.handle, marker);
  }

  private async answer(kind: 'accept' | 'decline', sides: readonly [Actor, Actor], who: Side, label: string) {
    const c = this.model.conversation(sides[0].handle, sides[1].handle);
    // The request's recipient answers it; without a request, `who` tries.
    const actor = c.status === 'request' ? sides.find((s) => s.handle !== c.requester)! : sides[who];
    const other = sides.find((s) => s !== actor)!;
    this.counts.answers++;
    const res = await this.call('POST', `/users/${actor.handle}/conversations/${other.handle}/${kind}`, actor);
    const what = `${label}: ${actor.handle} ${kind}s (${c.messages.size === 0 ? 'no messages' : c.status}${c.requester ? `, asked by ${c.requester}` : ''})`;
    const expect = (status: number, check: (r: ApiResponse) => boolean, text: string) => {
      if (res.status !== status || !check(res))
        this.mismatches.push(`${what}: answered ${describe(res)} ${res.text.slice(0, 100)}, expected ${text}`);
    };
    if (c.messages.size === 0)
      return expect(404, (r) => errorCode(r) === 'conversation_not_found', '404 conversation_not_found');
    const recipient = c.status !== 'open' && c.requester !== actor.handle;
    if (kind === 'accept') {
      if (c.status === 'open' || (c.status === 'request' && recipient)) {
        expect(200, (r) => r.json.state === 'open', "200 { state: 'open' }");
        c.status = 'open';
        delete c.requester;
      } else expect(409, (r) => errorCode(r) === 'no_request', '409 no_request');
    } else if (recipient) {
      expect(200, (r) => r.json.declined === true, '200 { declined: true }');
      c.status = 'declined';
    } else expect(409, (r) => errorCode(r) === 'no_request', '409 no_request');
  }

  private async block(actor: Actor, target: Actor, label: string): Promise<void> {
    // A block stands either way: lifted by whoever made it (a script spends few steps refused).
    const [who, other] = this.model.blocks.has(`${target.handle}>${actor.handle}`) ? [target, actor] : [actor, target];
    const key = `${who.handle}>${other.handle}`;
    const unblock = this.model.blocks.has(key);
    this.counts.blocks++;
    const res = await this.call(unblock ? 'DELETE' : 'PUT', `/users/${who.handle}/blocks/${other.handle}`, who);
    if (res.status !== 200) {
      this.mismatches.push(
        `${label}: ${who.handle} ${unblock ? 'unblocks' : 'blocks'} ${other.handle}: ${describe(res)}`,
      );
      return;
    }
    if (unblock) this.model.blocks.delete(key);
    else {
      this.model.blocks.add(key);
      this.model.follows.delete(key);
      this.model.follows.delete(`${other.handle}>${who.handle}`);
    }
  }

  /** Once settled: the pages, the lists and the badges of the message users. Returns the requests sent. */
  async compare(): Promise<number> {
    let requests = 0;
    const get = (path: string, as: Actor) => {
      requests++;
      return read(this.api, path, { token: as.token });
    };
    const found: string[] = [];
    const byHandle = new Map(this.users.map((u) => [u.handle, u]));
    await Promise.all(
      this.plan.pairs.flatMap((p) => {
        const pair = [this.users[p.a]!, this.users[p.b]!];
        return pair.map(async (me, i) => {
          const peer = pair[1 - i]!;
          const c = this.model.conversation(me.handle, peer.handle);
          const res = await get(`/users/${me.handle}/conversations/${peer.handle}?limit=50`, me);
          const where = `dm page of ${me.handle} with ${peer.handle}`;
          if (c.messages.size === 0) {
            if (res.status !== 404 || errorCode(res) !== 'conversation_not_found')
              found.push(`${where}: ${describe(res)}, expected 404 conversation_not_found (no message sent)`);
            return;
          }
          if (res.status !== 200) return void found.push(`${where}: ${describe(res)}`);
          const expected = {
            state: this.model.stateFor(c, me.handle),
            head: c.messages.size,
            readUpTo: c.read.get(me.handle) ?? 0,
            peerReadUpTo: c.read.get(peer.handle) ?? 0,
            messages: [...c.messages.values()].sort((x, y) => x.seq - y.seq).map(viewOf),
          };
          const actual = {
            state: res.json.state,
            head: res.json.head,
            readUpTo: res.json.readUpTo,
            peerReadUpTo: res.json.peerReadUpTo,
            messages: (res.json.messages as ModelMessage[]).map(viewOf),
          };
          if (res.json.nextCursor) found.push(`${where}: a next page after ${c.messages.size} messages`);
          if (JSON.stringify(actual) !== JSON.stringify(expected))
            found.push(`${where}: ${JSON.stringify(actual)}, model ${JSON.stringify(expected)}`);
        });
      }),
    );
    await Promise.all(
      this.users.map(async (me) => {
        const mine = this.model.all().filter((c) => c.people.includes(me.handle));
        for (const box of ['main', 'requests'] as const) {
          const res = await get(`/users/${me.handle}/conversations?box=${box}&limit=50`, me);
          const where = `dm ${box} list of ${me.handle}`;
          if (res.status !== 200) {
            found.push(`${where}: ${describe(res)}`);
            continue;
          }
          const listed = res.json.conversations as {
            peer: { handle: string };
            state: string;
            unread: number;
            activityAt: string;
            readUpTo: number;
            peerReadUpTo: number;
            last: { seq: number; recalled: boolean; from: string } | null;
          }[];
          const expected = mine.filter((c) => this.model.boxOf(c, me.handle) === box);
          const peers = listed.map((e) => e.peer.handle);
          const wanted = expected.map((c) => c.people.find((h) => h !== me.handle)!);
          if (
            peers.length !== new Set(peers).size ||
            peers.length !== wanted.length ||
            wanted.some((w) => !peers.includes(w))
          )
            found.push(`${where}: peers [${peers.join(', ')}], model [${wanted.join(', ')}]`);
          for (let i = 1; i < listed.length; i++)
            if (Date.parse(listed[i]!.activityAt) > Date.parse(listed[i - 1]!.activityAt))
              found.push(`${where}: ${peers[i]} listed after ${peers[i - 1]}, with later activity`);
          for (const e of listed) {
            const c = expected.find((x) => x.people.includes(e.peer.handle));
            if (!c || !byHandle.has(e.peer.handle)) continue;
            const lastSeq = c.messages.size;
            const last = c.messages.get(lastSeq)!;
            const want = {
              state: this.model.stateFor(c, me.handle),
              unread: this.model.unread(c, me.handle),
              activityAt: new Date(c.activityAt).toISOString(),
              readUpTo: c.read.get(me.handle) ?? 0,
              peerReadUpTo: c.read.get(e.peer.handle) ?? 0,
              last: { seq: last.seq, from: last.from, recalled: last.recalled },
            };
            const got = {
              state: e.state,
              unread: e.unread,
              activityAt: e.activityAt,
              readUpTo: e.readUpTo,
              peerReadUpTo: e.peerReadUpTo,
              last: e.last && { seq: e.last.seq, from: e.last.from, recalled: e.last.recalled },
            };
            if (JSON.stringify(got) !== JSON.stringify(want))
              found.push(`${where}, ${e.peer.handle}: ${JSON.stringify(got)}, model ${JSON.stringify(want)}`);
          }
        }
        const badge = await get(`/users/${me.handle}/message-badge`, me);
        const want = {
          unread: mine
            .filter((c) => this.model.boxOf(c, me.handle) === 'main')
            .reduce((n, c) => n + this.model.unread(c, me.handle), 0),
          requests: mine.filter((c) => this.model.boxOf(c, me.handle) === 'requests').length,
        };
        if (badge.status !== 200 || badge.json.unread !== want.unread || badge.json.requests !== want.requests)
          found.push(
            `dm badge of ${me.handle}: ${describe(badge)} ${badge.text.slice(0, 100)}, model ${JSON.stringify(want)}`,
          );
      }),
    );
    this.mismatches.push(...found);
    return requests;
  }

  describe(): string {
    const c = this.counts;
    return `${c.sends} sends (${c.retries} retried in turn, ${c.racingRetries} retried at once), ${c.both} both-sides-at-once; of the messages ${c.landed} landed, ${c.refused} were refused across a block, ${c.pending} as a full or declined request; ${c.recalls} recalls, ${c.reads} read markers, ${c.answers} accepts/declines, ${c.blocks} blocks/unblocks`;
  }
}
