// test/bench/feed/group-fanout.ts — what groups (分组) and 特别关注 cost the fan-out. Groups add no
// inbox writes: the first message of each post reads the author's holders index beside its other
// first reads, and reconciles a `special` notice for each fan keeping the author in 特别关注.
// Measured on the fan-out author (s.lagFollowers followers), against the same raw batch puts as
// ./fanout.ts, with the author:
//   (groups)  in G ordinary groups, one group of each of G followers (s.groupCounts);
//   (special) in the 特别关注 of G followers (s.specialCounts), with the time from the publish to
//             the last special notice written, and how many were written.
// Members are put through the use cases (createGroup, addToGroup) on the real stores, not HTTP;
// the ordinary groups are deleted (deleteGroup) before the 特别关注 cases, so each case holds
// only what it says.
import { performance } from 'node:perf_hooks';
import { SPECIAL_GROUP_ID } from '../../../shared/domain/groups.js';
import type { NotificationStore } from '../../../shared/ports/social-store.js';
import { addToGroup, createGroup, deleteGroup } from '../../../shared/use-cases/groups.js';
import type { BenchContext } from './context.js';
import { runFanout, type FanoutResult } from './fanout.js';

export interface GroupFanoutCase extends FanoutResult {
  kind: 'groups' | 'special';
  /** Groups holding the author (ordinary groups, or fans' 特别关注). */
  groups: number;
  /** Per timed post, publish start → the last special notice listed (special only). */
  noticeMs: number[];
  noticeMsMedian: number | null;
  noticeMsMax: number | null;
  /** Distinct fans whose special notice was listed, per post (the fewest over the posts). */
  noticesPerPostMin: number;
}

export interface GroupFanoutResult {
  author: string;
  followers: number;
  groups: GroupFanoutCase[];
  special: GroupFanoutCase[];
  /** Wall time of putting the members in (and the ordinary groups out), through the use cases. */
  setupSeconds: number;
}

/** Runs `task` over `items`, `width` at a time. */
async function eachAtOnce<T>(items: T[], width: number, task: (item: T) => Promise<unknown>): Promise<void> {
  let next = 0;
  await Promise.all(
    Array.from({ length: Math.min(width, items.length) }, async () => {
      while (next < items.length) await task(items[next++]!);
    }),
  );
}

/** The notification store, noting when each special notice is listed (its last write) and for whom. */
function noticeClock(store: NotificationStore) {
  const clock = { last: 0, fans: new Set<string>() };
  const listing: NotificationStore['list'] = async (recipient, groupKey, ...rest) => {
    await store.list(recipient, groupKey, ...rest);
    if (groupKey.startsWith(`${SPECIAL_GROUP_ID}/`)) {
      clock.last = performance.now();
      clock.fans.add(recipient);
    }
  };
  const clocked = new Proxy(store, {
    get: (target, prop) => {
      if (prop === 'list') return listing;
      const value = Reflect.get(target, prop, target) as unknown;
      return typeof value === 'function' ? value.bind(target) : value;
    },
  });
  return { clock, clocked };
}

const median = (xs: number[]) => {
  const sorted = [...xs].sort((a, b) => a - b);
  return sorted[Math.floor((sorted.length - 1) / 2)]!;
};

export async function runGroupFanout(ctx: BenchContext): Promise<GroupFanoutResult> {
  const author = ctx.pool.authors[0]!;
  const { clock, clocked } = noticeClock(ctx.deps.notifications);
  const timed: BenchContext = { ...ctx, deps: { ...ctx.deps, notifications: clocked } };
  const deps = ctx.deps;
  const width = ctx.s.writeConcurrency * 4;
  const steps = ctx.s.groupCounts.length + ctx.s.specialCounts.length;
  let setupMs = 0;
  let step = 0;

  const measure = async (kind: GroupFanoutCase['kind'], groups: number): Promise<GroupFanoutCase> => {
    const noticeMs: number[] = [];
    const fansPerPost: number[] = [];
    const result = await runFanout(timed, author, ctx.s.groupReps, {
      publishing: () => {
        clock.last = 0;
        clock.fans.clear();
      },
      drained: (since) => {
        fansPerPost.push(clock.fans.size);
        if (kind === 'special') noticeMs.push(Math.round(clock.last - since));
      },
    });
    ctx.progress.update(++step / steps, `${kind} ${groups}`);
    return {
      ...result,
      kind,
      groups,
      noticeMs,
      noticeMsMedian: noticeMs.length ? median(noticeMs) : null,
      noticeMsMax: noticeMs.length ? Math.max(...noticeMs) : null,
      noticesPerPostMin: Math.min(...fansPerPost),
    };
  };
  const fansUpTo = (count: number) => {
    if (count > author.followers)
      throw new Error(`${count} groups need as many followers of ${author.handle}, who has ${author.followers}`);
    return ctx.pool.handles.slice(0, count);
  };

  // (groups) one ordinary group per fan, holding the author; grown case by case.
  const owned: { fan: string; groupId: string }[] = [];
  const groups: GroupFanoutCase[] = [];
  for (const count of ctx.s.groupCounts) {
    const t0 = performance.now();
    await eachAtOnce(fansUpTo(count).slice(owned.length), width, async (fan) => {
      const group = await createGroup(deps, fan, '同事');
      await addToGroup(deps, fan, group.id, author.handle);
      owned.push({ fan, groupId: group.id });
    });
    setupMs += performance.now() - t0;
    groups.push(await measure('groups', count));
  }
  const t1 = performance.now();
  await eachAtOnce(owned, width, ({ fan, groupId }) => deleteGroup(deps, fan, groupId));
  setupMs += performance.now() - t1;
  if ((await deps.groups.holders(author.handle)).length !== 0)
    throw new Error(`${author.handle} is still held after the ordinary groups were deleted`);

  // (special) in the fans' 特别关注; grown case by case.
  let fans = 0;
  const special: GroupFanoutCase[] = [];
  for (const count of ctx.s.specialCounts) {
    const t0 = performance.now();
    await eachAtOnce(fansUpTo(count).slice(fans), width, (fan) =>
      addToGroup(deps, fan, SPECIAL_GROUP_ID, author.handle),
    );
    fans = count;
    setupMs += performance.now() - t0;
    const measured = await measure('special', count);
    if (measured.noticesPerPostMin !== count)
      throw new Error(`a post reached ${measured.noticesPerPostMin} of its author's ${count} 特别关注 fans' notices`);
    special.push(measured);
  }
  return {
    author: author.handle,
    followers: author.followers,
    groups,
    special,
    setupSeconds: Math.round(setupMs / 100) / 10,
  };
}
