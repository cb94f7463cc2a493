// shared/wiring/queues.ts — the queues on SQS (ElasticMQ locally), each built on first use: one
// client per queue per container. Only the capabilities that send to a queue import this.
import { SqsDeadLetterQueue } from '../adapters/sqs/sqs-dead-letter-queue.js';
import { SqsFanoutQueue, SqsMediaQueue } from '../adapters/sqs/sqs-queues.js';
import { config } from '../config/config.js';
import type { DeadLetterQueue } from '../ports/dead-letter-queue.js';
import type { FanoutQueue } from '../ports/fanout-queue.js';
import type { MediaQueue } from '../ports/media-queue.js';

const endpoint = () => {
  const { SQS_ENDPOINT } = config();
  return SQS_ENDPOINT ? { endpoint: SQS_ENDPOINT } : {};
};

let fanout: FanoutQueue | undefined;
/** The fan-out queue: the feed's background work (shared/use-cases/background/). */
export function fanoutQueue(why = 'the feed'): FanoutQueue {
  if (fanout) return fanout;
  const url = config().FANOUT_QUEUE_URL;
  if (!url) throw new Error(`Invalid configuration: FANOUT_QUEUE_URL is required for ${why}`);
  fanout = new SqsFanoutQueue({ queueUrl: url, ...endpoint() });
  return fanout;
}

let media: MediaQueue | undefined;
/** The media worker's queue: the media functions, deletePost and the media-cleanup job send to it. */
export function mediaQueue(): MediaQueue {
  if (media) return media;
  const url = config().MEDIA_QUEUE_URL;
  if (!url) throw new Error('Invalid configuration: MEDIA_QUEUE_URL is required for pictures');
  media = new SqsMediaQueue({ queueUrl: url, ...endpoint() });
  return media;
}

let deadLetters: DeadLetterQueue | undefined;
/** The fan-out queue's dead letters, for the dead-letter report. */
export function deadLetterQueue(): DeadLetterQueue {
  if (deadLetters) return deadLetters;
  const url = config().FANOUT_DLQ_URL;
  if (!url) throw new Error('Invalid configuration: FANOUT_DLQ_URL is required for the dead-letter report');
  deadLetters = new SqsDeadLetterQueue({ queueUrl: url, ...endpoint() });
  return deadLetters;
}
