// web/src/features/media/lightbox.tsx — one post's pictures full size, in a modal dialog: the
// `large` variant, ←/→ (and buttons) to move through them, Esc (or Close) to leave. The focus
// stays inside while it is open; the grid gives it back to the picture that opened it. A picture's
// description (its alt text) shows under it as a caption. The dialog's box does not depend on the
// picture or the caption (styles.css), so the buttons stay in place while one moves through them.
import { useEffect, useRef, useState } from 'preact/hooks';
import type { PostMedia } from '../../api/client';
import { useI18n } from '../../i18n/i18n';

export function Lightbox({ media, start, onClose }: { media: PostMedia[]; start: number; onClose: () => void }) {
  const { t } = useI18n();
  const [at, setAt] = useState(start);
  const dialog = useRef<HTMLDialogElement>(null);
  const closeButton = useRef<HTMLButtonElement>(null);

  useEffect(() => {
    const d = dialog.current!;
    d.showModal(); // the rest of the page is inert while it is open
    closeButton.current?.focus();
    return () => d.open && d.close();
  }, []);

  // Wraps around, so no button is ever disabled under the focus (a disabled button drops it).
  const go = (by: -1 | 1) => setAt((i) => (i + by + media.length) % media.length);

  function keys(e: KeyboardEvent) {
    if (e.key === 'ArrowLeft') go(-1);
    else if (e.key === 'ArrowRight') go(1);
    else if (e.key === 'Tab') {
      // showModal keeps Tab inside the page's dialog, but lets it leave to the browser's own UI: cycle here.
      const focusable = [...dialog.current!.querySelectorAll<HTMLElement>('button:not(:disabled)')];
      const [first, last] = [focusable[0], focusable[focusable.length - 1]];
      if (e.shiftKey && document.activeElement === first) last?.focus();
      else if (!e.shiftKey && document.activeElement === last) first?.focus();
      else return;
    } else return;
    e.preventDefault();
  }

  const m = media[at]!;
  const v = m.variants.large ?? m.variants.feed;
  const many = media.length > 1;
  return (
    <dialog
      ref={dialog}
      class="lightbox"
      aria-label={t('media.viewer')}
      onKeyDown={keys}
      onCancel={(e) => {
        e.preventDefault(); // Esc: closed by the owner, which also returns the focus
        onClose();
      }}
    >
      <p class="lightbox-position" aria-live="polite">
        {t('media.position', { n: at + 1, total: media.length })}
      </p>
      <div class="lightbox-stage">
        {v && (
          <img
            class="lightbox-picture"
            data-media-id={m.id}
            src={v.url}
            width={v.width}
            height={v.height}
            alt={m.alt ?? ''}
            style={{ backgroundColor: m.placeholder }}
          />
        )}
      </div>
      {/* Always there, empty without a description: the buttons below never move. Hidden from
          screen readers, which read the same words as the picture's alt text. */}
      <p class="lightbox-caption" aria-hidden="true">
        {m.alt ?? ''}
      </p>
      <div class="lightbox-nav">
        {many && (
          <button type="button" class="secondary" onClick={() => go(-1)}>
            {t('media.previous')}
          </button>
        )}
        {many && (
          <button type="button" class="secondary" onClick={() => go(1)}>
            {t('media.next')}
          </button>
        )}
        <button ref={closeButton} type="button" onClick={onClose}>
          {t('media.close')}
        </button>
      </div>
    </dialog>
  );
}
