// web/src/features/posts/composer.tsx — write a post: a live counter of Unicode code points (an
// emoji or a CJK character counts 1, exactly as the API counts), posted with an Idempotency-Key
// so a retry after a lost answer never posts twice.
import { useState } from 'preact/hooks';
import { api, call, type Post } from '../../api/client';
import { POST_MAX } from '../../api/limits';
import { CharCount, codePoints, hasVisible as visible } from '../../components/char-count';
import { ErrorMessage } from '../../components/problem';
import { useI18n } from '../../i18n/i18n';

export function Composer({ onPublished }: { onPublished: (post: Post) => void }) {
  const { t } = useI18n();
  const [text, setText] = useState('');
  const [key, setKey] = useState(() => crypto.randomUUID());
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<unknown>(null);
  const [status, setStatus] = useState('');
  const remaining = POST_MAX - codePoints(text);

  async function submit(e: Event) {
    e.preventDefault();
    if (remaining < 0 || !visible(text) || busy) return;
    setBusy(true);
    setError(null);
    setStatus('');
    try {
      const { data } = await call(api.POST('/posts', { body: { body: text }, params: { header: { 'idempotency-key': key } } }));
      setText('');
      setKey(crypto.randomUUID()); // the next post is a new request
      setStatus(t('compose.published'));
      onPublished(data);
    } catch (err) {
      setError(err); // same key kept: pressing Post again is a safe retry
    } finally {
      setBusy(false);
    }
  }

  return (
    <form class="composer" onSubmit={submit}>
      <label for="compose-text">{t('compose.label')}</label>
      <textarea
        id="compose-text"
        rows={3}
        value={text}
        placeholder={t('compose.placeholder')}
        aria-describedby="compose-count"
        onInput={(e) => setText((e.target as HTMLTextAreaElement).value)}
      />
      <div class="composer-foot">
        <CharCount id="compose-count" text={text} max={POST_MAX} />
        <button type="submit" disabled={busy || remaining < 0 || !visible(text)}>
          {t('compose.submit')}
        </button>
      </div>
      <p class="sr-status" role="status">{status}</p>
      <ErrorMessage error={error} />
    </form>
  );
}
