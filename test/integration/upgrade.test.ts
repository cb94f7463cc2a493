// test/integration/upgrade.test.ts — an upgrade keeps the data. The last release (the git tag
// RELEASE_TAG, or the commit "Release <tag>" where the tags were not fetched) is checked out
// beside this tree; its `npm start` makes a namespace of its own on the suite's stack and its
// half of the test (test/upgrade/release-side.ts, as the release has it) fills it through the
// API and checks it against the model check's reference model. Then, the release stopped: this
// tree's `npm run migrate` (schema + pending migrations), this tree's `npm start` on the same
// namespace and address, and the release's half compares again — every timeline, list, count,
// post, comment, picture, notification, conversation and account must be what it was. Every
// change of layout must pass it (docs/operations.md, "Upgrades").
//
// The release's node_modules are this tree's when the two lockfiles are the same, else its own
// `npm ci`. Logs of every process: <stack dir>/logs/upgrade-<namespace>-*.log.
import { spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { DeleteQueueCommand } from '@aws-sdk/client-sqs';
import { afterAll, describe, expect, inject, it } from 'vitest';
import { localQueueUrl, localSqsClient, namespaceQueueName } from '../../infra/local/sqs-poller.js';
import { HBaseRestClient } from '../../shared/hbase/index.js';
import { LAYOUT_VERSION, recordedLayout } from '../../shared/schema/migrations.js';
import { SYSTEM_RUNNING, startLocal, systemPorts, type LocalProcess } from '../support/local-system.js';
import { dropNamespace } from '../support/namespace.js';
import { stackDir } from '../support/pressure.js';

const RELEASE_TAG = 'v0.1.0';
const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const namespace = `upg_${Date.now().toString(36)}${randomBytes(2).toString('hex')}`;
const API_PORT = Number(process.env.UPGRADE_API_PORT ?? '13500');
/** The model seed the release fills the namespace with (UPGRADE_SEED replays one). */
const SEED = Number(process.env.UPGRADE_SEED ?? Math.floor(Math.random() * 1_000_000));
/** Both versions run on the suite's stack, in the namespace, on the same ports, with one signing secret (a release's token is still one after). */
const ENV = { ...systemPorts(API_PORT), HBASE_NAMESPACE: namespace, JWT_SECRET: randomBytes(32).toString('base64url') };

const hbase = new HBaseRestClient({ baseUrl: inject('hbaseRestUrl'), timeoutMs: 60_000 });
const running: LocalProcess[] = [];
let release: string | undefined;

function start(tree: string, entry: string, label: string, env: Record<string, string> = {}): LocalProcess {
  const p = startLocal(tree, entry, `upgrade-${namespace}-${label}`, { ...ENV, ...env });
  running.push(p);
  return p;
}

afterAll(async () => {
  for (const p of running) await p.stop();
  await dropNamespace(hbase, namespace);
  const sqs = localSqsClient(inject('sqsEndpoint'));
  for (const queue of ['fanout', 'media'] as const) {
    const url = localQueueUrl(inject('sqsEndpoint'), namespaceQueueName('local', namespace, queue)!);
    for (const u of [url, `${url}-dlq`]) await sqs.send(new DeleteQueueCommand({ QueueUrl: u })).catch(() => {});
  }
  sqs.destroy();
  await hbase.close();
  if (release) rmSync(release, { recursive: true, force: true });
  rmSync(join(ROOT, `.esbuild/upgrade-${namespace}`), { recursive: true, force: true });
}, 120_000);

/**
 * The release's commit: its tag or, in a clone without tags (CI clones the submitted commits,
 * not the tags), the commit whose subject is `Release <tag>`, as every release commit's is.
 */
function releaseCommit(): string {
  const git = (...args: string[]) => spawnSync('git', ['-C', ROOT, ...args], { encoding: 'utf8' });
  const tag = git('rev-parse', '--verify', '--quiet', `${RELEASE_TAG}^{commit}`);
  if (tag.status === 0) return tag.stdout.trim();
  const subject = `Release ${RELEASE_TAG}`;
  const commit = git('log', '--format=%H %s', 'HEAD')
    .stdout.split('\n')
    .find((line) => line.slice(41) === subject);
  if (commit) return commit.slice(0, 40);
  const shallow = git('rev-parse', '--is-shallow-repository').stdout.trim() === 'true';
  throw new Error(
    `the release ${RELEASE_TAG} is not in this clone, neither its tag nor a commit "${subject}"` +
      (shallow ? ': the clone is shallow (git fetch --unshallow --tags)' : ' (git fetch --tags)'),
  );
}

/** The release's tree (git archive: no worktree to clean up in the repository). */
function checkOutRelease(): string {
  const commit = releaseCommit();
  const dir = mkdtempSync(join(tmpdir(), 'weibo-release-'));
  const archive = spawnSync('sh', ['-c', `git -C '${ROOT}' archive ${commit} | tar -x -C '${dir}'`], {
    encoding: 'utf8',
  });
  if (archive.status !== 0) throw new Error(`git archive ${commit} (${RELEASE_TAG}): ${archive.stderr}`);
  if (readFileSync(join(dir, 'package-lock.json'), 'utf8') === readFileSync(join(ROOT, 'package-lock.json'), 'utf8')) {
    symlinkSync(join(ROOT, 'node_modules'), join(dir, 'node_modules'));
  } else {
    const ci = spawnSync('npm', ['ci', '--no-audit', '--no-fund', '--prefer-offline'], { cwd: dir, encoding: 'utf8' });
    if (ci.status !== 0) throw new Error(`npm ci in the release's tree: ${ci.stderr.slice(-2000)}`);
  }
  return dir;
}

describe(`an upgrade from ${RELEASE_TAG}`, () => {
  it('keeps every timeline, list, count, post, comment, picture, notification, conversation and account', async () => {
    // The release must run on this stack, never start one of its own.
    const status = spawnSync('bash', [join(ROOT, 'infra/local/stack.sh'), 'status'], {
      env: { ...process.env, WEIBO_LOCAL_DIR: stackDir() },
      encoding: 'utf8',
    });
    expect(status.status, `the suite's stack is not this checkout's (${stackDir()}):\n${status.stdout}`).toBe(0);
    release = checkOutRelease();

    const old = start(release, 'infra/local/run-local.ts', 'release-start');
    await old.printed(SYSTEM_RUNNING, 300_000);
    const side = start(release, 'test/upgrade/release-side.ts', 'release-side', {
      API_URL: `http://127.0.0.1:${API_PORT}`,
      SQS_ENDPOINT: inject('sqsEndpoint'),
      QUEUE_URL: localQueueUrl(inject('sqsEndpoint'), namespaceQueueName('local', namespace)!),
      SEED: String(SEED),
    });
    await side.printed('[release] populated', 600_000);
    await old.stop();
    // Stopped as Ctrl-C stops it (exit 143 on SIGTERM), with everything it started.
    expect(old.output(), `${RELEASE_TAG}'s npm start did not stop cleanly`).toContain('[run-local] stopped');

    const migrate = start(ROOT, 'infra/schema/migrate-command.ts', 'migrate');
    expect(await migrate.exited(600_000), migrate.output()).toBe(0);
    console.log(`[upgrade] ${migrate.output().trim().split('\n').slice(-3).join('\n[upgrade] ')}`);
    expect(await recordedLayout(hbase, namespace)).toBe(LAYOUT_VERSION);

    const current = start(ROOT, 'infra/local/run-local.ts', 'current-start', {
      ESBUILD_WORK_FOLDER: `.esbuild/upgrade-${namespace}`,
    });
    await current.printed(SYSTEM_RUNNING, 300_000);
    side.child.stdin!.write('upgraded\n');
    const code = await side.exited(600_000);
    const said = side
      .output()
      .split('\n')
      .filter((l) => l.startsWith('[release]'));
    console.log(`[upgrade] seed ${SEED}\n[upgrade] ${said.join('\n[upgrade] ')}`);
    expect(code, `seed ${SEED} (replay: UPGRADE_SEED=${SEED}):\n${side.output().slice(-6000)}`).toBe(0);
  }, 1_800_000);
});
