// shared/hbase/undici-parts.ts — the two parts of undici the transport uses: the keep-alive Agent
// and the promise `request` on a dispatcher. Loaded from their own files because undici's index
// also loads fetch, WebSocket, every other dispatcher, the cache and the mocks, which every
// function bundle would then carry and parse at cold start (docs/deploy.md, "Packaging").
// The version is pinned in package.json; test/unit/hbase-transport.test.ts exercises both parts.
import type { Agent as UndiciAgent, Dispatcher } from 'undici';
import AgentImpl from 'undici/lib/dispatcher/agent.js';
import requestImpl from 'undici/lib/api/api-request.js';

export const Agent: typeof UndiciAgent = AgentImpl;
export type Agent = UndiciAgent;

/** `dispatcher.request(options)`, without the index that adds it to every dispatcher's prototype. */
export function request(dispatcher: Dispatcher, options: Dispatcher.RequestOptions): Promise<Dispatcher.ResponseData> {
  return requestImpl.call(dispatcher, options);
}
