// shared/composition.ts — the composition root: builds the HBase client and the adapters from
// configuration once per Lambda container (warm invocations reuse the keep-alive connections).
import { HBaseLoginThrottle, HBaseUserStore } from './adapters/hbase/hbase-user-store.js';
import { config, tokenSettings, type Config } from './config/config.js';
import { HBaseRestClient } from './hbase/index.js';

export function createDependencies(cfg: Config = config()) {
  const hbase = new HBaseRestClient({
    baseUrl: cfg.HBASE_REST_URL,
    timeoutMs: cfg.HBASE_TIMEOUT_MS,
    headers: cfg.HBASE_AUTHORIZATION ? { Authorization: cfg.HBASE_AUTHORIZATION } : {},
  });
  return {
    hbase,
    users: new HBaseUserStore(hbase, cfg.HBASE_NAMESPACE),
    throttle: new HBaseLoginThrottle(hbase, cfg.HBASE_NAMESPACE),
    tokens: () => tokenSettings(cfg),
    loginPolicy: { maxFailures: cfg.LOGIN_MAX_FAILURES, lockSeconds: cfg.LOGIN_LOCK_SECONDS },
  };
}

export type Dependencies = ReturnType<typeof createDependencies>;

let cached: Dependencies | undefined;
export function dependencies(): Dependencies {
  cached ??= createDependencies();
  return cached;
}
