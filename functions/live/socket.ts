// functions/live/socket.ts — the WebSocket API's three routes (infra/functions/live.yml):
// $connect authenticates and records the connection, $disconnect forgets it, $default answers a
// client's frame (ping, resume, renew) with one frame of its own (the route's response).
//
// The access token rides in Sec-WebSocket-Protocol: `weibo-live.v1, bearer.<token>`. A browser's
// WebSocket cannot set headers, and a query string is written into URLs that API Gateway's and
// proxies' access logs keep; the protocol header is in none of them. The answer names only
// `weibo-live.v1` (a browser drops a connection whose answer names no protocol it offered).
import type { Context } from 'aws-lambda';
import { AuthenticationError } from '../../shared/domain/errors.js';
import { LIVE_PROTOCOL, TOKEN_PROTOCOL_PREFIX } from '../../shared/domain/live.js';
import { logger } from '../../shared/logging/logger.js';
import { observedHandler } from '../../shared/observability/invocation.js';
import { closeConnection, openConnection, receiveFrame } from '../../shared/use-cases/live.js';
import { liveDependencies } from '../../shared/wiring/live.js';

/** What API Gateway hands a WebSocket route (the fields used here). */
interface SocketEvent {
  headers?: Record<string, string | undefined>;
  body?: string | null;
  isBase64Encoded?: boolean;
  requestContext: { connectionId: string; routeKey?: string };
}

interface SocketAnswer {
  statusCode: number;
  headers?: Record<string, string>;
  body?: string;
}

/** API Gateway's ids are short base64-like text; anything else is not a connection of ours. */
const CONNECTION_ID = /^[A-Za-z0-9=_+/-]{1,55}$/;

function offeredToken(headers: SocketEvent['headers']): { token?: string; protocol: boolean } {
  const raw = Object.entries(headers ?? {}).find(([k]) => k.toLowerCase() === 'sec-websocket-protocol')?.[1] ?? '';
  const offered = raw.split(',').map((p) => p.trim());
  const token = offered.find((p) => p.startsWith(TOKEN_PROTOCOL_PREFIX))?.slice(TOKEN_PROTOCOL_PREFIX.length);
  return { ...(token ? { token } : {}), protocol: offered.includes(LIVE_PROTOCOL) };
}

export const connect = observedHandler(async (event: SocketEvent, _context: Context): Promise<SocketAnswer> => {
  const id = event.requestContext.connectionId;
  const { token, protocol } = offeredToken(event.headers);
  if (!CONNECTION_ID.test(id) || !token || !protocol) return { statusCode: 401 };
  try {
    const connection = await openConnection(liveDependencies(), id, token, Date.now());
    logger.info('live connection opened', { handle: connection.handle, expiresAt: connection.expiresAt });
    return { statusCode: 200, headers: { 'Sec-WebSocket-Protocol': LIVE_PROTOCOL } };
  } catch (err) {
    if (err instanceof AuthenticationError) return { statusCode: 401 };
    throw err;
  }
});

export const disconnect = observedHandler(async (event: SocketEvent): Promise<SocketAnswer> => {
  const id = event.requestContext.connectionId;
  if (CONNECTION_ID.test(id)) await closeConnection(liveDependencies(), id);
  return { statusCode: 200 };
});

export const message = observedHandler(async (event: SocketEvent): Promise<SocketAnswer> => {
  const id = event.requestContext.connectionId;
  const body = event.isBase64Encoded ? Buffer.from(event.body ?? '', 'base64').toString('utf8') : (event.body ?? '');
  const frame = CONNECTION_ID.test(id)
    ? await receiveFrame(liveDependencies(), id, body, Date.now())
    : ({ type: 'error', code: 'not_connected', message: 'This connection is not open' } as const);
  return { statusCode: 200, body: JSON.stringify(frame) };
});
