// test/integration/search.test.ts — post search (搜索) on the real HBase adapters: Chinese by
// characters as written, English by folded words, topics and mentions as themselves, paging, and
// invariant V (docs/consistency.md) with each race forced step by step (test/support/interleave.ts):
// a deleted or edited post's entries never show it, an edit racing a search, and the index write
// cut half-way through a publish.
import { describe, expect, inject, it } from 'vitest';
import { HBaseRestClient } from '../../shared/hbase/index.js';
import type { FeedDeps } from '../../shared/use-cases/feed-deps.js';
import { editPost } from '../../shared/use-cases/edit-post.js';
import { deletePost, getPost } from '../../shared/use-cases/posts.js';
import { publishPost } from '../../shared/use-cases/publish-post.js';
import { searchPosts } from '../../shared/use-cases/search-posts.js';
import { block, mute } from '../../shared/use-cases/blocks.js';
import { indexTerms } from '../../shared/domain/post-search.js';
import { handleFanoutMessage } from '../../shared/use-cases/background/handlers.js';
import { userFactory, feedWorld } from '../support/feed-harness.js';
import { useNamespace } from '../support/namespace.js';

const ns = `it_search_${Date.now().toString(36)}`;
const hbase = new HBaseRestClient({ baseUrl: inject('hbaseRestUrl'), timeoutMs: 60_000 });
const { stores, gate, queued, deps } = feedWorld(hbase, ns);
useNamespace(hbase, ns);

const users = userFactory(stores.users);
const post = async (author: string, body: string, at?: number) => (await publishPost(deps, author, { body }, at)).post;
const found = async (q: string, reader?: string) =>
  (await searchPosts(deps, q, 20, undefined, reader)).items.map((p) => p.body);
// A word no other test of the run holds, so each test reads only its own posts.
const tag = () => `w${Math.random().toString(36).slice(2, 9)}`;

describe('post search (搜索)', () => {
  it('finds Chinese by the characters as written, English by folded whole words, topics and mentions as themselves', async () => {
    const [ann, bob] = await users('ann', 'bob');
    const t = tag();
    await post(ann, `${t} 今天的微博热搜是北京大学`);
    await post(ann, `${t} 微信和博客`);
    await post(bob, `${t} Café au LAIT in Ｔｏｋｙｏ`);
    await post(bob, `${t} #新话题# hello @${ann}`);
    expect(await found(`${t} 微博`)).toEqual([`${t} 今天的微博热搜是北京大学`]);
    // 微 and 博 are in the second post, but not next to each other.
    expect(await found(`${t} 北京大学`)).toEqual([`${t} 今天的微博热搜是北京大学`]);
    expect(await found(`${t} cafe tokyo`)).toEqual([`${t} Café au LAIT in Ｔｏｋｙｏ`]);
    expect(await found(`${t} caf`)).toEqual([]); // whole words
    expect(await found(`#新话题# ${t}`)).toEqual([`${t} #新话题# hello @${ann}`]);
    expect(await found(`@${ann} ${t}`)).toEqual([`${t} #新话题# hello @${ann}`]);
    const page = await searchPosts(deps, `${t} 微博`, 20);
    const [only] = page.items;
    expect(page.highlights[only!.id]).toEqual([
      [0, t.length],
      [t.length + 4, t.length + 6],
    ]);
  });

  it('pages newest first through a common word, and answers a rare word that only old posts hold', async () => {
    const [ann] = await users('ann');
    const t = tag();
    const base = Date.now() - 10_000;
    const rare = await post(ann, `${t} 罕见 old`, base);
    for (let i = 1; i <= 30; i++) await post(ann, `${t} common ${i}`, base + i);
    const seen: string[] = [];
    let cursor: string | undefined;
    do {
      const page = await searchPosts(deps, `${t} common`, 7, cursor);
      seen.push(...page.items.map((p) => p.body));
      cursor = page.nextCursor;
    } while (cursor);
    expect(seen).toEqual(Array.from({ length: 30 }, (_, i) => `${t} common ${30 - i}`));
    // The rare word's list reaches furthest back: it drives the page, whatever the other word's.
    expect((await searchPosts(deps, `${t} 罕见`, 5)).items.map((p) => p.id)).toEqual([rare.id]);
  });

  it('hides what the reader blocked or muted, who blocked them, and accounts that left', async () => {
    const [ann, bob, cat, dan] = await users('ann', 'bob', 'cat', 'dan');
    const t = tag();
    await post(bob, `${t} by bob`);
    await post(cat, `${t} by cat`);
    await post(dan, `${t} by dan`);
    await block(deps, ann, bob);
    await mute(deps, ann, cat);
    await block(deps, dan, ann);
    expect(await found(t, ann)).toEqual([]);
    expect((await found(t)).sort()).toEqual([`${t} by bob`, `${t} by cat`, `${t} by dan`]);
    // An account that left: its posts are found by nobody (as in every feed, once the feeds'
    // one-minute face cache has let it go: a container that never cached it here).
    expect(await stores.users.deactivate(bob, Date.now(), 'e1')).toBe(true);
    const fresh = { ...deps, feedFaces: undefined };
    expect((await searchPosts(fresh, t, 20)).items.map((p) => p.body).sort()).toEqual([`${t} by cat`, `${t} by dan`]);
  });

  describe('invariant V: an entry proposes, the post as it is now decides', () => {
    it('never shows a deleted post, nor an edited one by a word its text dropped, though their entries stay', async () => {
      const [ann] = await users('ann');
      const t = tag();
      const gone = await post(ann, `${t} apple pie`);
      const edited = await post(ann, `${t} apple tart`);
      await deletePost(deps, ann, gone.id);
      await editPost(deps, ann, edited.id, { body: `${t} banana tart`, ifMatch: 0 });
      expect((await stores.search.posts('apple', 100)).items).toEqual(expect.arrayContaining([gone.id, edited.id]));
      expect(await found(`${t} apple`)).toEqual([]);
      expect(await found(`${t} banana`)).toEqual([`${t} banana tart`]);
      // The worker then removes the deleted post's entries, and only its.
      const unindex = queued.filter((m) => m.type === 'unindex' && m.postId === gone.id);
      expect(unindex).toHaveLength(1);
      for (const m of unindex) await handleFanoutMessage({ ...deps, search: stores.search } as never, m);
      const left = (await stores.search.posts('apple', 100)).items;
      expect(left).toContain(edited.id);
      expect(left).not.toContain(gone.id);
      expect((await stores.search.posts(t, 100)).items).toEqual([edited.id]);
    });

    it('an edit racing a search: before its commit the old text answers, after it the new, never a mix', async () => {
      const [ann] = await users('ann');
      const t = tag();
      const p = await post(ann, `${t} apple`);
      // The edit holds with its new entries written and its text not yet committed.
      const held = gate.holdAt('edit.indexed', (d) => d.postId === p.id);
      const edit = editPost(deps, ann, p.id, { body: `${t} banana`, ifMatch: 0 });
      await held.reached;
      expect(await found(`${t} banana`)).toEqual([]);
      expect(await found(`${t} apple`)).toEqual([`${t} apple`]);
      // A search that read the lists while "apple" was the text reads the post after the commit.
      const scanned = gate.holdAt('search.scanned', (d) => d.query === `${t} apple`);
      const search = found(`${t} apple`);
      await scanned.reached;
      held.release();
      await edit;
      scanned.release();
      expect(await search).toEqual([]);
      expect(await found(`${t} banana`)).toEqual([`${t} banana`]);
    });

    it('the index write cut half-way: the post is not there until a retry writes it whole, then every word finds it', async () => {
      const [ann] = await users('ann');
      const t = tag();
      const body = `${t} 微博热搜 alpha beta gamma`;
      let cuts = 1;
      let cutId = '';
      const cutting: FeedDeps = {
        ...deps,
        search: {
          ...stores.search,
          posts: (...a) => stores.search.posts(...a),
          remove: (...a) => stores.search.remove(...a),
          add: async (id, terms) => {
            if (cuts-- <= 0) return stores.search.add(id, terms);
            cutId = id;
            await stores.search.add(id, terms.slice(0, Math.floor(terms.length / 2)));
            throw new Error('cut: the gateway went away half-way through the put');
          },
        },
      };
      await expect(publishPost(cutting, ann, { body, idempotencyKey: `k-${t}` })).rejects.toThrow(/cut/);
      // The row is never written before the entries are whole, and no reader finds a post that does not exist.
      await expect(getPost(deps, cutId)).rejects.toMatchObject({ code: 'post_not_found' });
      expect(await found(`${t} alpha`)).toEqual([]);
      expect(await found(`${t} gamma`)).toEqual([]);
      const { post: made } = await publishPost(cutting, ann, { body, idempotencyKey: `k-${t}` });
      expect(await getPost(deps, made.id)).toMatchObject({ body });
      for (const term of indexTerms(made)) {
        expect((await stores.search.posts(term, 1_000)).items, term).toContain(made.id);
      }
      for (const q of ['微博', '博热', '热搜', 'alpha', 'beta', 'gamma'])
        expect(await found(`${t} ${q}`), q).toEqual([body]);
    });

    it('a search between the entries and the post row finds nothing, then the post once it is written', async () => {
      const [ann] = await users('ann');
      const t = tag();
      const held = gate.holdAt('publish.indexed', (d) => d.author === ann);
      const publishing = post(ann, `${t} between`);
      await held.reached;
      expect(await found(`${t} between`)).toEqual([]);
      held.release();
      await publishing;
      expect(await found(`${t} between`)).toEqual([`${t} between`]);
    });
  });
});
