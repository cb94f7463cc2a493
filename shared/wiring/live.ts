// shared/wiring/live.ts — the live channel's ports: the HBase live table, the push through API
// Gateway's management API, positions sealed with the signing keys, tokens as authentication
// checks them, and the relations (who a reader follows, who follows an author).
import { apiGatewayConnectionPush } from '../adapters/apigateway/connection-push.js';
import { HBaseLiveStore } from '../adapters/hbase/hbase-live-store.js';
import { HBaseRelationStore } from '../adapters/hbase/hbase-relation-store.js';
import { hmacPositionSeal } from '../auth/positions.js';
import { verifiedSession } from '../auth/tokens.js';
import { config } from '../config/config.js';
import type { ConnectionPush } from '../ports/live-store.js';
import type { LiveDeps } from '../use-cases/live.js';
import { hbaseClient } from './hbase.js';
import { tokenKeys } from './tokens.js';

let push: ConnectionPush | undefined;
/** The push to connections; a stage without a WebSocket API (LIVE_ENDPOINT unset) pushes nothing. */
export function connectionPush(): ConnectionPush {
  if (push) return push;
  const cfg = config();
  push = cfg.LIVE_ENDPOINT
    ? apiGatewayConnectionPush({ endpoint: cfg.LIVE_ENDPOINT, local: cfg.LIVE_LOCAL === '1' })
    : { send: async () => 'gone', disconnect: async () => {} };
  return push;
}

let deps: LiveDeps | undefined;
/** The live channel's ports, built on first use. */
export function liveDependencies(): LiveDeps {
  if (deps) return deps;
  const cfg = config();
  const hbase = hbaseClient();
  deps = {
    live: new HBaseLiveStore(hbase, cfg.HBASE_NAMESPACE),
    push: connectionPush(),
    positions: hmacPositionSeal,
    tokens: { verify: async (token) => verifiedSession(token, await tokenKeys()) },
    relations: new HBaseRelationStore(hbase, cfg.HBASE_NAMESPACE, { settleMs: cfg.SETTLE_SECONDS * 1000 }),
  };
  return deps;
}
