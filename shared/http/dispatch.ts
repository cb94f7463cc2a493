// shared/http/dispatch.ts — one Lambda function for a family of routes: the handler that API
// Gateway's route key (`GET /users/{handle}/conversations`, payload 2.0) names answers. One
// function per family keeps the stack's resources (docs/deploy.md "Stack size") and the cold
// containers few; each route keeps its own middleware chain and validation (httpRoute).
import type { APIGatewayProxyEventV2, Context } from 'aws-lambda';
import type { Route } from './routes.js';

type Handler = (event: APIGatewayProxyEventV2, context: Context) => Promise<unknown>;

export function dispatchOnRoute(entries: [Route, Handler][]): Handler {
  const byKey = new Map(entries.map(([r, h]) => [`${r.method} ${r.path}`, h]));
  return async (event, context) => {
    const handler = byKey.get(event.routeKey);
    // Only the routes this function is deployed with reach it: anything else is a deployment mistake.
    if (!handler) throw new Error(`no handler for route ${JSON.stringify(event.routeKey)} in this function`);
    return handler(event, context);
  };
}
