// web/src/features/compose/send-problem.tsx — why sending a composed item (use-composed.ts) did
// not go through, as a sentence. When the outcome is unknown (the server failed or never
// answered) it says the item may or may not have been sent and that sending again is safe: the
// retry carries the same Idempotency-Key. Other refusals are said as everywhere (ErrorMessage).
import { ApiProblem } from '../../api/client';
import { ErrorMessage } from '../../components/problem';
import { useI18n } from '../../i18n/i18n';
import type { MessageKey } from '../../i18n/messages';

/**
 * A failure after which nobody knows whether the item was made: any 5xx (503 `timeout`,
 * `service_unavailable`, a gateway's 502/504…) or a request that got no answer. A request the
 * client held back (`session_changed`) was never sent: that one is known.
 */
export const outcomeUnknown = (err: unknown): boolean =>
  err instanceof ApiProblem && (err.status >= 500 || (err.status === 0 && err.code !== 'session_changed'));

function sentence(err: unknown): MessageKey | null {
  if (outcomeUnknown(err)) return 'send.unknown';
  if (!(err instanceof ApiProblem)) return null;
  if (err.code === 'idempotency_key_mismatch') return 'send.keySpent';
  if (err.status === 410) return 'send.deletedSince'; // the item this key made (post_deleted, comment_deleted)
  if (err.code === 'idempotency_in_progress') return 'send.inProgress';
  return null;
}

export function SendProblem({ error }: { error: unknown }) {
  const { t } = useI18n();
  if (!error) return null;
  const own = sentence(error);
  if (!own) return <ErrorMessage error={error} />;
  return (
    <div class="problem" role="alert">
      <p>{t(own)}</p>
    </div>
  );
}
