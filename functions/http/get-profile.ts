// functions/http/get-profile.ts — GET /users/{handle}: public profile with follower/following/post counts.
import { profileDependencies } from '../../shared/wiring/profile.js';
import { httpRoute, json } from '../../shared/http/http-handler.js';
import { routes } from '../../shared/http/routes.js';
import { profileView } from '../../shared/http/views.js';
import { getProfile } from '../../shared/use-cases/get-profile.js';

export const { run, handler } = httpRoute(routes.getProfile, async ({ params }) =>
  json(200, profileView(await getProfile(profileDependencies(), params.handle))),
);
