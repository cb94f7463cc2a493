// functions/http/create-upload.ts — POST /media: start uploading a picture (a media record and a presigned PUT; 201, 200 when an Idempotency-Key replays).
import { mediaDependencies } from '../../shared/wiring/media.js';
import { httpRoute, json } from '../../shared/http/http-handler.js';
import { routes } from '../../shared/http/routes.js';
import { uploadView } from '../../shared/http/views.js';
import { startUpload } from '../../shared/use-cases/media/uploads.js';

export const { run, handler } = httpRoute(routes.createUpload, async ({ actor, body, headers }) => {
  const deps = mediaDependencies();
  const key = headers['idempotency-key'];
  const started = await startUpload(deps, actor, { ...body, ...(key ? { idempotencyKey: key } : {}) });
  return json(
    started.replayed ? 200 : 201,
    uploadView(started, (id, v) => deps.objects.variantUrl(id, v)),
  );
});
