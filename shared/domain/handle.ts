// shared/domain/handle.ts — domain: what a user handle is. Every layer (validation, storage keys,
// the web client through the OpenAPI contract) takes the format from here.

/** The longest handle, in characters. */
export const HANDLE_MAX_LENGTH = 30;

/** Handles: lowercase letters, digits, underscore; 1–30 chars. Never contains 0x00 or '/'. */
export const HANDLE_PATTERN = /^[a-z0-9_]{1,30}$/;

export function isHandle(value: string): boolean {
  return HANDLE_PATTERN.test(value);
}
