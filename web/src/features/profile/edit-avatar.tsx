// web/src/features/profile/edit-avatar.tsx — on your own page: pick a picture to be your avatar
// (the same upload as a post's pictures, with purpose `avatar`: the worker makes it square), or
// go back to initials. Says where it is (uploading n %, processing) and why a picture was refused.
import { useRef, useState } from 'preact/hooks';
import { api, call, type Profile } from '../../api/client';
import { ErrorMessage } from '../../components/problem';
import { hasMessage, useI18n } from '../../i18n/i18n';
import { PICTURE_TYPES } from '../media/limits';
import { uploadPicture, type UploadStep } from '../media/upload';

export function EditAvatar({ profile, onSaved }: { profile: Profile; onSaved: (p: Profile) => void }) {
  const { t } = useI18n();
  const input = useRef<HTMLInputElement>(null);
  const [step, setStep] = useState<UploadStep | null>(null);
  const [error, setError] = useState<unknown>(null);
  const [status, setStatus] = useState('');
  const path = { params: { path: { handle: profile.handle } } };

  async function chosen(file: File | undefined) {
    if (!file) return;
    setError(null);
    setStatus('');
    try {
      const media = await uploadPicture(file, setStep, new AbortController().signal, 'avatar');
      if (media.state === 'failed') {
        const key = `media.reason.${media.reason ?? 'unknown'}`;
        setStatus(t('avatar.refused', { reason: t(hasMessage(key) ? key : 'media.reason.unknown') }));
        return;
      }
      const { data } = await call(api.PUT('/users/{handle}/avatar', { ...path, body: { mediaId: media.id } }));
      onSaved(data);
      setStatus(t('avatar.saved'));
    } catch (err) {
      setError(err);
    } finally {
      setStep(null);
      if (input.current) input.current.value = ''; // the same file may be picked again
    }
  }

  async function remove() {
    setError(null);
    try {
      onSaved((await call(api.DELETE('/users/{handle}/avatar', path))).data);
      setStatus(t('avatar.removed'));
    } catch (err) {
      setError(err);
    }
  }

  const busy = step !== null;
  return (
    <div class="edit-avatar">
      <input
        ref={input}
        id="avatar-file"
        type="file"
        accept={PICTURE_TYPES.join(',')}
        hidden
        onChange={(e) => chosen((e.target as HTMLInputElement).files?.[0])}
      />
      <button type="button" class="secondary" disabled={busy} onClick={() => input.current?.click()}>
        {t('avatar.change')}
      </button>
      {profile.avatar && (
        <button type="button" class="secondary" onClick={remove} disabled={busy}>
          {t('avatar.remove')}
        </button>
      )}
      {step && (
        <progress
          max={1}
          value={step.step === 'sending' ? step.sent : undefined}
          aria-label={t(step.step === 'sending' ? 'avatar.uploading' : 'avatar.processing')}
        />
      )}
      <p class="avatar-status" role="status">
        {status}
      </p>
      <ErrorMessage error={error} />
    </div>
  );
}
