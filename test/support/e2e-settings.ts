// test/support/e2e-settings.ts — numbers of the end-to-end stack that tests reason with, kept
// apart from offline-setup.ts (which starts the stack) so a test file can import them cheaply.

/**
 * The settle window W under the e2e stack (offline-setup.ts passes it as SETTLE_SECONDS): delayed
 * settle and notify messages run this long after the request that queued them. Tests that time
 * queued work bound it by this. It also sets every request's operation budget
 * (shared/runtime/deadline.ts): (15 s − 3.5 s) / 2 = 5.75 s, room for a request on a machine under
 * the pressure tests' load.
 */
export const E2E_SETTLE_SECONDS = 15;
