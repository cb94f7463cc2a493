// shared/ports/dead-letter-queue.ts — read-only view of the fan-out dead-letter queue for the
// report job (SQS in production, ElasticMQ locally: shared/adapters/sqs/sqs-dead-letter-queue.ts).
// Nothing here deletes or moves a message: redriving is an operator's decision.

export interface DeadLetter {
  body: string;
  /** When the message was first sent to its original queue (millis); null when unknown. */
  sentAt: number | null;
  /** How many times it was received (the fan-out tries plus any earlier peeks). */
  receiveCount: number | null;
}

export interface DeadLetterQueue {
  /** The queue's name, for the report. */
  readonly name: string;
  /** Approximate counts from the queue attributes. */
  counts(): Promise<{ visible: number; inFlight: number }>;
  /** Receives up to `max` (≤ 10) messages with a short visibility timeout; never deletes them. */
  peek(max: number): Promise<DeadLetter[]>;
}
