// web/src/features/media/upload.ts — one picture's way from the disk to `ready`: checked here by
// its declared type and size, declared to the API (POST /media), its bytes PUT straight to
// storage with the presigned request (an XMLHttpRequest: fetch reports no upload progress),
// completed, then awaited until the worker has made it `ready` or `failed`: the live channel
// tells of that (a `media` event), and the record is polled only while the channel is not open.
import { ApiProblem, api, call, type Media } from '../../api/client';
import { live } from '../../live/live';
import { precheck } from './limits';

/** What the picture is for: a post's, your avatar or cover, or a private message's. */
export type Purpose = 'post' | 'avatar' | 'cover' | 'message';

/** Where the upload is, for its progress bar: `sending` carries the fraction of bytes sent. */
export type UploadStep = { step: 'sending'; sent: number } | { step: 'processing' };

// Polling GET /media/{id}: a first look soon (small pictures are ready within a second or two),
// then less and less often, and a bound on the whole wait so a stuck record is said, not hidden.
const POLL_FIRST_MS = 400;
const POLL_MAX_MS = 4_000;
const POLL_GROWTH = 1.6;
const POLL_GIVE_UP_MS = 120_000;
/**
 * While the channel is open its `media` event says when the picture is done; the record is looked
 * at this seldom only as a backstop for a push that was lost (the event itself stays in the log).
 */
const LIVE_CHECK_MS = 30_000;

// Headers a page may not set (the browser sets them from the body itself): the signature still
// covers them, and the browser's value is the file's real length.
const BROWSER_SET = new Set(['content-length', 'host']);

/**
 * Uploads a picture and waits for the worker. Resolves with the media record once it is `ready`
 * or `failed` (a failed one carries its reason); rejects with an ApiProblem when the API or
 * storage refuses or cannot be reached, or with an AbortError when `signal` aborts.
 */
export async function uploadPicture(
  file: File,
  onStep: (s: UploadStep) => void,
  signal: AbortSignal,
  purpose: Purpose = 'post',
): Promise<Media> {
  const refused = precheck(file);
  if (refused) throw new ApiProblem(422, refused);
  const { data } = await call(
    api.POST('/media', { body: { contentType: file.type, size: file.size, purpose }, signal }),
  );
  const id = data.media.id;
  onStep({ step: 'sending', sent: 0 });
  await put(data.upload, file, (sent) => onStep({ step: 'sending', sent }), signal);
  onStep({ step: 'processing' });
  let record = (await call(api.POST('/media/{id}/complete', { params: { path: { id } }, signal }))).data;
  const giveUpAt = Date.now() + POLL_GIVE_UP_MS;
  for (
    let wait = POLL_FIRST_MS;
    record.state !== 'ready' && record.state !== 'failed';
    wait = Math.min(POLL_MAX_MS, wait * POLL_GROWTH)
  ) {
    if (Date.now() + wait > giveUpAt) throw new ApiProblem(0, 'media_timeout');
    // Open channel: until its event says the picture is done (or a seldom check); otherwise a poll.
    if (live.status() === 'open') await settled(id, LIVE_CHECK_MS, signal);
    else await sleep(wait, signal);
    // Background: the page's own requests (a timeline page) go first, as for the unread badge.
    record = (await call(api.GET('/media/{id}', { params: { path: { id } }, signal }), { background: true })).data;
  }
  return record;
}

function put(
  upload: { url: string; headers: Record<string, string> },
  file: File,
  progress: (sent: number) => void,
  signal: AbortSignal,
): Promise<void> {
  return new Promise((resolve, reject) => {
    const xhr = new XMLHttpRequest();
    xhr.open('PUT', upload.url);
    for (const [name, value] of Object.entries(upload.headers))
      if (!BROWSER_SET.has(name.toLowerCase())) xhr.setRequestHeader(name, value);
    xhr.upload.onprogress = (e) => e.lengthComputable && progress(e.loaded / e.total);
    xhr.onload = () => {
      if (xhr.status >= 200 && xhr.status < 300) {
        progress(1);
        resolve();
      } else reject(new ApiProblem(xhr.status, 'upload_failed'));
    };
    xhr.onerror = () => reject(new ApiProblem(0, 'network'));
    xhr.onabort = () => reject(new DOMException('aborted', 'AbortError'));
    signal.addEventListener('abort', () => xhr.abort(), { once: true });
    xhr.send(file);
  });
}

/** Resolves when the live channel says picture `id` is done, it stops being open, or after `ms`. */
function settled(id: string, ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    const done = () => {
      clearTimeout(timer);
      offEvent();
      offStatus();
      signal.removeEventListener('abort', aborted);
    };
    const finish = () => {
      done();
      resolve();
    };
    const aborted = () => {
      done();
      reject(new DOMException('aborted', 'AbortError'));
    };
    const timer = setTimeout(finish, ms);
    const offEvent = live.onEvent((e) => e.kind === 'media' && e.mediaId === id && finish());
    const offStatus = live.onStatus((s) => s !== 'open' && finish());
    signal.addEventListener('abort', aborted, { once: true });
  });
}

function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(resolve, ms);
    signal.addEventListener(
      'abort',
      () => {
        clearTimeout(timer);
        reject(new DOMException('aborted', 'AbortError'));
      },
      { once: true },
    );
  });
}
