// shared/adapters/apigateway/connection-push.ts — ConnectionPush on API Gateway's management API
// (PostToConnection, DeleteConnection) of the WebSocket API; locally serverless-offline serves the
// same API on its WebSocket port. A 410 (GoneException) is a connection that no longer exists.
import {
  ApiGatewayManagementApiClient,
  DeleteConnectionCommand,
  PostToConnectionCommand,
} from '@aws-sdk/client-apigatewaymanagementapi';
import type { ConnectionPush, PushResult } from '../../ports/live-store.js';
import { awsEndpointConfig } from '../aws-endpoint.js';

const isGone = (err: unknown) =>
  (err as { name?: string; $metadata?: { httpStatusCode?: number } } | null)?.name === 'GoneException' ||
  (err as { $metadata?: { httpStatusCode?: number } } | null)?.$metadata?.httpStatusCode === 410;

export function apiGatewayConnectionPush(opts: { endpoint: string; local: boolean }): ConnectionPush {
  const client = new ApiGatewayManagementApiClient(
    opts.local ? awsEndpointConfig({ endpoint: opts.endpoint }) : { endpoint: opts.endpoint },
  );
  const encoder = new TextEncoder();
  return {
    async send(connectionId: string, frame: unknown): Promise<PushResult> {
      try {
        await client.send(
          new PostToConnectionCommand({ ConnectionId: connectionId, Data: encoder.encode(JSON.stringify(frame)) }),
        );
        return 'sent';
      } catch (err) {
        if (isGone(err)) return 'gone';
        throw err;
      }
    },
    async disconnect(connectionId: string): Promise<void> {
      try {
        await client.send(new DeleteConnectionCommand({ ConnectionId: connectionId }));
      } catch (err) {
        if (!isGone(err)) throw err;
      }
    },
  };
}
