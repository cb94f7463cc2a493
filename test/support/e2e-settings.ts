// test/support/e2e-settings.ts — numbers of the end-to-end stack that tests reason with, kept
// apart from offline-setup.ts (which starts the stack) so a test file can import them cheaply.

/**
 * The settle window W under the e2e stack (offline-setup.ts passes it as SETTLE_SECONDS): delayed
 * settle and notify messages run this long after the request that queued them. Tests that time
 * queued work bound it by this. It also sets every request's operation budget
 * (shared/runtime/deadline.ts): (15 s − 3.5 s) / 2 = 5.75 s, room for a request on a machine under
 * the pressure tests' load.
 */
export const E2E_SETTLE_SECONDS = Number(process.env.E2E_SETTLE_SECONDS ?? 15);

/**
 * The celebrity threshold of the e2e stack (CELEBRITY_FOLLOWERS): tiny, so tests cross it both
 * ways (scale.test.ts). E2E_SETTLE_SECONDS and E2E_CELEBRITY_FOLLOWERS only for a run of the model
 * check alone that mirrors `npm start` (docs/testing.md, "Pressure"): other files assume these
 * defaults.
 */
export const E2E_CELEBRITY_FOLLOWERS = Number(process.env.E2E_CELEBRITY_FOLLOWERS ?? 3);
