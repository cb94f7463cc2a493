import { defineConfig } from 'vitest/config';

// Two scopes, as in Powertools: `unit` needs no network; `integration` talks to the real
// HBase REST gateway (and later the queue), which the global setup starts when it is not up.
export default defineConfig({
  test: {
    projects: [
      {
        test: {
          name: 'unit',
          include: ['test/unit/**/*.test.ts'],
          environment: 'node',
        },
      },
      {
        test: {
          name: 'integration',
          include: ['test/integration/**/*.test.ts'],
          environment: 'node',
          globalSetup: ['test/support/global-setup.ts'],
          testTimeout: 60_000,
          hookTimeout: 120_000,
          // One HBase for everyone: files run one after another so timings and counts stay honest.
          fileParallelism: false,
        },
      },
      {
        test: {
          name: 'e2e',
          // Browser tests are end-to-end too: real Chromium against the web client in front of
          // the same API (one serverless-offline for both).
          include: ['test/e2e/**/*.test.ts', 'test/browser/**/*.test.ts'],
          environment: 'node',
          // Stack first, then the API under serverless-offline on a fresh namespace, then the
          // web client built and served in front of it.
          globalSetup: ['test/support/global-setup.ts', 'test/support/offline-setup.ts', 'test/support/web-setup.ts'],
          testTimeout: 120_000,
          hookTimeout: 180_000,
          fileParallelism: false,
        },
      },
    ],
  },
});
