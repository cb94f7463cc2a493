// test/unit/web-post-sync.test.ts — web/src/features/posts/sync.ts: a post shown twice in a list
// (itself, and as the original inside reposts) changes in every place at once.
import { describe, expect, it } from 'vitest';
import type { Post } from '../../web/src/api/client.js';
import { withChanged } from '../../web/src/features/posts/sync.js';

const counts = { likeCount: 0, commentCount: 0, repostCount: 0, liked: false, reposted: false };
const post = (id: string, extra: Partial<Post> = {}): Post => ({ id, author: id.split('.')[0]!, body: id, ...counts, ...extra }) as unknown as Post;
const live = (p: Post) => ({ ...p, state: 'live' as const });

describe('withChanged', () => {
  it('a like on the original moves the counts in every repost that embeds it', () => {
    const original = post('ann.1');
    const repost = post('bob.2', { repostOf: live(original) } as Partial<Post>);
    const other = post('cat.3');
    const liked = { ...original, likeCount: 1, liked: true };
    const [r, o, x] = withChanged([repost, original, other], liked);
    expect(o).toBe(liked);
    expect((r!.repostOf as { likeCount: number; liked: boolean })).toMatchObject({ likeCount: 1, liked: true, state: 'live' });
    expect(x).toBe(other); // untouched, same object
  });

  it('a repost whose embedded original changed moves the original’s card and other reposts of it', () => {
    const original = post('ann.1');
    const first = post('bob.2', { repostOf: live(original) } as Partial<Post>);
    const second = post('cat.3', { repostOf: live(original) } as Partial<Post>);
    const changed = { ...first, repostOf: live({ ...original, repostCount: 3, reposted: true }) } as Post;
    const [a, b, c] = withChanged([first, second, original], changed);
    expect(a).toBe(changed);
    expect(b!.repostOf).toMatchObject({ repostCount: 3, reposted: true });
    expect(c).toMatchObject({ repostCount: 3, reposted: true });
  });
});
