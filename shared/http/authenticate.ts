// shared/http/authenticate.ts — the one place tokens are verified. Puts the acting user's
// handle on the request; use cases take the actor from here, never from body or path.
import type middy from '@middy/core';
import type { APIGatewayProxyEventV2, Context } from 'aws-lambda';
import { AuthenticationError } from '../domain/errors.js';
import { verifyToken } from '../auth/tokens.js';
import { tokenKeys } from '../wiring/tokens.js';

export interface AuthContext extends Context {
  actor?: string;
}

const BEARER = /^Bearer ([A-Za-z0-9_-]+\.[A-Za-z0-9_-]*\.[A-Za-z0-9_-]*)$/;

/** `optional`: a request without a token passes as anonymous; a bad or expired token is still 401. */
export const authenticate = (
  opts: { optional?: boolean } = {},
): middy.MiddlewareObj<APIGatewayProxyEventV2, unknown, Error, AuthContext> => ({
  before: async ({ event, context }) => {
    const header = event.headers?.authorization;
    if (!header && opts.optional) return;
    if (!header) throw new AuthenticationError('Missing bearer token', 'missing_token');
    const match = BEARER.exec(header.trim());
    if (!match) throw new AuthenticationError('Malformed Authorization header', 'invalid_token');
    context.actor = await verifyToken(match[1]!, await tokenKeys());
  },
});
