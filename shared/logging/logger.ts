// shared/logging/logger.ts — one structured JSON logger (Powertools) for every function.
// Never pass request bodies, headers, passwords or tokens to it.
//
// Every line carries `correlation_id`: the id of the invocation scope it was logged in
// (shared/runtime/invocation-scope.ts). It is read from the scope per line rather than set with
// appendKeys, because the fan-out worker handles a batch's records concurrently and each record
// carries the id of the request that queued it: one process-wide key would stamp one record's
// id on another's lines. The Lambda context keys come from injectLambdaContext (resetKeys, so
// no key outlives its invocation).
import { Logger, type LogItem } from '@aws-lambda-powertools/logger';
import type { LogItemExtraInput, LogItemMessage } from '@aws-lambda-powertools/logger/types';
import { currentScope } from '../runtime/invocation-scope.js';

class ScopedLogger extends Logger {
  protected override createAndPopulateLogItem(
    logLevel: number,
    input: LogItemMessage,
    extraInput: LogItemExtraInput,
  ): LogItem {
    const item = super.createAndPopulateLogItem(logLevel, input, extraInput);
    const id = currentScope()?.correlationId;
    if (id !== undefined && item.getAttributes().correlation_id === undefined)
      item.addAttributes({ correlation_id: id });
    return item;
  }
}

export const logger: Logger = new ScopedLogger({ serviceName: 'weibo-serverless' });
