// web/src/features/media/composer-pictures.tsx — the composer's pictures: up to nine, added by
// the file picker, a drop or a paste; each uploads at once (uploadPicture) and shows a preview,
// its progress, then ready or why it cannot be used; each can be described (alt text), moved
// earlier or later with buttons (never by dragging only), and removed.
import { useEffect, useRef, useState } from 'preact/hooks';
import { ApiProblem, type Media } from '../../api/client';
import { problemText } from '../../components/problem';
import { hasMessage, useI18n, type Translate } from '../../i18n/i18n';
import { ALT_MAX, PICTURES_PER_POST, PICTURE_TYPES, precheck } from './limits';
import { uploadPicture, type Purpose } from './upload';

export interface Picture {
  key: string;
  file: File;
  /** An object URL of the file itself (none for a file refused before upload: it may not be a picture). */
  preview: string | null;
  alt: string;
  phase: 'sending' | 'processing' | 'ready' | 'failed';
  /** Fraction of the bytes sent, while `sending`. */
  sent: number;
  /** The media record once settled: `ready`, or `failed` with its reason. */
  media?: Media;
  /** Why it failed before the worker could say (refused by type or size, storage unreachable…). */
  problem?: unknown;
}

export interface Pictures {
  items: Picture[];
  /** Adds files in order, up to the post's limit; answers how many did not fit. */
  add: (files: File[]) => number;
  remove: (key: string) => void;
  /** Moves a picture one place earlier (-1) or later (+1). */
  move: (key: string, by: -1 | 1) => void;
  setAlt: (key: string, alt: string) => void;
  /** After posting: the pictures are the post's now. */
  clear: () => void;
  /** How many are still uploading or processing, and how many cannot be used. */
  pending: number;
  failed: number;
}

/** `purpose`: what the pictures are uploaded for (a post's by default; a private message's). */
export function usePictures(purpose: Purpose = 'post'): Pictures {
  const [items, setItems] = useState<Picture[]>([]);
  // The list as last rendered, for add()'s count, and each upload's abort (removing one stops it).
  const current = useRef(items);
  current.current = items;
  const uploads = useRef(new Map<string, AbortController>());

  const patch = (key: string, change: Partial<Picture>) =>
    setItems((list) => list.map((p) => (p.key === key ? { ...p, ...change } : p)));

  function start(p: Picture) {
    const abort = new AbortController();
    uploads.current.set(p.key, abort);
    uploadPicture(
      p.file,
      (s) => patch(p.key, s.step === 'sending' ? { phase: 'sending', sent: s.sent } : { phase: 'processing', sent: 1 }),
      abort.signal,
      purpose,
    )
      .then(
        (media) =>
          !abort.signal.aborted && patch(p.key, { phase: media.state === 'ready' ? 'ready' : 'failed', media }),
      )
      .catch((problem: unknown) => !abort.signal.aborted && patch(p.key, { phase: 'failed', problem }))
      .finally(() => uploads.current.delete(p.key));
  }

  function forget(p: Picture) {
    uploads.current.get(p.key)?.abort();
    if (p.preview) URL.revokeObjectURL(p.preview);
  }

  useEffect(() => () => current.current.forEach(forget), []);

  function add(files: File[]): number {
    const room = Math.max(0, PICTURES_PER_POST - current.current.length);
    const added = files.slice(0, room).map((file): Picture => {
      const refused = precheck(file);
      return {
        key: crypto.randomUUID(),
        file,
        preview: refused ? null : URL.createObjectURL(file),
        alt: '',
        phase: refused ? 'failed' : 'sending',
        sent: 0,
        ...(refused ? { problem: new ApiProblem(422, refused) } : {}),
      };
    });
    current.current = [...current.current, ...added];
    setItems(current.current);
    added.filter((p) => p.phase !== 'failed').forEach(start);
    return files.length - added.length;
  }

  function remove(key: string) {
    const p = current.current.find((x) => x.key === key);
    if (p) forget(p);
    setItems((list) => list.filter((x) => x.key !== key));
  }

  function move(key: string, by: -1 | 1) {
    setItems((list) => {
      const from = list.findIndex((p) => p.key === key);
      const to = from + by;
      if (from < 0 || to < 0 || to >= list.length) return list;
      const next = [...list];
      [next[from], next[to]] = [next[to]!, next[from]!];
      return next;
    });
  }

  function clear() {
    current.current.forEach(forget);
    setItems([]);
  }

  return {
    items,
    add,
    remove,
    move,
    setAlt: (key, alt) => patch(key, { alt }),
    clear,
    pending: items.filter((p) => p.phase === 'sending' || p.phase === 'processing').length,
    failed: items.filter((p) => p.phase === 'failed').length,
  };
}

/** Why a picture cannot be used, as a sentence: the worker's reason, or the refusal's. */
function failure(p: Picture, t: Translate): string {
  if (p.problem !== undefined) return problemText(p.problem, t);
  const key = `media.reason.${p.media?.reason ?? 'unknown'}`;
  return t('media.failed', { reason: t(hasMessage(key) ? key : 'media.reason.unknown') });
}

/** What a screen reader hears after `given` files were offered and `left` of them did not fit. */
export const addedSentence = (given: number, left: number, t: Translate): string =>
  left > 0 ? t('media.tooMany', { max: PICTURES_PER_POST, n: left }) : t('media.added', { n: given });

/** The files of a drop or paste that are files at all (a pasted text is no picture). */
export const filesOf = (data: DataTransfer | null): File[] => (data ? [...data.files] : []);

/**
 * The picker and the list. `onStatus` receives the sentences a screen reader should hear
 * (added, moved, removed), which the composer announces in its status line.
 */
export function PicturePicker({
  pictures,
  onStatus,
  describe = true,
}: {
  pictures: Pictures;
  onStatus: (s: string) => void;
  /** Each picture takes alt text (a post's do; a private message carries none). */
  describe?: boolean;
}) {
  const { t } = useI18n();
  const input = useRef<HTMLInputElement>(null);
  const list = useRef<HTMLOListElement>(null);
  const addButton = useRef<HTMLButtonElement>(null);
  // After a move the moved picture's button keeps the focus (its element moved in the list).
  const [focusAfterMove, setFocusAfterMove] = useState<{ key: string; by: -1 | 1 } | null>(null);
  useEffect(() => {
    if (!focusAfterMove) return;
    const li = list.current?.querySelector<HTMLElement>(`[data-key="${focusAfterMove.key}"]`);
    const wanted = li?.querySelector<HTMLButtonElement>(focusAfterMove.by < 0 ? '.move-earlier' : '.move-later');
    (wanted && !wanted.disabled
      ? wanted
      : li?.querySelector<HTMLButtonElement>('.move-earlier:not(:disabled), .move-later:not(:disabled)')
    )?.focus();
    setFocusAfterMove(null);
  }, [focusAfterMove]);

  function picked(files: File[]) {
    if (files.length === 0) return;
    onStatus(addedSentence(files.length, pictures.add(files), t));
  }

  const full = pictures.items.length >= PICTURES_PER_POST;
  const total = pictures.items.length;

  return (
    <div class="pictures">
      <input
        ref={input}
        id="compose-pictures"
        type="file"
        accept={PICTURE_TYPES.join(',')}
        multiple
        hidden
        onChange={(e) => {
          const el = e.target as HTMLInputElement;
          picked([...(el.files ?? [])]);
          el.value = ''; // the same file may be picked again after a removal
        }}
      />
      <div class="pictures-add">
        <button
          ref={addButton}
          type="button"
          class="secondary"
          aria-describedby="compose-pictures-hint"
          disabled={full}
          onClick={() => input.current?.click()}
        >
          {t('media.add')}
        </button>
        <small id="compose-pictures-hint">{t('media.addHint', { max: PICTURES_PER_POST })}</small>
      </div>
      {total > 0 && (
        <ol ref={list} class="picture-list" aria-label={t('media.list')}>
          {pictures.items.map((p, i) => {
            const n = i + 1;
            return (
              <li key={p.key} data-key={p.key} data-phase={p.phase} class="picture-item">
                <div class="picture-preview">{p.preview && <img src={p.preview} alt="" />}</div>
                <div class="picture-info">
                  <strong>{t('media.picture', { n })}</strong>
                  {p.phase === 'sending' && (
                    <progress class="picture-progress" max={1} value={p.sent} aria-label={t('media.progress', { n })} />
                  )}
                  <span class={p.phase === 'failed' ? 'picture-state failed' : 'picture-state'}>
                    {p.phase === 'sending'
                      ? t('media.sending', { percent: Math.round(p.sent * 100) })
                      : p.phase === 'processing'
                        ? t('media.processing')
                        : p.phase === 'ready'
                          ? t('media.ready')
                          : failure(p, t)}
                  </span>
                  {describe && p.phase !== 'failed' && (
                    <>
                      <label for={`alt-${p.key}`}>{t('media.alt', { n })}</label>
                      <textarea
                        id={`alt-${p.key}`}
                        class="picture-alt"
                        rows={2}
                        maxLength={ALT_MAX}
                        value={p.alt}
                        placeholder={t('media.altPlaceholder')}
                        onInput={(e) => pictures.setAlt(p.key, (e.target as HTMLTextAreaElement).value)}
                      />
                    </>
                  )}
                  <div class="picture-actions">
                    <button
                      type="button"
                      class="secondary small move-earlier"
                      disabled={i === 0}
                      onClick={() => {
                        pictures.move(p.key, -1);
                        setFocusAfterMove({ key: p.key, by: -1 });
                        onStatus(t('media.moved', { n: n - 1 }));
                      }}
                    >
                      {t('media.moveEarlier')}
                      <span class="sr-only"> {t('media.picture', { n })}</span>
                    </button>
                    <button
                      type="button"
                      class="secondary small move-later"
                      disabled={i === total - 1}
                      onClick={() => {
                        pictures.move(p.key, 1);
                        setFocusAfterMove({ key: p.key, by: 1 });
                        onStatus(t('media.moved', { n: n + 1 }));
                      }}
                    >
                      {t('media.moveLater')}
                      <span class="sr-only"> {t('media.picture', { n })}</span>
                    </button>
                    <button
                      type="button"
                      class="link danger"
                      onClick={() => {
                        pictures.remove(p.key);
                        onStatus(t('media.removed'));
                        // Its buttons are gone: the focus goes to "Add pictures" (enabled again once rendered).
                        setTimeout(() => addButton.current?.focus(), 0);
                      }}
                    >
                      {t('media.remove')}
                      <span class="sr-only"> {t('media.picture', { n })}</span>
                    </button>
                  </div>
                </div>
              </li>
            );
          })}
        </ol>
      )}
    </div>
  );
}
