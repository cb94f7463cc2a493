// shared/use-cases/idempotency.ts — what the creates with an Idempotency-Key share (Stripe's
// semantics; invariant B in docs/consistency.md): one key of a user names ONE request,
// recognised by its fingerprint. Publish and repost keep the fingerprint they always had (a hash
// of what they publish, publish-post.ts); a comment and an upload hash their operation with what
// they ask for, so a key reused for another operation or another body is a mismatch (422).
import { createHash } from 'node:crypto';
import { InvalidInputError } from '../domain/errors.js';

/** The fingerprint of a request under an Idempotency-Key: its operation and its fields, unambiguously encoded. */
export function requestFingerprint(operation: 'comment' | 'upload', fields: readonly (string | number)[]): string {
  return createHash('sha256')
    .update(JSON.stringify([operation, ...fields]), 'utf8')
    .digest('base64url');
}

export const keyMismatch = () =>
  new InvalidInputError('This Idempotency-Key was used with a different request body', 'idempotency_key_mismatch');
