// web/src/components/paged.tsx — cursor paging for every list: the first page, then the next
// on demand (a button, and automatically when the end of the list scrolls into view). What a
// list has loaded is kept with its history entry: Back to it shows the same items at once,
// without asking again (router.ts puts the scroll position back).
import type { ComponentChildren } from 'preact';
import { useCallback, useEffect, useRef, useState } from 'preact/hooks';
import { useI18n } from '../i18n/i18n';
import { currentEntry } from '../router';
import { ErrorMessage } from './problem';

export interface PageOf<T> {
  items: T[];
  nextCursor: string | null;
}

export interface Paged<T> {
  items: T[];
  loading: boolean;
  error: unknown;
  done: boolean;
  loadMore: () => void;
  reload: () => void;
  setItems: (update: (items: T[]) => T[]) => void;
}

/** Lists as they were left, by history entry and list; the latest few entries only. */
const kept = new Map<string, { items: unknown[]; cursor: string | null | undefined }>();
const KEPT_ENTRIES = 20;

export function usePaged<T>(fetchPage: (cursor?: string) => Promise<PageOf<T>>, deps: unknown[]): Paged<T> {
  const key = `${currentEntry()} ${JSON.stringify(deps)}`;
  const [saved] = useState(() => kept.get(key) as { items: T[]; cursor: string | null | undefined } | undefined);
  const [items, setItems] = useState<T[]>(saved?.items ?? []);
  const [cursor, setCursor] = useState<string | null | undefined>(saved?.cursor);
  useEffect(() => {
    kept.delete(key);
    kept.set(key, { items, cursor });
    if (kept.size > KEPT_ENTRIES) kept.delete(kept.keys().next().value!);
  }, [key, items, cursor]);
  const [loading, setLoading] = useState(false);
  const [error, setError] = useState<unknown>(null);
  const generation = useRef(0);

  const load = useCallback(
    async (from: string | undefined, replace: boolean) => {
      const mine = ++generation.current;
      setLoading(true);
      setError(null);
      try {
        const page = await fetchPage(from);
        if (mine !== generation.current) return; // a newer load (or reload) won
        setItems((old) => (replace ? page.items : [...old, ...page.items]));
        setCursor(page.nextCursor);
      } catch (err) {
        if (mine === generation.current) setError(err);
      } finally {
        if (mine === generation.current) setLoading(false);
      }
    },
    // eslint-disable-next-line react-hooks/exhaustive-deps -- the caller names what the list depends on
    deps,
  );

  const reload = useCallback(() => {
    setItems([]);
    setCursor(undefined);
    void load(undefined, true);
  }, [load]);

  const restored = useRef(saved !== undefined);
  useEffect(() => {
    if (restored.current)
      restored.current = false; // Back: shown as left, not asked again
    else reload();
  }, [reload]);

  return {
    items,
    loading,
    error,
    done: cursor === null,
    loadMore: () => {
      if (!loading && typeof cursor === 'string') void load(cursor, false);
    },
    reload,
    setItems: (update) => setItems(update),
  };
}

/** The list's foot: loading, error, "load more" (also triggered on scroll), or the end. */
export function PagedFooter<T>({ list, empty }: { list: Paged<T>; empty: ComponentChildren }) {
  const { t } = useI18n();
  const sentinel = useRef<HTMLDivElement>(null);
  useEffect(() => {
    const el = sentinel.current;
    if (!el || list.done || list.loading || list.error) return;
    const observer = new IntersectionObserver((entries) => {
      if (entries.some((e) => e.isIntersecting)) list.loadMore();
    });
    observer.observe(el);
    return () => observer.disconnect();
  }, [list.done, list.loading, list.error, list.items.length]);

  if (list.error) return <ErrorMessage error={list.error} onRetry={list.items.length ? list.loadMore : list.reload} />;
  if (list.loading && list.items.length === 0) {
    // The first page: cards in the shape of what comes, so the page does not jump when it does.
    return (
      <>
        <p class="sr-status" role="status">
          {t('timeline.loading')}
        </p>
        <div class="feed" aria-hidden="true">
          {[0, 1, 2].map((i) => (
            <div key={i} class="post placeholder">
              <span class="bar short" />
              <span class="bar" />
              <span class="bar" />
            </div>
          ))}
        </div>
      </>
    );
  }
  if (list.loading)
    return (
      <p class="muted" role="status">
        {t('timeline.loading')}
      </p>
    );
  if (list.done) return <p class="muted list-end">{list.items.length ? t('timeline.end') : empty}</p>;
  return (
    <div ref={sentinel} class="load-more">
      <button type="button" class="secondary" onClick={list.loadMore}>
        {t('timeline.loadMore')}
      </button>
    </div>
  );
}
