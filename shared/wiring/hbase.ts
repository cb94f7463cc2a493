// shared/wiring/hbase.ts — the one HBase REST client of a container, built on first use from
// configuration (warm invocations reuse its keep-alive connections). Every capability's adapters
// share it.
import { config } from '../config/config.js';
import { HBaseRestClient } from '../hbase/index.js';
import { recordHBaseRequest } from '../observability/hbase-requests.js';
import { currentDeadline } from '../runtime/deadline.js';
import { deferToInvocation } from '../runtime/invocation-scope.js';
import { runtimeSecrets } from './secrets.js';

let client: HBaseRestClient | undefined;
export function hbaseClient(): HBaseRestClient {
  if (client) return client;
  const cfg = config();
  const secrets = runtimeSecrets();
  client = new HBaseRestClient({
    baseUrl: cfg.HBASE_REST_URL,
    timeoutMs: cfg.HBASE_TIMEOUT_MS,
    authorization: () => secrets.hbaseAuthorization(),
    deadline: currentDeadline,
    // Charges each request to the invocation that sent it (Server-Timing, HBase metrics).
    onRequest: recordHBaseRequest,
    // A scanner's delete runs beside the use case's next stage; the invocation awaits it.
    handOff: deferToInvocation,
  });
  return client;
}
