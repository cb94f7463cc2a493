// shared/logging/logger.ts — one structured JSON logger (Powertools) for every function.
// Never pass request bodies, headers, passwords or tokens to it.
import { Logger } from '@aws-lambda-powertools/logger';

export const logger = new Logger({ serviceName: 'weibo-serverless' });
