// test/unit/background-pager.test.ts — the one loop every background walk runs
// (shared/use-cases/background/pager.ts), on an in-memory list: bounded per message, the cursor
// handed on, the next page read while this one is written, and a failed write or a failed read
// failing the walk without leaving the page read meanwhile as an unhandled rejection.
import { describe, expect, it } from 'vitest';
import type { Page } from '../../shared/ports/feed-store.js';
import { cursorPages, handlesOf, prefetched, writePages } from '../../shared/use-cases/background/pager.js';

/** A cursor-paged list of `handles` (cursor = the last handle of the previous page), logging each read. */
function pagedList(handles: string[], log: string[]) {
  return async (limit: number, cursor?: string): Promise<Page<{ handle: string }>> => {
    log.push(`read after ${cursor ?? '-'}`);
    await Promise.resolve();
    const from = cursor === undefined ? 0 : handles.indexOf(cursor) + 1;
    const items = handles.slice(from, from + limit).map((handle) => ({ handle }));
    return from + limit < handles.length ? { items, nextCursor: items.at(-1)!.handle } : { items };
  };
}

const letters = (n: number) => Array.from({ length: n }, (_, i) => String.fromCharCode(97 + i));

describe('the background pager', () => {
  it('reads at most the bound of pages and hands on the last page’s cursor', async () => {
    const log: string[] = [];
    const written: string[][] = [];
    const done = await writePages(
      {},
      cursorPages(pagedList(letters(10), log), undefined, { pageSize: 3, pages: 2 }),
      handlesOf,
      async (h) => {
        written.push(h);
      },
    );
    expect(done).toEqual({ readers: 6, written: 6, nextCursor: 'f' });
    expect(written).toEqual([letters(3), ['d', 'e', 'f']]);
    expect(log.filter((l) => l.startsWith('read'))).toEqual(['read after -', 'read after c']); // no read past the bound
  });

  it('continues from a cursor and stops at the end of the list without a read past it', async () => {
    const log: string[] = [];
    const done = await writePages(
      {},
      cursorPages(pagedList(letters(7), log), 'b', { pageSize: 3, pages: 5 }),
      handlesOf,
      async () => {},
    );
    expect(done).toEqual({ readers: 5, written: 5 });
    expect(log).toEqual(['read after b', 'read after e']);
  });

  it('reads the next page while the current one is written (pipelined)', async () => {
    const log: string[] = [];
    await writePages(
      {},
      cursorPages(pagedList(letters(6), log), undefined, { pageSize: 3, pages: 2 }),
      handlesOf,
      async (h) => {
        log.push(`write ${h.join('')}`);
        await new Promise((resolve) => setImmediate(resolve));
        log.push(`written ${h.join('')}`);
      },
    );
    expect(log).toEqual(['read after -', 'read after c', 'write abc', 'written abc', 'write def', 'written def']);
  });

  it('writes only the handles the walk selects, and counts every entry read', async () => {
    const log: string[] = [];
    const written: string[] = [];
    const done = await writePages(
      {},
      cursorPages(pagedList(letters(4), log), undefined, { pageSize: 2, pages: 2 }),
      (items) => handlesOf(items.filter((m) => m.handle !== 'b')),
      async (h) => {
        written.push(...h);
      },
    );
    expect(done).toEqual({ readers: 4, written: 3 });
    expect(written).toEqual(['a', 'c', 'd']);
  });

  it('a failed write fails the walk; the page read meanwhile, failing too, is not left unhandled', async () => {
    let reads = 0;
    const list = async (_limit: number, cursor?: string): Promise<Page<{ handle: string }>> => {
      reads++;
      if (cursor !== undefined) throw new Error('gateway gone');
      return { items: [{ handle: 'a' }], nextCursor: 'a' };
    };
    const unhandled: unknown[] = [];
    const record = (reason: unknown) => unhandled.push(reason);
    process.on('unhandledRejection', record);
    try {
      await expect(
        writePages({}, cursorPages(list, undefined, { pageSize: 1, pages: 3 }), handlesOf, async () => {
          throw new Error('write failed');
        }),
      ).rejects.toThrow('write failed');
      // An unhandled rejection is reported after the microtasks of the turn that made it.
      await new Promise((resolve) => setImmediate(resolve));
    } finally {
      process.off('unhandledRejection', record);
    }
    expect(reads).toBe(2); // the prefetch was really made, and failed
    expect(unhandled).toEqual([]);
  });

  it('a page read that fails while the page before it is still being written is not left unhandled', async () => {
    // A region going away mid-walk: the next page's read fails at once, the current page's
    // write is still waiting on its retries. The walk fails with the read's error, once the write is done.
    const list = async (_limit: number, cursor?: string): Promise<Page<{ handle: string }>> => {
      if (cursor !== undefined) throw new Error('region moving');
      return { items: [{ handle: 'a' }], nextCursor: 'a' };
    };
    const unhandled: unknown[] = [];
    const record = (reason: unknown) => unhandled.push(reason);
    process.on('unhandledRejection', record);
    const writes: string[] = [];
    try {
      await expect(
        writePages({}, cursorPages(list, undefined, { pageSize: 1, pages: 3 }), handlesOf, async (h) => {
          await new Promise((resolve) => setTimeout(resolve, 20));
          writes.push(...h);
        }),
      ).rejects.toThrow('region moving');
      await new Promise((resolve) => setImmediate(resolve));
    } finally {
      process.off('unhandledRejection', record);
    }
    expect(writes).toEqual(['a']);
    expect(unhandled).toEqual([]);
  });

  it('prefetched: the first page is asked for at once; the walk then reads each page once, in order', async () => {
    const log: string[] = [];
    const pages = prefetched(cursorPages(pagedList(letters(7), log), undefined, { pageSize: 3, pages: 5 }));
    await Promise.resolve();
    expect(log).toEqual(['read after -']); // before anyone iterates
    const written: string[][] = [];
    const done = await writePages({}, pages, handlesOf, async (h) => void written.push(h));
    expect(done).toEqual({ readers: 7, written: 7 });
    expect(written).toEqual([letters(3), ['d', 'e', 'f'], ['g']]);
    expect(log).toEqual(['read after -', 'read after c', 'read after f']);
  });

  it('prefetched: close ends the source unread past the first page (its cleanup runs); a failed first read is no unhandled rejection', async () => {
    const log: string[] = [];
    let cleaned = false;
    async function* source() {
      try {
        for (const p of ['one', 'two']) {
          log.push(`read ${p}`);
          yield p;
        }
      } finally {
        cleaned = true;
      }
    }
    const pages = prefetched(source());
    await pages.close();
    expect({ log, cleaned }).toEqual({ log: ['read one'], cleaned: true });

    const unhandled: unknown[] = [];
    const onUnhandled = (e: unknown) => void unhandled.push(e);
    process.on('unhandledRejection', onUnhandled);
    try {
      // A source whose first read fails.
      const failing = prefetched<never>({
        [Symbol.asyncIterator]: () => ({ next: () => Promise.reject(new Error('gateway down')) }),
      });
      // Node reports an unhandled rejection once the microtasks of the turn are done, before
      // the next turn's immediates: one turn later it would have been reported.
      await new Promise((r) => setImmediate(r));
      await expect(failing[Symbol.asyncIterator]().next()).rejects.toThrow('gateway down');
    } finally {
      process.off('unhandledRejection', onUnhandled);
    }
    expect(unhandled).toEqual([]);
  });
});
