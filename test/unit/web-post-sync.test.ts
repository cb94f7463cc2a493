// test/unit/web-post-sync.test.ts — web/src/features/posts/sync.ts: a post shown twice in a list
// (itself, and as the original inside reposts) changes in every place at once.
import { describe, expect, it } from 'vitest';
import { withChanged } from '../../web/src/features/posts/sync.js';

const counts = { likeCount: 0, commentCount: 0, repostCount: 0, liked: false, reposted: false };
type Live = typeof counts & { id: string; state: 'live' };
type Post = typeof counts & { id: string; body: string; repostOf?: Live };
const post = (id: string, extra: Partial<Post> = {}): Post => ({ id, body: id, ...counts, ...extra });
const live = (p: Post): Live => ({
  id: p.id,
  likeCount: p.likeCount,
  commentCount: p.commentCount,
  repostCount: p.repostCount,
  liked: p.liked,
  reposted: p.reposted,
  state: 'live',
});

describe('withChanged', () => {
  it('a like on the original moves the counts in every repost that embeds it', () => {
    const original = post('ann.1');
    const repost = post('bob.2', { repostOf: live(original) });
    const other = post('cat.3');
    const liked = { ...original, likeCount: 1, liked: true };
    const [r, o, x] = withChanged([repost, original, other], liked);
    expect(o).toBe(liked);
    expect(r!.repostOf as { likeCount: number; liked: boolean }).toMatchObject({
      likeCount: 1,
      liked: true,
      state: 'live',
    });
    expect(x).toBe(other); // untouched, same object
  });

  it('a repost whose embedded original changed moves the original’s card and other reposts of it', () => {
    const original = post('ann.1');
    const first = post('bob.2', { repostOf: live(original) });
    const second = post('cat.3', { repostOf: live(original) });
    const changed: Post = { ...first, repostOf: live({ ...original, repostCount: 3, reposted: true }) };
    const [a, b, c] = withChanged([first, second, original], changed);
    expect(a).toBe(changed);
    expect(b!.repostOf).toMatchObject({ repostCount: 3, reposted: true });
    expect(c).toMatchObject({ repostCount: 3, reposted: true });
  });
});
