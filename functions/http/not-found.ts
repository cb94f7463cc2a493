// functions/http/not-found.ts — every unmatched route: a 404 in the same JSON error shape as the
// rest of the API (API Gateway's own 404 body would be {"message":"Not Found"}).
import { NotFoundError } from '../../shared/domain/errors.js';
import { httpRoute } from '../../shared/http/http-handler.js';

export const { run, handler } = httpRoute({ auth: false }, async () => {
  throw new NotFoundError('No such route', 'route_not_found');
});
