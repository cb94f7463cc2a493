// test/e2e/serial/backup-restore.test.ts — a backup restores (docs/operations.md, "Backup and
// restore"). A model check's seed (test/support/model) fills the e2e namespace through the API and
// is compared with its model; `npm run backup` snapshots every table of the namespace while the
// API serves reads (every answer counted); the model's users write more — a post, a like, a
// follow — that the model never hears of, and the comparison against the live namespace must now
// find them; `npm run restore` clones the snapshots into a fresh namespace, this tree's
// `npm start` serves it with the e2e run's signing secret (the users' tokens still work), and the
// comparison with the model of before the backup must find nothing: the restored state is the
// snapshot's. BACKUP_EXPORT=1 takes the restore through ExportSnapshot to a local dir and back
// (the snapshots deleted from the cluster in between). Serial: it waits for the whole queue to
// drain and snapshots the whole namespace.
//
//   BACKUP_SEED=<n> replays a seed; BACKUP_OPS (default 40) sizes it; BACKUP_API_PORT (default
//   13520, and the three ports above it) is where the restored system's npm start serves.
import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { DeleteQueueCommand } from '@aws-sdk/client-sqs';
import { afterAll, describe, expect, inject, it } from 'vitest';
import { localCluster, runSnapshots } from '../../../infra/backup/snapshots.js';
import { localQueueUrl, localSqsClient, namespaceQueueName } from '../../../infra/local/sqs-poller.js';
import { HBaseRestClient } from '../../../shared/hbase/index.js';
import { apiClient } from '../../support/api.js';
import { E2E_CELEBRITY_FOLLOWERS, E2E_SETTLE_SECONDS } from '../../support/e2e-settings.js';
import { SYSTEM_RUNNING, startLocal, systemPorts, type LocalProcess } from '../../support/local-system.js';
import { compareWithModel } from '../../support/model/compare.js';
import { Driver, registerActor, type Actor } from '../../support/model/driver.js';
import { handleOf, makePlan } from '../../support/model/plan.js';
import { ReferenceModel } from '../../support/model/reference-model.js';
import { dropNamespace } from '../../support/namespace.js';
import { stackDir } from '../../support/pressure.js';
import { queueDrained } from '../../support/queue.js';

const run = promisify(execFile);
const ROOT = fileURLToPath(new URL('../../..', import.meta.url));
/** Above the model check's random seeds (< 1,000,000): handles of its own. */
const SEED = Number(process.env.BACKUP_SEED ?? 2_000_000 + Math.floor(Math.random() * 1_000_000));
const OPS = Number(process.env.BACKUP_OPS ?? 40);
const API_PORT = Number(process.env.BACKUP_API_PORT ?? '13520');
const EXPORT = process.env.BACKUP_EXPORT === '1';
const suffix = `${Date.now().toString(36)}${randomBytes(2).toString('hex')}`;
const BACKUP = `e2e-${suffix}`;
const RESTORED = `bkr_${suffix}`;

const api = apiClient(inject('apiUrl'));
const sqs = localSqsClient(inject('sqsEndpoint'));
const hbase = new HBaseRestClient({ baseUrl: inject('hbaseRestUrl'), timeoutMs: 60_000 });
const cluster = localCluster({ ...process.env, WEIBO_LOCAL_DIR: stackDir() });
const exportDir = EXPORT ? mkdtempSync(join(tmpdir(), 'weibo-backup-')) : undefined;
const running: LocalProcess[] = [];
const say = (line: string) => console.log(`[backup-restore] ${line}`);
const seconds = (from: number) => `${((Date.now() - from) / 1000).toFixed(1)} s`;

/** One of this tree's entries on the suite's stack, with the suite's gateway; its log under <stack dir>/logs. */
function start(entry: string, label: string, env: Record<string, string> = {}): LocalProcess {
  const p = startLocal(ROOT, entry, `backup-${suffix}-${label}`, { HBASE_REST_URL: inject('hbaseRestUrl'), ...env });
  running.push(p);
  return p;
}

/** An operator command (npm run backup / restore) on the suite's stack, to its end: what it printed. */
async function operator(entry: string, args: string[]): Promise<string> {
  const env = { ...process.env, WEIBO_LOCAL_DIR: stackDir(), HBASE_REST_URL: inject('hbaseRestUrl') };
  try {
    const { stdout } = await run(process.execPath, ['--import', 'tsx', entry, ...args], {
      cwd: ROOT,
      env,
      timeout: 600_000,
    });
    return stdout;
  } catch (err) {
    const e = err as { stdout?: string; stderr?: string; message: string };
    throw new Error(`${entry} ${args.join(' ')}: ${e.message}\n${e.stdout ?? ''}${e.stderr ?? ''}`.slice(-6000));
  }
}

afterAll(async () => {
  for (const p of running) await p.stop();
  await dropNamespace(hbase, RESTORED);
  for (const queue of ['fanout', 'media'] as const) {
    const url = localQueueUrl(inject('sqsEndpoint'), namespaceQueueName('local', RESTORED, queue)!);
    for (const u of [url, `${url}-dlq`]) await sqs.send(new DeleteQueueCommand({ QueueUrl: u })).catch(() => {});
  }
  await runSnapshots(cluster, ['delete', BACKUP]).catch((err: unknown) => say(`snapshots left: ${String(err)}`));
  if (exportDir) rmSync(exportDir, { recursive: true, force: true });
  rmSync(join(ROOT, `.esbuild/backup-${suffix}`), { recursive: true, force: true });
  sqs.destroy();
  await hbase.close();
}, 180_000);

describe('backup and restore with HBase snapshots', () => {
  it('restores the state of the snapshot: the model of before the backup, not the writes after it', async () => {
    const queueUrl = inject('fanoutQueueUrl');
    // 1. A model seed through the e2e API, settled and compared.
    let t = Date.now();
    const plan = makePlan(SEED, OPS);
    const users = await Promise.all(
      Array.from({ length: plan.users }, (_, i) => registerActor(api, handleOf(SEED, i), `backup ${SEED} ${i}`)),
    );
    const model = new ReferenceModel(users.map((u) => u.handle));
    const driver = new Driver(api, plan, users, model);
    for (const [wave, groups] of plan.waves.entries()) await driver.runWave(wave, groups);
    await queueDrained(sqs, queueUrl, 180_000, 1_000);
    expect([...driver.mismatches, ...(await compareWithModel(api, model, users))], `seed ${SEED}`).toEqual([]);
    say(
      `seed ${SEED}: ${plan.users} users, ${plan.waves.length} waves, ${plan.slots.length} posts; compared in ${seconds(t)}`,
    );

    // 2. Snapshots of every table while the API serves reads.
    t = Date.now();
    const answers = new Map<number, number>();
    let backingUp = true;
    const reads = (async () => {
      for (let i = 0; backingUp; i++) {
        const u = users[i % users.length]!;
        const res = await api
          .call('GET', `/users/${u.handle}/timeline`, { token: u.token })
          .catch(() => ({ status: 0 }));
        answers.set(res.status, (answers.get(res.status) ?? 0) + 1);
      }
    })();
    const backup = await operator('infra/backup/backup-command.ts', [
      inject('e2eNamespace'),
      '--name',
      BACKUP,
      ...(exportDir ? ['--export', exportDir] : []),
    ]).finally(() => (backingUp = false));
    await reads;
    say(`npm run backup: ${summary(backup)}; reads meanwhile: ${JSON.stringify(Object.fromEntries(answers))}`);
    expect([...answers.keys()], 'every read during the snapshots answered 200').toEqual([200]);
    if (exportDir) await runSnapshots(cluster, ['delete', BACKUP]); // only the exported copy is left

    // 3. More writes the model does not know: the comparison against the live namespace sees them.
    // Beside the restore (it reads the snapshots, not the live tables): the suite's time is short.
    const afterBackup = (async () => {
      await writeMore(users);
      await queueDrained(sqs, queueUrl, 180_000, 1_000);
      return compareWithModel(api, model, users);
    })();
    afterBackup.catch(() => {}); // awaited below; failing first must not count as unhandled

    // 4. Restore into a fresh namespace; this tree's npm start serves it; the model of step 1 holds.
    t = Date.now();
    const restore = await operator('infra/backup/restore-command.ts', [
      BACKUP,
      '--into',
      RESTORED,
      ...(exportDir ? ['--from', exportDir] : []),
    ]);
    say(`npm run restore: ${summary(restore)}`);
    const system = start('infra/local/run-local.ts', 'start', {
      ...systemPorts(API_PORT),
      HBASE_NAMESPACE: RESTORED,
      JWT_SECRET: inject('jwtSecret'),
      CELEBRITY_FOLLOWERS: String(E2E_CELEBRITY_FOLLOWERS),
      SETTLE_SECONDS: String(E2E_SETTLE_SECONDS),
      ESBUILD_WORK_FOLDER: `.esbuild/backup-${suffix}`,
    });
    const live = await afterBackup;
    say(`after the writes the model does not know: ${live.length} difference(s) against the live namespace`);
    expect(live.length, 'the writes after the backup are visible to the comparison').toBeGreaterThan(0);
    await system.printed(SYSTEM_RUNNING, 300_000);
    say(`npm start on the restored namespace ${RESTORED}: running ${seconds(t)} after the restore began`);
    const restored = await compareWithModel(apiClient(`http://127.0.0.1:${API_PORT}`), model, users);
    expect(restored, `seed ${SEED}: the restored namespace differs from the model of before the backup`).toEqual([]);
  }, 1_200_000);
});

/** A post of each of two users, a like of one of them, a follow not yet there (all answered 2xx). */
async function writeMore(users: Actor[]): Promise<void> {
  const [a, b] = users as [Actor, Actor];
  const posted: string[] = [];
  for (const u of [a, b]) {
    const res = await api.call('POST', '/posts', { token: u.token, body: { body: `after the backup, ${u.handle}` } });
    expect(res.status, res.text).toBe(201);
    posted.push(res.json.id);
  }
  const like = await api.call('PUT', `/users/${b.handle}/likes/${posted[0]}`, { token: b.token });
  expect([200, 403], like.text).toContain(like.status); // 403: a block between them in the seed
  for (const target of users.slice(1)) {
    const state = await api.call('GET', `/users/${a.handle}/following/${target.handle}`);
    if (state.json?.following) continue;
    const follow = await api.call('PUT', `/users/${a.handle}/following/${target.handle}`, { token: a.token });
    if (follow.status === 200 || follow.status === 201) break;
  }
}

/** The command's summary lines: how many tables, and how long each step took. */
function summary(output: string): string {
  return output
    .split('\n')
    .filter((l) => /table\(s\) (snapshotted|cloned)|snapshot\(s\) (exported|copied back)/.test(l))
    .join(' | ');
}
