// shared/use-cases/background/pager.ts — the one loop every background walk over a follower or
// followee list runs: a bounded number of pages per message, each page written while the next
// is read, and the cursor where the next message carries on.
import type { Page } from '../../ports/feed-store.js';
import type { FeedDeps } from '../feed-deps.js';
import { atStep } from '../steps.js';

/** Bounds of one message's walk: at most `pages` pages of `pageSize` entries. */
export interface WalkBounds {
  pageSize: number;
  pages: number;
}

/** What a walk did: entries read, handles written to, and where the list goes on (if it does). */
export interface Walked {
  readers: number;
  written: number;
  nextCursor?: string;
}

/** The fan-out bounds (FANOUT_CHUNK_SIZE × FANOUT_CHUNKS_PER_MESSAGE), used by every walk over followers. */
export function perMessage(deps: Pick<FeedDeps, 'limits'>): WalkBounds {
  return { pageSize: deps.limits.fanoutChunkSize, pages: deps.limits.fanoutChunksPerMessage };
}

/**
 * A cursor-paged list (`list(limit, cursor)`) as at most `bounds.pages` pages from `cursor` on.
 * A page is fetched only when the pager asks for the next one, and none past the bound: the
 * last page keeps its nextCursor, where the follow-up message starts.
 */
export async function* cursorPages<T>(
  list: (limit: number, cursor?: string) => Promise<Page<T>>,
  cursor: string | undefined,
  bounds: WalkBounds,
): AsyncGenerator<Page<T>, void, undefined> {
  let from = cursor;
  for (let n = 0; n < bounds.pages; n++) {
    const page = await list(bounds.pageSize, from);
    yield page;
    if (!page.nextCursor) return;
    from = page.nextCursor;
  }
}

/**
 * `pages` with its first page asked for now, before anyone iterates: the read runs beside
 * whatever the caller does first. Iterated once; `close` ends it unread (a scanner it opened is
 * closed) and ignores what the first read came to.
 */
export function prefetched<T>(pages: AsyncIterable<T>): AsyncIterable<T> & { close(): Promise<void> } {
  const iterator = pages[Symbol.asyncIterator]();
  let first: Promise<IteratorResult<T>> | undefined = iterator.next();
  // Handled here, so a failed first read is no unhandled rejection while no one iterates yet;
  // whoever iterates still sees it.
  const settled = first.then(
    () => {},
    () => {},
  );
  const rest: AsyncIterator<T> = {
    next: () => {
      const page = first ?? iterator.next();
      first = undefined;
      return page;
    },
    return: async () => {
      await settled;
      return (await iterator.return?.()) ?? { done: true, value: undefined };
    },
  };
  return {
    [Symbol.asyncIterator]: () => rest,
    close: async () => {
      await rest.return!();
    },
  };
}

/**
 * Writes each page of `pages` (the handles `select` keeps) with `write`, pipelined: the next page
 * is asked for as soon as one arrives, so its read overlaps this page's write instead of taking
 * turns with it. Before each write the walk pauses at 'fanout.readers-read' (tests hold it there).
 */
export async function writePages<T>(
  deps: Pick<FeedDeps, 'step'>,
  pages: AsyncIterable<Page<T>>,
  select: (items: T[]) => string[],
  write: (handles: string[]) => Promise<void>,
): Promise<Walked> {
  const iterator = pages[Symbol.asyncIterator]();
  let readers = 0;
  let written = 0;
  let nextCursor: string | undefined;
  let pending = ahead(iterator.next());
  try {
    for (;;) {
      const { done, value: page } = await pending;
      if (done) break;
      pending = ahead(iterator.next());
      readers += page.items.length;
      nextCursor = page.nextCursor;
      const handles = select(page.items);
      if (handles.length > 0) {
        await atStep(deps, 'fanout.readers-read', { readers: handles.join(',') });
        await write(handles);
        written += handles.length;
      }
    }
  } finally {
    await iterator.return?.();
  }
  return nextCursor ? { readers, written, nextCursor } : { readers, written };
}

/**
 * A page asked for ahead, marked handled: it may fail while a write is still in flight (a
 * region moving), and is awaited only after that write. Unhandled meanwhile, its rejection would
 * end the whole process (Node's default); the walk still sees it where the page is awaited, and
 * after a failed write it no longer matters.
 */
function ahead<R>(page: Promise<R>): Promise<R> {
  page.catch(() => {});
  return page;
}

/** Every entry's handle (a walk that writes to everyone it reads). */
export const handlesOf = (items: { handle: string }[]): string[] => items.map((e) => e.handle);
