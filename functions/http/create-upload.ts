// functions/http/create-upload.ts — POST /media: start uploading a picture (a media record and a presigned PUT).
import { mediaDependencies } from '../../shared/composition.js';
import { httpRoute, json } from '../../shared/http/http-handler.js';
import { routes } from '../../shared/http/routes.js';
import { uploadView } from '../../shared/http/views.js';
import { startUpload } from '../../shared/use-cases/media/uploads.js';

export const { run, handler } = httpRoute(routes.createUpload, async ({ actor, body }) => {
  const deps = mediaDependencies();
  return json(201, uploadView(await startUpload(deps, actor, body), (id, v) => deps.objects.variantUrl(id, v)));
});
