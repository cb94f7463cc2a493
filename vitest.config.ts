// vitest.config.ts — the test scopes and how their files share the machine (root of the test tree).
import { relative } from 'node:path';
import { configDefaults, defineConfig } from 'vitest/config';
import { BaseSequencer, type TestSpecification } from 'vitest/node';

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
  // Kills the suite's REST gateway and waits for the supervisor to bring it back: alone.
  'test/integration/stack-supervision.test.ts',
];
// Packages the whole template with the real framework (two minutes of bundling): independent of
// the stack, so it runs beside the integration files in `npm test`, in a project of its own that
// `npm run test:fast` leaves out.
const PACKAGING = [
  'test/integration/serverless-package.test.ts',
  'test/packaging/bundles.test.ts',
  'test/packaging/offline-errors.test.ts',
];
const SERIAL_E2E = [
  // Compares the world with a model once the whole queue has drained; counts the whole DLQ.
  'test/e2e/model-check.test.ts',
  // Sustained load with bursts of 100, then the whole queue drained and compared with a model.
  'test/e2e/load.test.ts',
  // Proves that nothing in the namespace changed (every cell), so nothing else may write.
  'test/e2e/hostile-input.test.ts',
  // The jobs walk every row of the namespace (trim to the cap, repair, the run's DLQ report).
  'test/e2e/jobs.test.ts',
  // Stops the REST gateway everyone uses, and waits for the whole queue to drain. Last: the
  // gateway it starts again is a fresh JVM, slow until warm, and nothing after it pays for that.
  'test/e2e/fault-tolerance.test.ts',
];
// Groups run one after another (sequence.groupOrder): unit + integration together, then the
// serial integration files, then e2e + browser, then the serial e2e files. Three workers on two
// cores: most test time is waiting (on the queue, settle windows, redelivery), not computing.
const WORKERS = 3;

// Files that start first in their group, in this order: the long ones (minutes of waiting on
// redelivery, of bundling, of scrypt), so that a group never ends with one long file started
// last while the other workers idle. Vitest's own order runs a group's projects one after
// another (all integration files before the packaging one) and, on a fresh clone with no
// timings cached, larger files first; the serial files run in the order SERIAL_E2E gives.
const LONG_FIRST = [
  ...PACKAGING,
  'test/integration/pre-split.test.ts',
  'test/integration/accounts.test.ts',
  'test/unit/accounts.test.ts',
  'test/integration/apply-schema.test.ts',
  'test/integration/feed-use-cases.test.ts',
  'test/integration/reactions.test.ts',
  'test/e2e/fanout-queue.test.ts',
  'test/browser/social.test.ts',
  'test/e2e/social.test.ts',
  'test/e2e/feed.test.ts',
  ...SERIAL_E2E,
];

class LongFilesFirst extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const rank = (f: TestSpecification) => {
      const i = LONG_FIRST.indexOf(relative(import.meta.dirname, f.moduleId));
      return i < 0 ? LONG_FIRST.length : i;
    };
    const group = (f: TestSpecification) => f.project.config.sequence.groupOrder;
    // A stable sort: the files not listed keep vitest's order behind the listed ones.
    return (await super.sort(files)).toSorted((a, b) => group(a) - group(b) || rank(a) - rank(b));
  }
}

export default defineConfig({
  test: {
    sequence: { sequencer: LongFilesFirst },
    // npm run test:coverage: the unit and integration projects' coverage of the server code.
    coverage: {
      provider: 'v8',
      include: ['shared/**/*.ts', 'functions/**/*.ts'],
      reporter: ['text-summary', 'html'],
      reportsDirectory: 'coverage',
    },
    projects: [
      {
        test: {
          name: 'unit',
          include: ['test/unit/**/*.test.ts'],
          environment: 'node',
          // Some unit tests hash passwords (about a second each here); beside the other files on
          // a busy machine that passed the default 5 s.
          testTimeout: 20_000,
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
          // Its files package one at a time (test/packaging/one-package-at-a-time.ts), not as a
          // sequential project: vitest runs those after every other group. The dev stage's
          // package is made once and read by every file that needs it (devPackage).
          globalSetup: ['test/packaging/package-setup.ts'],
          maxWorkers: WORKERS, // the value only has to match its group's (vitest's rule)
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
          // The API starts in the background: each file waits for it before its first test.
          setupFiles: ['test/support/e2e-ready.ts'],
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
          setupFiles: ['test/support/e2e-ready.ts'],
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
