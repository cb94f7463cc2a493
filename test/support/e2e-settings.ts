// test/support/e2e-settings.ts — numbers of the end-to-end stack that tests reason with, kept
// apart from offline-setup.ts (which starts the stack) so a test file can import them cheaply.

/**
 * The settle window W under the e2e stack (offline-setup.ts passes it as SETTLE_SECONDS): delayed
 * settle and notify messages run this long after the request that queued them. Tests that time
 * queued work bound it by this.
 */
export const E2E_SETTLE_SECONDS = 4;
