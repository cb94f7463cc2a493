// web/src/features/blocks/hidden-page.tsx — the users you block (黑名单) or mute (屏蔽), most recent
// first, cursor-paged, each with its undo. Only your own lists exist (the API refuses others'),
// so the page needs a session and is reached from your own profile.
import { useState } from 'preact/hooks';
import { api, call, type BlockedUser } from '../../api/client';
import { Avatar, Byline, personOf } from '../../components/avatar';
import { BackLink } from '../../components/back-link';
import { PagedFooter, usePaged } from '../../components/paged';
import { ErrorMessage } from '../../components/problem';
import { absoluteDate, useI18n } from '../../i18n/i18n';
import { href, type HiddenKind } from '../../router';

export function HiddenPage({ handle, kind }: { handle: string; kind: HiddenKind }) {
  const { t, locale } = useI18n();
  const [status, setStatus] = useState('');
  const [error, setError] = useState<unknown>(null);
  const [busy, setBusy] = useState<string | null>(null);
  const list = usePaged<BlockedUser>(
    async (cursor?: string) => {
      const params = { path: { handle }, query: { limit: 50, ...(cursor ? { cursor } : {}) } };
      const { data } =
        kind === 'blocks'
          ? await call(api.GET('/users/{handle}/blocks', { params }))
          : await call(api.GET('/users/{handle}/mutes', { params }));
      return { items: data.users, nextCursor: data.nextCursor };
    },
    [handle, kind],
  );

  async function undo(target: string) {
    setBusy(target);
    setError(null);
    setStatus('');
    try {
      const params = { path: { handle, target } };
      if (kind === 'blocks') await call(api.DELETE('/users/{handle}/blocks/{target}', { params }));
      else await call(api.DELETE('/users/{handle}/mutes/{target}', { params }));
      list.setItems((items) => items.filter((u) => u.handle !== target));
      setStatus(t(kind === 'blocks' ? 'blocks.done.unblock' : 'blocks.done.unmute', { handle: target }));
    } catch (err) {
      setError(err);
    } finally {
      setBusy(null);
    }
  }

  return (
    <section aria-labelledby="page-title">
      <h1 id="page-title">{t(kind === 'blocks' ? 'blocks.blockedTitle' : 'blocks.mutedTitle')}</h1>
      <p class="muted">{t(kind === 'blocks' ? 'blocks.blockedIntro' : 'blocks.mutedIntro')}</p>
      <BackLink href={href.profile(handle)}>{t('relations.back', { handle })}</BackLink>
      <p class="sr-status" role="status">
        {status}
      </p>
      <ErrorMessage error={error} />
      <ul class="users">
        {list.items.map((u) => (
          <li key={u.handle}>
            <span class="who">
              <Avatar {...personOf(u)} />
              <Byline {...personOf(u)} />
            </span>{' '}
            <span class="muted">{t('relations.since', { date: absoluteDate(u.since, locale) })}</span>{' '}
            <button type="button" class="secondary small" disabled={busy === u.handle} onClick={() => undo(u.handle)}>
              {t(kind === 'blocks' ? 'blocks.unblock' : 'blocks.unmute')}
              <span class="sr-only"> @{u.handle}</span>
            </button>
          </li>
        ))}
      </ul>
      <PagedFooter list={list} empty={t(kind === 'blocks' ? 'blocks.noneBlocked' : 'blocks.noneMuted')} />
    </section>
  );
}
