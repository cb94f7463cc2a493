// vitest.config.ts — the test projects and how their files share the machine (root of the test tree).
import { relative } from 'node:path';
import { configDefaults, defineConfig } from 'vitest/config';
import { BaseSequencer, type TestSpecification } from 'vitest/node';

// The folder of a file decides its project (docs/testing.md, "The projects"):
//
//   test/unit/                 unit                no network: logic and use cases over in-memory fakes
//   test/integration/          integration         the real HBase REST gateway and queue (the global
//                                                  setup starts them when they are not up)
//   test/integration/serial/   integration-serial  the same, one file at a time
//   test/packaging/            packaging           the packaged template and bundles
//   test/e2e/                  e2e                 HTTP to the functions under serverless-offline
//   test/browser/              browser             Chromium against the web client in front of that API
//   test/e2e/serial/           e2e-serial          the e2e API, one file at a time
//
// Files run side by side where they are independent: each integration file works in a
// namespace (and queues) of its own; e2e and browser files share one API, namespace and queue,
// but each uses users of its own and waits only for its own queued work (test/support/queue.ts).
// A file that is not independent (it loads or stops the stack, or reads the whole namespace or
// queue) goes in a `serial/` folder: those run afterwards, one at a time.
const SERIAL = (dir: string) => `${dir}/serial/**`;

// Groups run one after another (sequence.groupOrder): unit + integration + packaging together,
// then the serial integration files, then e2e + browser, then the serial e2e files. Three
// workers on two cores: most test time is waiting (on the queue, settle windows, redelivery),
// not computing.
const WORKERS = 3;
// The first group has one worker more: the upgrade test holds one for minutes while the two
// `npm start`s it runs do the work (test/integration/upgrade.test.ts).
const FIRST_GROUP_WORKERS = WORKERS + 1;

// New password hashes at scrypt N=2^12, as the e2e API makes them (test/support/offline-setup.ts):
// at OWASP's N=2^17 a hash or a verify takes about 0.4 s of a core, and the login tests make
// dozens while the first group's other files wait for that core. The unit test of the
// parameters hashes at OWASP's explicitly.
const CHEAP_PASSWORDS = { PASSWORD_SCRYPT_LOG2N: '12' };

// Files that start first in their group, in this order: the long ones (minutes of waiting on
// redelivery, of bundling, of scrypt), so that a group never ends with one long file started
// last while the other workers idle. Vitest's own order runs a group's projects one after
// another (all integration files before the packaging ones) and, on a fresh clone with no
// timings cached, larger files first. The serial e2e files run in the order listed here.
const LONG_FIRST = [
  // Runs a release's npm start and this tree's one after the other on a namespace of its own (minutes).
  'test/integration/upgrade.test.ts',
  // Packages the whole template with the real framework (two minutes of bundling).
  'test/packaging/serverless-package.test.ts',
  'test/packaging/bundles.test.ts',
  'test/packaging/offline-errors.test.ts',
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
  // Compares the world with a model once the whole queue has drained; counts the whole DLQ.
  'test/e2e/serial/model-check.test.ts',
  // Sustained load with bursts of 100, then the whole queue drained and compared with a model.
  'test/e2e/serial/load.test.ts',
  // Proves that nothing in the namespace changed (every cell), so nothing else may write.
  'test/e2e/serial/hostile-input.test.ts',
  // The jobs walk every row of the namespace (trim to the cap, repair, the run's DLQ report).
  'test/e2e/serial/jobs.test.ts',
];
// Files that end their group, after every other file of it.
const LAST = [
  // Stops the REST gateway everyone uses, and waits for the whole queue to drain. Last: the
  // gateway it starts again is a fresh JVM, slow until warm, and nothing after it pays for that.
  'test/e2e/serial/fault-tolerance.test.ts',
];

class LongFilesFirst extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const rank = (f: TestSpecification) => {
      const path = relative(import.meta.dirname, f.moduleId);
      const first = LONG_FIRST.indexOf(path);
      if (first >= 0) return first;
      const last = LAST.indexOf(path);
      return last < 0 ? LONG_FIRST.length : LONG_FIRST.length + 1 + last;
    };
    const group = (f: TestSpecification) => f.project.config.sequence.groupOrder;
    // A stable sort: the files not listed keep vitest's order between the first and the last.
    return (await super.sort(files)).toSorted((a, b) => group(a) - group(b) || rank(a) - rank(b));
  }
}

// The e2e projects' setup: the stack, then the API under serverless-offline on a fresh namespace
// (one for every e2e project: offline-setup.ts shares it). Each file waits for the API, which
// starts in the background, before its first test.
const E2E_SETUP = ['test/support/global-setup.ts', 'test/support/offline-setup.ts'];
const E2E_READY = ['test/support/e2e-ready.ts'];

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
          env: CHEAP_PASSWORDS,
          maxWorkers: FIRST_GROUP_WORKERS,
          sequence: { groupOrder: 0 },
        },
      },
      {
        test: {
          name: 'integration',
          include: ['test/integration/**/*.test.ts'],
          exclude: [...configDefaults.exclude, SERIAL('test/integration')],
          environment: 'node',
          globalSetup: ['test/support/global-setup.ts'],
          env: CHEAP_PASSWORDS,
          testTimeout: 60_000,
          hookTimeout: 120_000,
          fileParallelism: true,
          maxWorkers: FIRST_GROUP_WORKERS,
          sequence: { groupOrder: 0 },
        },
      },
      {
        test: {
          name: 'packaging',
          // Independent of the stack, so it runs beside the integration files in `npm test`, in a
          // project of its own that `npm run test:fast` leaves out.
          include: ['test/packaging/**/*.test.ts'],
          environment: 'node',
          // Its files package one at a time (test/packaging/one-package-at-a-time.ts), not as a
          // sequential project: vitest runs those after every other group. The dev stage's
          // package is made once and read by every file that needs it (devPackage).
          globalSetup: ['test/packaging/package-setup.ts'],
          maxWorkers: FIRST_GROUP_WORKERS, // the value only has to match its group's (vitest's rule)
          testTimeout: 60_000,
          hookTimeout: 300_000,
          sequence: { groupOrder: 0 },
        },
      },
      {
        test: {
          name: 'integration-serial',
          include: [`${SERIAL('test/integration')}/*.test.ts`],
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
          include: ['test/e2e/**/*.test.ts'],
          exclude: [...configDefaults.exclude, SERIAL('test/e2e')],
          environment: 'node',
          globalSetup: E2E_SETUP,
          setupFiles: E2E_READY,
          testTimeout: 120_000,
          hookTimeout: 180_000,
          fileParallelism: true,
          maxWorkers: WORKERS,
          sequence: { groupOrder: 2 },
        },
      },
      {
        test: {
          name: 'browser',
          // End-to-end too: real Chromium against the web client, built and served in front of
          // the same API (web-setup.ts), beside the e2e files.
          include: ['test/browser/**/*.test.ts'],
          environment: 'node',
          globalSetup: [...E2E_SETUP, 'test/support/web-setup.ts'],
          setupFiles: E2E_READY,
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
          include: [`${SERIAL('test/e2e')}/*.test.ts`],
          environment: 'node',
          globalSetup: E2E_SETUP,
          setupFiles: E2E_READY,
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
