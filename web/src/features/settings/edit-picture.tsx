// web/src/features/settings/edit-picture.tsx — in your settings: pick a picture to be your avatar
// or your profile's cover (the same upload as a post's pictures, with purpose `avatar` — the
// worker makes it square — or `cover`), or remove it. Says where it is (uploading n %,
// processing) and why a picture was refused.
import { useRef, useState } from 'preact/hooks';
import { api, call, type Profile } from '../../api/client';
import { ErrorMessage } from '../../components/problem';
import { hasMessage, useI18n } from '../../i18n/i18n';
import { PICTURE_TYPES } from '../media/limits';
import { uploadPicture, type UploadStep } from '../media/upload';

export type PictureKind = 'avatar' | 'cover';

export function EditPicture({
  kind,
  profile,
  onSaved,
}: {
  kind: PictureKind;
  profile: Profile;
  onSaved: (p: Profile) => void;
}) {
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
      const media = await uploadPicture(file, setStep, new AbortController().signal, kind);
      if (media.state === 'failed') {
        const key = `media.reason.${media.reason ?? 'unknown'}`;
        setStatus(t(`${kind}.refused`, { reason: t(hasMessage(key) ? key : 'media.reason.unknown') }));
        return;
      }
      const body = { mediaId: media.id };
      const { data } =
        kind === 'avatar'
          ? await call(api.PUT('/users/{handle}/avatar', { ...path, body }))
          : await call(api.PUT('/users/{handle}/cover', { ...path, body }));
      onSaved(data);
      setStatus(t(`${kind}.saved`));
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
      const { data } =
        kind === 'avatar'
          ? await call(api.DELETE('/users/{handle}/avatar', path))
          : await call(api.DELETE('/users/{handle}/cover', path));
      onSaved(data);
      setStatus(t(`${kind}.removed`));
    } catch (err) {
      setError(err);
    }
  }

  const busy = step !== null;
  const has = kind === 'avatar' ? profile.avatar : profile.cover;
  return (
    <div class="edit-avatar">
      <input
        ref={input}
        id={`${kind}-file`}
        type="file"
        accept={PICTURE_TYPES.join(',')}
        hidden
        onChange={(e) => chosen((e.target as HTMLInputElement).files?.[0])}
      />
      <button type="button" class="secondary" disabled={busy} onClick={() => input.current?.click()}>
        {t(`${kind}.change`)}
      </button>
      {has && (
        <button type="button" class="secondary" onClick={remove} disabled={busy}>
          {t(`${kind}.remove`)}
        </button>
      )}
      {step && (
        <progress
          max={1}
          value={step.step === 'sending' ? step.sent : undefined}
          aria-label={t(step.step === 'sending' ? `${kind}.uploading` : `${kind}.processing`)}
        />
      )}
      <p class="avatar-status" role="status">
        {status}
      </p>
      <ErrorMessage error={error} />
    </div>
  );
}
