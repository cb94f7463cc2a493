// web/src/features/posts/paged-posts.tsx — a cursor-paged list of posts as every list page shows
// it (an author's posts, a topic's, your bookmarks): the cards, each change kept in the list
// (sync.ts), a deleted post taken out, and the footer that loads more.
import type { ComponentChildren } from 'preact';
import type { Post } from '../../api/client';
import { PagedFooter, type Paged } from '../../components/paged';
import type { Marks } from '../../components/rich-text';
import { PostCard } from './post-card';
import { withChanged } from './sync';

export function PagedPosts({
  list,
  empty,
  onReposted,
  marks,
}: {
  list: Paged<Post>;
  empty: ComponentChildren;
  onReposted?: (repost: Post) => void;
  /** A search's matched spans, by post id. */
  marks?: ReadonlyMap<string, Marks>;
}) {
  return (
    <>
      <div class="feed">
        {list.items.map((post) => (
          <PostCard
            key={post.id}
            post={post}
            onChange={(next) => list.setItems((items) => withChanged(items, next))}
            {...(onReposted ? { onReposted } : {})}
            {...(marks?.has(post.id) ? { marks: marks.get(post.id)! } : {})}
            onDeleted={(id) => list.setItems((items) => items.filter((p) => p.id !== id))}
          />
        ))}
      </div>
      <PagedFooter list={list} empty={empty} />
    </>
  );
}
