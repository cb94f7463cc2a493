// test/load/workload.ts — a sustained mixed workload against a running API (`npm start`, or the
// e2e stack), checked against the model test's reference model (test/support/model/*): reads
// 80 %, publishes, likes and unlikes, comments, follows and unfollows, deletes, at a stated
// arrival rate with a bound on requests in flight and on the total; two bursts on top (100
// concurrent follows of one user, 100 concurrent likes of one post); then the fan-out queue
// drains and every touched timeline, list and count is compared with the model. Writes go
// through the model's Driver, one request per wave, so its answers update the model exactly as
// in the model check; the run never sends two requests that could race on one edge, like or
// post (subject locks), so every expected answer is known — a race is the model check's job.
import { performance } from 'node:perf_hooks';
import { setTimeout as sleep } from 'node:timers/promises';
import { localSqsClient } from '../../infra/local/sqs-poller.js';
import { percentile } from '../bench/stats.js';
import { compareWithModel, type CompareStats } from '../support/model/compare.js';
import { Driver, ModelLost, registerActor, type Actor } from '../support/model/driver.js';
import { callSafely, sendUntilAnswered, type Api } from '../support/model/http.js';
import type { Group, Plan, Step } from '../support/model/plan.js';
import { seededRng, type Rng } from '../support/model/prng.js';
import { ReferenceModel } from '../support/model/reference-model.js';
import { queueDrained } from '../support/queue.js';
import { instrumentedApi, Recorder, type RouteClass } from './instrumented-api.js';

export interface LoadOptions {
  apiUrl: string;
  sqsEndpoint: string;
  /** The fan-out queue the API's worker drains: the run waits for it before comparing. */
  queueUrl: string;
  /** Arrivals per second of the mixed workload (bursts apart). */
  rate: number;
  durationSeconds: number;
  /** Workload requests in flight at most: an arrival finding them all busy is dropped (and counted). */
  concurrency: number;
  /** The workload's arrivals at most (default rate × duration). */
  maxRequests?: number;
  /** Users of the mixed workload. */
  users: number;
  /** The burst size: that many more users follow one user at once, and like one post at once. */
  burst: number;
  seed: number;
  drainTimeoutSeconds?: number;
  log?: (line: string) => void;
  /**
   * A 503 with Retry-After is counted apart, not as an error (the chaos run: a REST gateway
   * restart makes the API answer it, and the client sends again).
   */
  retryLaterIsAnswer?: boolean;
  /** Called as the run phase starts (with the workload's handles), and once every request of it (bursts included) has its answer. */
  onRunStart?: (handles: readonly string[]) => void;
  onRunEnd?: () => Promise<void>;
}

export interface RouteFigures {
  route: RouteClass | `burst ${RouteClass}`;
  n: number;
  p50Ms: number;
  p99Ms: number;
  maxMs: number;
}

export interface LoadReport {
  seed: number;
  targetRate: number;
  /** Workload arrivals sent per second of the run (dropped ones not counted). */
  achievedRate: number;
  /** Every request of the run phase per second (the driver's resends included). */
  requestRate: number;
  runSeconds: number;
  arrivals: number;
  dropped: number;
  maxInFlight: number;
  requests: Record<string, number>;
  errors: number;
  errorsByPhase: Record<string, number>;
  errorSamples: string[];
  mismatches: string[];
  routes: RouteFigures[];
  bursts: { name: string; requests: number; ms: number; p50Ms: number; p99Ms: number }[];
  drainSeconds: number;
  compareSeconds: number;
  compared: CompareStats & { crowdChecked: number };
  /** 503s with Retry-After by phase, and when each came (epoch ms): counted apart with retryLaterIsAnswer. */
  retryLater: Record<string, number>;
  retryLaterAt: number[];
  /** The run's and the bursts' answers: 5xx by status, and the timeouts among them. */
  answers: { total: number; status5xx: Record<string, number>; api503Timeouts: number; emulator504Timeouts: number };
}

/** Weights of the mix (per 100 arrivals): reads 80, writes 20. */
const MIX = {
  timeline: 36,
  userPosts: 14,
  post: 10,
  relations: 6,
  reactions: 8,
  profile: 6,
  publish: 5,
  like: 6,
  comment: 3,
  follow: 5,
  delete: 1,
} as const;
type OpKind = keyof typeof MIX;

/**
 * Per user and rolling minute, at most half the API's per-minute quotas (LIKES_PER_MINUTE 60,
 * COMMENTS_PER_MINUTE 20): a rolling minute holds every calendar minute the server counts in,
 * and the half leaves room for resent requests. A 429 is then never the run's doing.
 */
const PER_MINUTE = { like: 30, comment: 10 } as const;
/** Crowd users compared in full (timeline, every list, counts): the others by their following list and counts. */
const CROWD_COMPARED = 5;
/** Requests at once while registering and seeding, and while checking the crowd (the local emulator runs at most 4 of one function at once and queues the rest: infra/plugins/offline-errors.cjs). */
const SETUP_CONCURRENCY = 8;
/** Where in the run the bursts start (share of the duration). */
const FOLLOW_BURST_AT = 0.3;
const LIKE_BURST_AT = 0.6;
const READ_LIMIT = 20;

export async function runLoad(opts: LoadOptions): Promise<LoadReport> {
  const log = opts.log ?? (() => {});
  const recorder = new Recorder();
  recorder.retryLaterIsAnswer = opts.retryLaterIsAnswer ?? false;
  const api = instrumentedApi(opts.apiUrl, recorder);
  const rng = seededRng(opts.seed);
  const tag = `l${opts.seed.toString(36)}`;

  // --- users: the workload's, and the crowd of the bursts ------------------------------------------
  const handles = [
    ...Array.from({ length: opts.users }, (_, i) => `${tag}_u${i}`),
    ...Array.from({ length: opts.burst }, (_, i) => `${tag}_c${i}`),
  ];
  const t0 = performance.now();
  const users = await inBatches(handles, SETUP_CONCURRENCY, (h) => register(api, h));
  log(
    `registered ${users.length} users (${opts.users} in the workload, ${opts.burst} in the bursts) in ${seconds(t0)} s`,
  );
  const core = users.slice(0, opts.users);
  const crowd = users.slice(opts.users);
  const plan: Plan = { seed: opts.seed, users: users.length, slots: [], comments: [], waves: [] };
  const model = new ReferenceModel(handles);
  const driver = new Driver(api, plan, users, model);
  // The bursts' own driver: the same plan and model, their requests recorded as the bursts'.
  const burstDriver = new Driver(instrumentedApi(opts.apiUrl, recorder, 'burst'), plan, users, model);
  const state = new RunState(rng, plan, model, tag);
  const findings: string[] = [];
  let wave = 0;
  const runStep = async (label: string, step: Step) => {
    try {
      await driver.runWave(wave++, [{ label, tasks: [[step]] }]);
    } catch (err) {
      findings.push(
        err instanceof ModelLost ? err.message : `${label}: ${err instanceof Error ? err.message : String(err)}`,
      );
    }
  };
  const runBurstWave = async (groups: Group[]) => {
    try {
      await burstDriver.runWave(wave++, groups);
    } catch (err) {
      findings.push(
        err instanceof ModelLost
          ? err.message
          : `${groups[0]?.label}: ${err instanceof Error ? err.message : String(err)}`,
      );
    }
  };

  // --- seed: a post each, and each user follows the next three ------------------------------------
  const seeding: [string, Step][] = [
    ...core.map((_, u) => ['seed publish', { kind: 'publish', slot: state.newSlot(u) }] as [string, Step]),
    ...core.flatMap((_, u) =>
      [1, 2, 3].map((d) => ['seed follow', { kind: 'follow', pair: [u, (u + d) % core.length] }] as [string, Step]),
    ),
  ];
  await inBatches(seeding, SETUP_CONCURRENCY, ([label, step]) => runStep(label, step));
  // The like burst's post: the first user's seed post, never deleted (its 100 likers are compared).
  const burstSlot = 0;
  state.pinned.add(burstSlot);
  log(`seeded ${core.length} posts and ${core.length * 3} follows in ${seconds(t0)} s`);

  // --- the run ---------------------------------------------------------------------------------
  recorder.phase = 'run';
  opts.onRunStart?.(core.map((u) => u.handle));
  const maxArrivals = opts.maxRequests ?? Math.round(opts.rate * opts.durationSeconds);
  const inFlight = new Set<Promise<void>>();
  const bursts: LoadReport['bursts'] = [];
  const burstRuns: Promise<void>[] = [];
  const runBurst = async (name: string, route: 'follow' | 'like', groups: Group[]) => {
    const before = recorder.latencies.get(`burst ${route}`)?.length ?? 0;
    const start = performance.now();
    await runBurstWave(groups);
    const ms = performance.now() - start;
    const samples = (recorder.latencies.get(`burst ${route}`) ?? []).slice(before);
    bursts.push({
      name,
      requests: groups.length,
      ms: Math.round(ms),
      p50Ms: round(percentile(samples, 50)),
      p99Ms: round(percentile(samples, 99)),
    });
    log(`burst: ${name} — ${groups.length} requests in ${(ms / 1000).toFixed(1)} s`);
  };
  const runStart = performance.now();
  let arrivals = 0;
  let dropped = 0;
  let followBurst = crowd.length === 0;
  let likeBurst = crowd.length === 0;
  let lastReport = runStart;
  for (;;) {
    const elapsed = (performance.now() - runStart) / 1000;
    if (elapsed >= opts.durationSeconds || arrivals >= maxArrivals) break;
    const due = Math.min(maxArrivals, Math.floor(elapsed * opts.rate) + 1);
    for (; arrivals < due; arrivals++) {
      if (inFlight.size >= opts.concurrency) {
        dropped++;
        continue;
      }
      const work = state.nextOp(core, api, runStep, findings).finally(() => inFlight.delete(work));
      inFlight.add(work);
    }
    if (!followBurst && elapsed >= opts.durationSeconds * FOLLOW_BURST_AT) {
      followBurst = true;
      const star = 0;
      const groups = crowd.map((_, c) => ({
        label: 'follow burst',
        tasks: [[{ kind: 'follow', pair: [opts.users + c, star] } as Step]],
      }));
      burstRuns.push(runBurst(`follows of ${core[star]!.handle} by ${crowd.length} users at once`, 'follow', groups));
    }
    if (!likeBurst && elapsed >= opts.durationSeconds * LIKE_BURST_AT) {
      likeBurst = true;
      const groups = crowd.map((_, c) => ({
        label: 'like burst',
        tasks: [[{ kind: 'like', user: opts.users + c, slot: burstSlot } as Step]],
      }));
      burstRuns.push(runBurst(`likes of post #${burstSlot} by ${crowd.length} users at once`, 'like', groups));
    }
    if (performance.now() - lastReport >= 10_000) {
      lastReport = performance.now();
      log(
        `  ${elapsed.toFixed(0)} s: ${arrivals - dropped} sent, ${dropped} dropped, ${recorder.inFlight} in flight, ${recorder.failures.run + recorder.failures.burst} errors`,
      );
    }
    await sleep(Math.max(1, Math.min(20, 1000 / opts.rate)));
  }
  const sentSeconds = (performance.now() - runStart) / 1000;
  await Promise.all([...inFlight, ...burstRuns]);
  const runSeconds = (performance.now() - runStart) / 1000;
  await opts.onRunEnd?.();
  log(
    `run: ${arrivals - dropped} arrivals sent in ${sentSeconds.toFixed(1)} s (${dropped} dropped at the concurrency bound), all answered after ${runSeconds.toFixed(1)} s`,
  );

  // --- drain, then compare ---------------------------------------------------------------------------
  recorder.phase = 'compare';
  const drainStart = performance.now();
  const sqs = localSqsClient(opts.sqsEndpoint);
  try {
    await queueDrained(sqs, opts.queueUrl, (opts.drainTimeoutSeconds ?? 180) * 1000, 500);
  } catch (err) {
    findings.push(err instanceof Error ? err.message : String(err));
  } finally {
    sqs.destroy();
  }
  const drainSeconds = (performance.now() - drainStart) / 1000;
  log(`queue drained in ${drainSeconds.toFixed(1)} s; comparing with the model`);
  const compareStart = performance.now();
  const stats: CompareStats = { views: 0, commentLists: 0, likerLists: 0, notifications: 0, notificationsSkipped: 0 };
  const compared = [...core, ...crowd.slice(0, CROWD_COMPARED)];
  findings.push(...(await compareWithModel(api, model, compared, stats)));
  const rest = crowd.slice(CROWD_COMPARED);
  findings.push(...(await inBatches(rest, SETUP_CONCURRENCY, (u) => compareCrowdMember(api, model, u.handle))).flat());
  const compareSeconds = (performance.now() - compareStart) / 1000;

  const routes = [...recorder.latencies].map(([route, samples]) => ({
    route,
    n: samples.length,
    p50Ms: round(percentile(samples, 50)),
    p99Ms: round(percentile(samples, 99)),
    maxMs: round(Math.max(...samples)),
  }));
  routes.sort((a, b) => a.route.localeCompare(b.route));
  return {
    seed: opts.seed,
    targetRate: opts.rate,
    achievedRate: round((arrivals - dropped) / sentSeconds),
    requestRate: round((recorder.requests.run + recorder.requests.burst) / runSeconds),
    runSeconds: round(runSeconds),
    arrivals,
    dropped,
    maxInFlight: recorder.maxInFlight,
    requests: { ...recorder.requests },
    errors: recorder.totalFailures,
    errorsByPhase: { ...recorder.failures },
    errorSamples: recorder.quoted.map((f) => `[${f.phase}] ${f.what}`),
    retryLater: { ...recorder.retryLater },
    retryLaterAt: [...recorder.retryLaterAt],
    mismatches: [...driver.mismatches, ...burstDriver.mismatches, ...state.readProblems, ...findings],
    routes,
    bursts,
    drainSeconds: round(drainSeconds),
    compareSeconds: round(compareSeconds),
    compared: { ...stats, crowdChecked: rest.length },
    answers: {
      total: recorder.answers.answers,
      status5xx: Object.fromEntries([...recorder.answers.status5xx].map(([status, n]) => [String(status), n])),
      api503Timeouts: recorder.answers.api503,
      emulator504Timeouts: recorder.answers.emulator504,
    },
  };
}

/**
 * What the run intends, only to choose meaningful requests (an unlike of a liked post, a delete
 * of a live one) and to keep two requests off one subject at once; the model, fed by the
 * driver from the answers, judges. Subjects: `post:<slot>` (shared by likes, comments and reads
 * of the post, exclusive for its delete), `like:<user>>slot`, `edge:<a>><b>`.
 */
class RunState {
  readonly pinned = new Set<number>();
  readonly readProblems: string[] = [];
  private readonly shared = new Map<string, number>();
  private readonly exclusive = new Set<string>();
  private readonly quota = new Map<string, number[]>();
  private readonly weights: [OpKind, number][] = Object.entries(MIX) as [OpKind, number][];
  private readonly totalWeight = Object.values(MIX).reduce((a, b) => a + b, 0);

  constructor(
    private readonly rng: Rng,
    private readonly plan: Plan,
    private readonly model: ReferenceModel,
    private readonly tag: string,
  ) {}

  newSlot(author: number): number {
    const slot = this.plan.slots.length;
    this.plan.slots.push({
      author,
      body: `load ${this.tag} post ${slot} by user ${author}`,
      key: `${this.tag}-p${slot}`,
    });
    return slot;
  }

  /** One arrival: a request chosen by the mix; a write whose subject is busy becomes a read. */
  async nextOp(
    core: readonly Actor[],
    api: Api,
    runStep: (label: string, step: Step) => Promise<void>,
    findings: string[],
  ): Promise<void> {
    const kind = this.pickKind();
    const u = this.rng.int(0, core.length - 1);
    const user = core[u]!;
    try {
      switch (kind) {
        case 'publish':
          return await runStep('publish', { kind: 'publish', slot: this.newSlot(u) });
        case 'delete': {
          const slot = this.livePost((s) => this.plan.slots[s]!.author < core.length && !this.pinned.has(s));
          if (slot === undefined || !this.take([], [`post:${slot}`])) break;
          try {
            return await runStep('delete', { kind: 'delete', slot });
          } finally {
            this.release([], [`post:${slot}`]);
          }
        }
        case 'like': {
          const slot = this.livePost();
          if (slot === undefined || !this.withinQuota(u, 'like') || !this.take([`post:${slot}`], [`like:${u}>${slot}`]))
            break;
          try {
            const liked = this.model.post(slot)!.likers.has(user.handle);
            return await runStep(liked ? 'unlike' : 'like', { kind: liked ? 'unlike' : 'like', user: u, slot });
          } finally {
            this.release([`post:${slot}`], [`like:${u}>${slot}`]);
          }
        }
        case 'comment': {
          const slot = this.livePost();
          if (slot === undefined || !this.withinQuota(u, 'comment') || !this.take([`post:${slot}`], [])) break;
          try {
            const index = this.plan.comments.length;
            this.plan.comments.push({ post: slot, author: u, body: `load ${this.tag} comment ${index} by user ${u}` });
            return await runStep('comment', { kind: 'comment', comment: index });
          } finally {
            this.release([`post:${slot}`], []);
          }
        }
        case 'follow': {
          const v = (u + this.rng.int(1, core.length - 1)) % core.length;
          const edge = `edge:${u}>${v}`;
          if (!this.take([], [edge])) break;
          try {
            const on = !this.model.follows(user.handle, core[v]!.handle);
            return await runStep(on ? 'follow' : 'unfollow', { kind: on ? 'follow' : 'unfollow', pair: [u, v] });
          } finally {
            this.release([], [edge]);
          }
        }
        default:
          return await this.read(kind, core, api);
      }
    } catch (err) {
      findings.push(`${kind}: ${err instanceof Error ? err.message : String(err)}`);
      return;
    }
    // A write with nothing to write on (or its subject busy): a timeline read keeps the rate.
    return this.read('timeline', core, api);
  }

  private async read(kind: OpKind, core: readonly Actor[], api: Api): Promise<void> {
    const reader = this.rng.pick(core);
    const other = this.rng.pick(core).handle;
    const token = { token: reader.token };
    let path: string;
    let slot: number | undefined;
    switch (kind) {
      case 'timeline':
        path = `/users/${reader.handle}/timeline?limit=${READ_LIMIT}`;
        break;
      case 'userPosts':
        path = `/users/${other}/posts?limit=${READ_LIMIT}`;
        break;
      case 'relations':
        path = `/users/${other}/${this.rng.chance(0.5) ? 'followers' : 'following'}?limit=${READ_LIMIT}`;
        break;
      case 'profile':
        path = `/users/${other}`;
        break;
      default: {
        slot = this.livePost();
        if (slot === undefined || !this.take([`post:${slot}`], [])) return this.read('timeline', core, api);
        const id = this.model.post(slot)!.id;
        path =
          kind === 'post'
            ? `/posts/${id}`
            : `/posts/${id}/${this.rng.chance(0.5) ? 'likes' : 'comments'}?limit=${READ_LIMIT}`;
      }
    }
    try {
      const res = await callSafely(api, 'GET', path, token);
      // 0 and 5xx are the recorder's failures; any other answer but 200 is wrong here.
      if (res.status !== 0 && res.status < 500 && res.status !== 200)
        this.readProblems.push(`GET ${path} by ${reader.handle} answered ${res.status}: ${res.text.slice(0, 160)}`);
    } finally {
      if (slot !== undefined) this.release([`post:${slot}`], []);
    }
  }

  private pickKind(): OpKind {
    let at = this.rng.next() * this.totalWeight;
    for (const [kind, weight] of this.weights) {
      if (at < weight) return kind;
      at -= weight;
    }
    return 'timeline';
  }

  /** A post whose publish answered, live in the model, and not being deleted. */
  private livePost(ok: (slot: number) => boolean = () => true): number | undefined {
    for (let tries = 0; tries < 8 && this.plan.slots.length > 0; tries++) {
      const slot = this.rng.int(0, this.plan.slots.length - 1);
      if (this.model.post(slot)?.live && !this.exclusive.has(`post:${slot}`) && ok(slot)) return slot;
    }
    return undefined;
  }

  private take(sharedKeys: string[], exclusiveKeys: string[]): boolean {
    if (sharedKeys.some((k) => this.exclusive.has(k))) return false;
    if (exclusiveKeys.some((k) => this.exclusive.has(k) || (this.shared.get(k) ?? 0) > 0)) return false;
    for (const k of sharedKeys) this.shared.set(k, (this.shared.get(k) ?? 0) + 1);
    for (const k of exclusiveKeys) this.exclusive.add(k);
    return true;
  }

  private release(sharedKeys: string[], exclusiveKeys: string[]): void {
    for (const k of sharedKeys) this.shared.set(k, (this.shared.get(k) ?? 1) - 1);
    for (const k of exclusiveKeys) this.exclusive.delete(k);
  }

  private withinQuota(user: number, action: keyof typeof PER_MINUTE): boolean {
    const key = `${user}:${action}`;
    const now = Date.now();
    const recent = (this.quota.get(key) ?? []).filter((t) => t > now - 60_000);
    if (recent.length >= PER_MINUTE[action]) return false;
    recent.push(now);
    this.quota.set(key, recent);
    return true;
  }
}

/** A crowd member's one follow, from its side: its following list and its profile's counts. */
async function compareCrowdMember(api: Api, model: ReferenceModel, handle: string): Promise<string[]> {
  const out: string[] = [];
  const following = (await sendUntilAnswered(() => callSafely(api, 'GET', `/users/${handle}/following?limit=100`))).res;
  const expected = model.following(handle);
  const listed = Array.isArray(following.json?.users)
    ? (following.json.users as { handle: string }[]).map((u) => u.handle)
    : undefined;
  if (following.status !== 200 || !listed)
    out.push(`following of ${handle} answered ${following.status}: ${following.text.slice(0, 160)}`);
  else if ([...listed].sort().join() !== [...expected].sort().join())
    out.push(`following of ${handle} lists ${listed.join(', ') || 'nobody'}, model ${expected.join(', ') || 'nobody'}`);
  const profile = (await sendUntilAnswered(() => callSafely(api, 'GET', `/users/${handle}`))).res;
  const counts = model.counts(handle);
  if (profile.status !== 200) out.push(`profile of ${handle} answered ${profile.status}`);
  else {
    for (const count of ['followers', 'following', 'posts'] as const) {
      if (profile.json[count] !== counts[count])
        out.push(`profile of ${handle}: ${count} ${profile.json[count]}, model ${counts[count]}`);
    }
  }
  return out;
}

const register = (api: Api, handle: string) => registerActor(api, handle, `load run ${handle}`);

/** `work` over `items`, `size` at a time, results in order. */
async function inBatches<T, R>(items: readonly T[], size: number, work: (item: T) => Promise<R>): Promise<R[]> {
  const out: R[] = new Array(items.length);
  let next = 0;
  await Promise.all(
    Array.from({ length: Math.min(size, items.length) }, async () => {
      while (next < items.length) {
        const i = next++;
        out[i] = await work(items[i]!);
      }
    }),
  );
  return out;
}

const round = (x: number) => Math.round(x * 10) / 10;
const seconds = (since: number) => ((performance.now() - since) / 1000).toFixed(1);
