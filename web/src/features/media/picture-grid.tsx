// web/src/features/media/picture-grid.tsx — a post's pictures as Weibo lays them out: one picture
// large at its own aspect ratio; two or three side by side in one row; four as 2×2; five to nine
// three across (two rows for five or six, three for seven to nine), as square thumbnails. No
// picture is shown larger than its own pixels: a small one sits at its natural size on its
// placeholder colour rather than blurred. Every box has its size from the descriptor (aspect ratio, width/height attributes)
// and the placeholder colour before a byte arrives, so nothing moves when the pictures load.
// A picture is a button: it opens the lightbox at that picture.
import { useRef, useState } from 'preact/hooks';
import type { PostMedia } from '../../api/client';
import { useI18n } from '../../i18n/i18n';
import { Lightbox } from './lightbox';

/** The tallest a single picture is shown in the feed, in CSS pixels (a portrait photo stays on one screen). */
const ONE_MAX_HEIGHT = 420;

/** How many across: 1 → one large; 2 → 2; 3 → 3; 4 → 2 (2×2); 5–9 → 3. */
export type GridLayout = 'one' | 'two' | 'three';
export const gridLayout = (count: number): GridLayout =>
  count <= 1 ? 'one' : count === 2 || count === 4 ? 'two' : 'three';

/** The variant a box shows: the feed size for a lone picture, the square thumbnail in a grid. */
const shown = (m: PostMedia, layout: GridLayout) =>
  layout === 'one' ? (m.variants.feed ?? m.variants.thumb) : (m.variants.thumb ?? m.variants.feed);

export function PictureGrid({ media }: { media: PostMedia[] }) {
  const { t } = useI18n();
  const [open, setOpen] = useState<number | null>(null);
  const boxes = useRef<(HTMLButtonElement | null)[]>([]);
  if (media.length === 0) return null;
  const layout = gridLayout(media.length);

  function close() {
    const opener = open;
    setOpen(null);
    // Back to the picture that opened it (the lightbox may have moved on to another). A modal
    // dialog's close() restores the focus too, where the browser implements that; this does not rely on it.
    if (opener !== null) setTimeout(() => boxes.current[opener]?.focus(), 0);
  }

  return (
    <>
      <ul class={`picture-grid grid-${layout}`} aria-label={t('media.pictures')}>
        {media.map((m, i) => {
          const v = shown(m, layout);
          // A lone picture keeps its shape: as wide as the card allows, no taller than
          // ONE_MAX_HEIGHT, and never wider than the variant's own pixels.
          const box =
            layout === 'one'
              ? {
                  aspectRatio: `${m.width} / ${m.height}`,
                  width: `min(100%, ${Math.min(v?.width ?? m.width, Math.round((ONE_MAX_HEIGHT * m.width) / m.height))}px)`,
                }
              : { aspectRatio: '1 / 1' };
          return (
            <li key={m.id}>
              <button
                type="button"
                class="picture-cell"
                ref={(el) => {
                  boxes.current[i] = el;
                }}
                style={{ ...box, backgroundColor: m.placeholder }}
                data-media-id={m.id}
                onClick={() => setOpen(i)}
              >
                {v && (
                  <img
                    src={v.url}
                    width={v.width}
                    height={v.height}
                    // At most its own pixels: a thumbnail smaller than the square sits in its middle.
                    style={{ maxWidth: `${v.width}px`, maxHeight: `${v.height}px` }}
                    loading="lazy"
                    decoding="async"
                    alt={m.alt ?? ''}
                  />
                )}
                <span class="sr-only">{t('media.open', { n: i + 1, total: media.length })}</span>
              </button>
            </li>
          );
        })}
      </ul>
      {open !== null && <Lightbox media={media} start={open} onClose={close} />}
    </>
  );
}
