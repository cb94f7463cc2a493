// functions/http/complete-upload.ts — POST /media/{id}/complete: the bytes are uploaded; queue the processing.
import { mediaDependencies } from '../../shared/wiring/media.js';
import { httpRoute, json } from '../../shared/http/http-handler.js';
import { routes } from '../../shared/http/routes.js';
import { mediaView } from '../../shared/http/views.js';
import { completeUpload } from '../../shared/use-cases/media/uploads.js';

export const { run, handler } = httpRoute(routes.completeUpload, async ({ actor, params }) => {
  const deps = mediaDependencies();
  return json(
    200,
    mediaView(await completeUpload(deps, actor, params.id), (id, v) => deps.objects.variantUrl(id, v)),
  );
});
