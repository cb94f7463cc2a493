// functions/http/get-media.ts — GET /media/{id}: the uploader's view of an upload (state; sizes and URLs once ready).
import { pictureDependencies } from '../../shared/wiring/pictures.js';
import { httpRoute, json } from '../../shared/http/http-handler.js';
import { routes } from '../../shared/http/routes.js';
import { mediaView } from '../../shared/http/views.js';
import { readMedia } from '../../shared/use-cases/media/uploads.js';

export const { run, handler } = httpRoute(routes.getMedia, async ({ actor, params }) => {
  const pictures = pictureDependencies();
  return json(200, mediaView(await readMedia(pictures, actor, params.id), pictures.variantUrl));
});
