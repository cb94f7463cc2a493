// vitest.config.ts — the test scopes and how their files share the machine (root of the test tree).
import { configDefaults, defineConfig } from 'vitest/config';

// Two scopes, as in Powertools: `unit` needs no network; `integration` talks to the real
// HBase REST gateway and queue (the global setup starts them when they are not up); `e2e` goes
// through HTTP to the functions under serverless-offline, browser tests included.
//
// Files run side by side where they are independent: each integration file works in a
// namespace (and queues) of its own; e2e files share one API, namespace and queue, but each
// uses users of its own and waits only for its own queued work (test/support/queue.ts). The few
// files that are not independent run afterwards, one at a time, in the `-serial` projects:
const SERIAL_INTEGRATION = [
  // Runs the feed benchmark (its own load on HBase and the queue); alone, so it neither
  // slows the others' deadlines nor is slowed into its own.
  'test/integration/bench-smoke.test.ts',
];
// Packages the whole template with the real framework (two minutes of bundling): independent of
// the stack, so it runs beside the integration files in `npm test`, in a project of its own that
// `npm run test:fast` leaves out.
const PACKAGING = ['test/integration/serverless-package.test.ts'];
const SERIAL_E2E = [
  // Stops the REST gateway everyone uses, and waits for the whole queue to drain.
  'test/e2e/fault-tolerance.test.ts',
  // Compares the world with a model once the whole queue has drained; counts the whole DLQ.
  'test/e2e/model-check.test.ts',
  // Proves that nothing in the namespace changed (every cell), so nothing else may write.
  'test/e2e/hostile-input.test.ts',
  // The jobs walk every row of the namespace (trim to the cap, repair, the run's DLQ report).
  'test/e2e/jobs.test.ts',
];
// Groups run one after another (sequence.groupOrder): unit + integration together, then the
// serial integration files, then e2e + browser, then the serial e2e files. Three workers on two
// cores: most test time is waiting (on the queue, settle windows, redelivery), not computing.
const WORKERS = 3;

export default defineConfig({
  test: {
    projects: [
      {
        test: {
          name: 'unit',
          include: ['test/unit/**/*.test.ts'],
          environment: 'node',
          maxWorkers: WORKERS,
          sequence: { groupOrder: 0 },
        },
      },
      {
        test: {
          name: 'integration',
          include: ['test/integration/**/*.test.ts'],
          exclude: [...configDefaults.exclude, ...SERIAL_INTEGRATION, ...PACKAGING],
          environment: 'node',
          globalSetup: ['test/support/global-setup.ts'],
          testTimeout: 60_000,
          hookTimeout: 120_000,
          fileParallelism: true,
          maxWorkers: WORKERS,
          sequence: { groupOrder: 0 },
        },
      },
      {
        test: {
          name: 'packaging',
          include: PACKAGING,
          environment: 'node',
          maxWorkers: WORKERS, // one file; the value only has to match its group's (vitest's rule)
          testTimeout: 60_000,
          hookTimeout: 300_000,
          sequence: { groupOrder: 0 },
        },
      },
      {
        test: {
          name: 'integration-serial',
          include: SERIAL_INTEGRATION,
          environment: 'node',
          globalSetup: ['test/support/global-setup.ts'],
          testTimeout: 60_000,
          hookTimeout: 120_000,
          fileParallelism: false,
          maxWorkers: 1,
          sequence: { groupOrder: 1 },
        },
      },
      {
        test: {
          name: 'e2e',
          // Browser tests are end-to-end too: real Chromium against the web client in front of
          // the same API (one serverless-offline for both).
          include: ['test/e2e/**/*.test.ts', 'test/browser/**/*.test.ts'],
          exclude: [...configDefaults.exclude, ...SERIAL_E2E],
          environment: 'node',
          // Stack first, then the API under serverless-offline on a fresh namespace (one for
          // both e2e projects: offline-setup.ts shares it), then the web client built and
          // served in front of it.
          globalSetup: ['test/support/global-setup.ts', 'test/support/offline-setup.ts', 'test/support/web-setup.ts'],
          testTimeout: 120_000,
          hookTimeout: 180_000,
          fileParallelism: true,
          maxWorkers: WORKERS,
          sequence: { groupOrder: 2 },
        },
      },
      {
        test: {
          name: 'e2e-serial',
          include: SERIAL_E2E,
          environment: 'node',
          globalSetup: ['test/support/global-setup.ts', 'test/support/offline-setup.ts'],
          testTimeout: 120_000,
          hookTimeout: 180_000,
          fileParallelism: false,
          maxWorkers: 1,
          sequence: { groupOrder: 3 },
        },
      },
    ],
  },
});
