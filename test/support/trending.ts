// test/support/trending.ts — puts a test's topics at the top of the trending list.
// Trending is the top 10 topics of the last hour across the whole database, and in a full run
// earlier files (hostile inputs, the model check, other stories) leave topics with several posts
// each: a topic with one or two posts may rank below ten of them, as a CI run showed. So a test
// that expects its topic trending first gives it more posts than the current leader has.
import { expect } from 'vitest';
import type { apiClient } from './api.js';

/** The ranking may be up to one cache period old (topics.ts), so the leader may have grown since. */
const MARGIN = 3;

/**
 * Publishes posts carrying every one of `topics` (as `#name#`) from a fresh user until they
 * outnumber the current leader by MARGIN; returns how many posts it published.
 */
export async function makeTrending(api: ReturnType<typeof apiClient>, topics: string[]): Promise<number> {
  const now = await api.call('GET', '/topics/trending');
  expect(now.status).toBe(200);
  const leader = Math.max(0, ...(now.json.topics as { posts: number }[]).map((t) => t.posts));
  const poster = await api.newUser('trend');
  const body = topics.map((t) => `#${t}#`).join(' ');
  const count = leader + MARGIN;
  for (let i = 0; i < count; i++) {
    const res = await api.call('POST', '/posts', { token: poster.token, body: { body } });
    expect(res.status).toBe(201);
  }
  return count;
}
