// test/integration/stack-supervision.test.ts — stack.sh restarts a crashed component: on a
// private stack of its own (state .local-supervision, REST 38080, ZooKeeper 38818; the shared
// stack is never touched), the REST gateway is killed with SIGKILL, as an OOM kill or a crash
// ends it; the supervisor must log the death and the restart, the gateway must answer again, and
// a write through it must land. With STACK_SUPERVISE=0 in the environment the gateway stays dead
// and this test fails (that is how it was seen to guard the supervisor).
import { existsSync, readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { StackSession, clusterVersion } from '../../infra/local/stack-control.js';
import { eventually } from '../support/eventually.js';

const DIR = resolve(process.env.SUPERVISION_STACK_DIR ?? '.local-supervision');
const REST_URL = 'http://127.0.0.1:38080';
const stack = new StackSession({ ...process.env, WEIBO_LOCAL_DIR: DIR, HBASE_REST_PORT: '38080', HBASE_ZK_PORT: '38818' });
const JSON_HEADERS = { Accept: 'application/json', 'Content-Type': 'application/json' };
const b64 = (s: string) => Buffer.from(s).toString('base64');

beforeAll(() => {
  stack.stopOnSignals();
  stack.start('hbase');
}, 300_000);
afterAll(() => stack.stop(), 120_000);

describe('stack supervision', () => {
  it('a gateway killed with SIGKILL is restarted, logged, and takes writes again', async () => {
    const table = `supervised_${process.pid}_${Date.now().toString(36)}`;
    const created = await fetch(`${REST_URL}/${table}/schema`, { method: 'PUT', headers: JSON_HEADERS, body: JSON.stringify({ ColumnSchema: [{ name: 'f' }] }) });
    expect(created.status).toBe(201);

    const pidFile = `${DIR}/hbase/rest.pid`;
    const killed = Number(readFileSync(pidFile, 'utf8'));
    process.kill(killed, 'SIGKILL');
    await eventually(() => expect(isAlive(killed)).toBe(false), 10_000);

    // Back: a new process behind the pid file, answering.
    await eventually(
      async () => {
        expect(Number(readFileSync(pidFile, 'utf8'))).not.toBe(killed);
        expect(await clusterVersion(REST_URL)).not.toBeNull();
      },
      150_000,
      1_000,
    );

    const row = `${REST_URL}/${table}/row1`;
    const put = await fetch(row, {
      method: 'PUT',
      headers: JSON_HEADERS,
      body: JSON.stringify({ Row: [{ key: b64('row1'), Cell: [{ column: b64('f:q'), $: b64('after the restart') }] }] }),
    });
    expect(put.status).toBe(200);
    const got = (await (await fetch(row, { headers: { Accept: 'application/json' } })).json()) as { Row: { Cell: { $: string }[] }[] };
    expect(Buffer.from(got.Row[0]!.Cell[0]!.$, 'base64').toString()).toBe('after the restart');

    const log = existsSync(`${DIR}/supervisor.log`) ? readFileSync(`${DIR}/supervisor.log`, 'utf8') : '';
    expect(log).toContain(`hbase REST: pid ${killed} exited (killed by signal 9)`);
    expect(log).toMatch(/hbase REST: restarted \(pid \d+, restart \d+\)/);

    await fetch(`${REST_URL}/${table}/schema`, { method: 'DELETE' });
  }, 240_000);
});

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}
