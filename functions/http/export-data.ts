// functions/http/export-data.ts — GET /users/{handle}/export: the token's user's data export —
// 200 with a short-lived link once built, 202 with Retry-After while the worker builds it
// (shared/use-cases/export-data.ts).
import { feedWithExports } from '../../shared/wiring/data-export.js';
import { EXPORT_RETRY_SECONDS } from '../../shared/domain/data-export.js';
import { httpRoute, json } from '../../shared/http/http-handler.js';
import { routes } from '../../shared/http/routes.js';
import { exportView } from '../../shared/http/views.js';
import { requestExport } from '../../shared/use-cases/export-data.js';

export const { run, handler } = httpRoute(routes.exportData, async ({ actor, params }) => {
  const deps = feedWithExports();
  if (!deps.exports)
    throw new Error('Invalid configuration: data exports need the media bucket (MEDIA_BUCKET, MEDIA_BASE_URL)');
  const answer = await requestExport({ ...deps, exports: deps.exports }, actor, params.handle);
  return answer.state === 'ready'
    ? json(200, exportView(answer), { 'Cache-Control': 'no-store' })
    : json(202, exportView(answer), { 'Retry-After': String(EXPORT_RETRY_SECONDS) });
});
