// shared/hbase/undici-files.d.ts — the types of the two undici files that undici-parts.ts loads
// directly (undici declares its index only): the same Agent and request its index exports.
declare module 'undici/lib/dispatcher/agent.js' {
  import type { Agent } from 'undici';
  const AgentImpl: typeof Agent;
  export = AgentImpl;
}

declare module 'undici/lib/api/api-request.js' {
  import type { Dispatcher } from 'undici';
  function request(this: Dispatcher, options: Dispatcher.RequestOptions): Promise<Dispatcher.ResponseData>;
  export = request;
}
