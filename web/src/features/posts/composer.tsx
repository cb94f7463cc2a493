// web/src/features/posts/composer.tsx — write a post: a live counter of Unicode code points (an
// emoji or a CJK character counts 1, exactly as the API counts), up to nine pictures (picked,
// dropped or pasted; see features/media). The text and its Idempotency-Key are a composed item
// (features/compose): kept across a reload until the post is confirmed, and a retry after a lost
// answer never posts twice. The pictures are not kept across a reload (they are files of this
// page). Posting waits until every picture is ready, and says so. An emoji button and @ / #
// suggestions (features/compose) put text at the caret.
import { useRef, useState } from 'preact/hooks';
import { api, call, type Post } from '../../api/client';
import { POST_MAX } from '../../api/limits';
import {
  CharCount,
  codePoints,
  hasVisible as visible,
  sendOnCtrlEnter,
  textProblem,
} from '../../components/char-count';
import { useI18n } from '../../i18n/i18n';
import { useAutocomplete } from '../compose/autocomplete';
import { EmojiPicker } from '../compose/emoji-picker';
import { SendProblem } from '../compose/send-problem';
import { useComposed } from '../compose/use-composed';
import { PicturePicker, addedSentence, filesOf, usePictures } from '../media/composer-pictures';

export function Composer({ onPublished }: { onPublished: (post: Post) => void }) {
  const { t } = useI18n();
  const item = useComposed('post');
  const { text, busy } = item;
  const [status, setStatus] = useState('');
  const [dropping, setDropping] = useState(false);
  const pictures = usePictures();
  const box = useRef<HTMLTextAreaElement>(null);
  const suggest = useAutocomplete({ id: 'compose-suggestions', box, onAccept: item.edit });
  const remaining = POST_MAX - codePoints(text);
  // A post may be pictures only; it waits for every picture to be ready (the API refuses others).
  const waiting =
    pictures.failed > 0
      ? t('media.waitFailed')
      : pictures.pending > 0
        ? t('media.waitPending', { n: pictures.pending })
        : '';
  const postable =
    remaining >= 0 && !textProblem(text) && (visible(text) || pictures.items.length > 0) && waiting === '';

  async function submit(e: Event) {
    e.preventDefault();
    if (!postable || busy) return;
    setStatus('');
    const media = pictures.items.map((p) => ({ id: p.media!.id, ...(p.alt.trim() ? { alt: p.alt.trim() } : {}) }));
    const body = { body: text, ...(media.length > 0 ? { media } : {}) };
    const answer = await item.send((key, signal) =>
      call(api.POST('/posts', { body, params: { header: { 'idempotency-key': key } }, signal })),
    );
    if (!answer) return; // text, pictures and key kept: pressing Post again is a safe retry
    pictures.clear();
    setStatus(t('compose.published'));
    onPublished(answer.data);
    box.current?.focus(); // ready for the next one (the button was disabled under the focus)
  }

  const take = (files: File[]) => {
    if (files.length === 0) return false;
    setStatus(addedSentence(files.length, pictures.add(files), t));
    return true;
  };

  return (
    <form
      class={dropping ? 'composer dropping' : 'composer'}
      onSubmit={submit}
      onDragOver={(e) => {
        if (!e.dataTransfer?.types.includes('Files')) return;
        e.preventDefault(); // lets the drop happen here instead of the browser opening the file
        setDropping(true);
      }}
      onDragLeave={() => setDropping(false)}
      onDrop={(e) => {
        setDropping(false);
        if (take(filesOf(e.dataTransfer))) e.preventDefault();
      }}
    >
      <label for="compose-text">{t('compose.label')}</label>
      <div class="compose-box">
        <textarea
          ref={box}
          id="compose-text"
          rows={3}
          value={text}
          placeholder={t('compose.placeholder')}
          aria-describedby="compose-count"
          {...suggest.boxProps}
          onInput={(e) => {
            const value = (e.target as HTMLTextAreaElement).value;
            item.edit(value);
            suggest.typed(value);
          }}
          onKeyDown={(e) => {
            suggest.onKeyDown(e);
            if (!e.defaultPrevented) sendOnCtrlEnter(e);
          }}
          onPaste={(e) => {
            // A pasted picture is added; pasted text goes into the box as usual.
            if (take(filesOf(e.clipboardData))) e.preventDefault();
          }}
        />
        {suggest.list}
      </div>
      <EmojiPicker id="compose-emoji" box={box} onInsert={item.edit} />
      <PicturePicker pictures={pictures} onStatus={setStatus} />
      <div class="composer-foot">
        <CharCount id="compose-count" text={text} max={POST_MAX} />
        <button type="submit" disabled={busy || !postable} aria-describedby={waiting ? 'compose-wait' : undefined}>
          {t('compose.submit')}
        </button>
      </div>
      {waiting && (
        <p id="compose-wait" class="compose-wait">
          {waiting}
        </p>
      )}
      <p class="sr-status" role="status">
        {status}
      </p>
      <SendProblem error={item.error} />
    </form>
  );
}
