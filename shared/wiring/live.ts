// shared/wiring/live.ts — the live channel's ports: the HBase live table, the push through API
// Gateway's management API, positions sealed with each reader's own key, tokens as authentication
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

/**
 * A worker reads an author's watchers at most this often: the messages of one post's fan-out
 * (segments, continuations) share one read. A reader who starts watching meanwhile misses that
 * post's hint only (docs/consistency.md T); its timeline has the post.
 */
const WATCHERS_MAX_AGE_MS = 5_000;

let deps: LiveDeps | undefined;
/** The live channel's ports, built on first use. */
export function liveDependencies(): LiveDeps {
  if (deps) return deps;
  const cfg = config();
  const hbase = hbaseClient();
  deps = {
    live: new HBaseLiveStore(hbase, cfg.HBASE_NAMESPACE, { watchersMaxAgeMs: WATCHERS_MAX_AGE_MS }),
    push: connectionPush(),
    positions: hmacPositionSeal,
    tokens: { verify: async (token) => verifiedSession(token, await tokenKeys()) },
    relations: new HBaseRelationStore(hbase, cfg.HBASE_NAMESPACE, { settleMs: cfg.SETTLE_SECONDS * 1000 }),
  };
  return deps;
}
