// shared/use-cases/cursor.ts — opaque page cursors. Clients get base64url text they must hand
// back unchanged; inside it is a store position (a post id, a handle, an inbox position).
import { InvalidInputError } from '../domain/errors.js';

export function encodeCursor(inner: string): string {
  return Buffer.from(inner, 'utf8').toString('base64url');
}

/** Decodes and checks the inner value; anything else is a client mistake (422), never a 500. */
export function decodeCursor(cursor: string | undefined, valid: (inner: string) => boolean): string | undefined {
  if (cursor === undefined) return undefined;
  const inner = /^[A-Za-z0-9_-]{1,512}$/.test(cursor) ? Buffer.from(cursor, 'base64url').toString('utf8') : '';
  if (!inner || !valid(inner)) throw new InvalidInputError('cursor is not one this API issued', 'invalid_cursor');
  return inner;
}
