// web/src/features/blocks/block-buttons.tsx — on someone else's profile: block (拉黑) / unblock and
// mute (屏蔽) / unmute, the first two of each in a "⋯" menu. Blocking asks first (in the page's dialog), because it also ends the follows in both directions
// (and unblocking does not bring them back); muting is quiet and undone as easily, so it does
// not ask. The profile hears of every change: a block moves its follow state and counts.
import { useEffect, useState } from 'preact/hooks';
import { api, call, type BlockState } from '../../api/client';
import { ask } from '../../components/confirm';
import { MoreMenu, type MenuItem } from '../../components/menu';
import { ErrorMessage } from '../../components/problem';
import { useI18n } from '../../i18n/i18n';

export type BlockAction = 'block' | 'unblock' | 'mute' | 'unmute';

/** `onChange`: the state as first read ('loaded'), then after each change. */
export function BlockButtons({
  me,
  handle,
  onChange,
}: {
  me: string;
  handle: string;
  onChange: (state: BlockState, action: BlockAction | 'loaded') => void;
}) {
  const { t } = useI18n();
  const [state, setState] = useState<BlockState | null>(null);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<unknown>(null);
  const [status, setStatus] = useState('');

  useEffect(() => {
    setState(null);
    call(api.GET('/users/{handle}/blocks/{target}', { params: { path: { handle: me, target: handle } } }))
      .then(({ data }) => {
        setState(data);
        onChange(data, 'loaded');
      })
      .catch(() => setState(null)); // no buttons rather than wrong ones; the profile says what failed
  }, [me, handle]);

  async function act(action: BlockAction) {
    if (
      action === 'block' &&
      !(await ask({
        title: t('blocks.blockTitle', { handle }),
        detail: t('blocks.blockDetail'),
        action: t('blocks.block'),
      }))
    )
      return;
    setBusy(true);
    setError(null);
    setStatus('');
    try {
      const params = { path: { handle: me, target: handle } };
      const { data } =
        action === 'block'
          ? await call(api.PUT('/users/{handle}/blocks/{target}', { params }))
          : action === 'unblock'
            ? await call(api.DELETE('/users/{handle}/blocks/{target}', { params }))
            : action === 'mute'
              ? await call(api.PUT('/users/{handle}/mutes/{target}', { params }))
              : await call(api.DELETE('/users/{handle}/mutes/{target}', { params }));
      setState(data);
      setStatus(t(`blocks.done.${action}`, { handle }));
      onChange(data, action);
    } catch (err) {
      setError(err);
    } finally {
      setBusy(false);
    }
  }

  if (!state) return null;
  // Beside the follow button (the profile lays them out in one row): a block or mute in force
  // shows as its undo; the ones not in force wait in the "⋯" menu.
  const menu: MenuItem[] = [
    ...(state.muting ? [] : [{ label: t('blocks.muteHandle', { handle }), run: () => act('mute') }]),
    ...(state.blocking ? [] : [{ label: t('blocks.blockHandle', { handle }), run: () => act('block'), danger: true }]),
  ];
  return (
    <>
      {state.blocking && (
        <button type="button" class="secondary" disabled={busy} onClick={() => act('unblock')}>
          {t('blocks.unblock')}
        </button>
      )}
      {state.muting && (
        <button type="button" class="secondary" disabled={busy} onClick={() => act('unmute')}>
          {t('blocks.unmute')}
        </button>
      )}
      <MoreMenu label={t('profile.more', { handle })} items={menu} />
      <span role="status">{status}</span>
      <ErrorMessage error={error} />
    </>
  );
}
