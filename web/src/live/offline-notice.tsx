// web/src/live/offline-notice.tsx — says, above the page, that the live channel is down and
// being reconnected (what arrived meanwhile comes on reconnect). A status region that is always
// in the page, so screen readers announce the sentence when it appears.
import { useEffect, useState } from 'preact/hooks';
import { useI18n } from '../i18n/i18n';
import { live } from './live';

export function OfflineNotice() {
  const { t } = useI18n();
  const [offline, setOffline] = useState(live.status() === 'offline');
  useEffect(() => live.onStatus((s) => setOffline(s === 'offline')), []);
  return (
    <div class="live-status" role="status">
      {offline && <p class="notice live-offline">{t('live.offline')}</p>}
    </div>
  );
}
