// functions/http/openapi.ts — GET /openapi.json: the committed OpenAPI document (generated from
// shared/http/routes.ts by `npm run openapi`; a unit test fails when the two differ).
import document from '../../docs/openapi.json' with { type: 'json' };
import { httpRoute, json } from '../../shared/http/http-handler.js';
import { routes } from '../../shared/http/routes.js';

export const { run, handler } = httpRoute(routes.openapi, async () =>
  json(200, document, { 'Cache-Control': 'public, max-age=300' }),
);
