// test/integration/serial/stack-supervision.test.ts — stack.sh restarts a crashed component: the suite's
// own local stack's REST gateway is killed with SIGKILL, as an OOM kill or a crash ends it; the
// supervisor must log the death and the restart, the gateway must answer again, and a write
// through it must land. It runs in the serial integration group, when no other file uses the
// gateway, and waits until it is back. It is skipped when the suite's gateway is not this
// checkout's local stack (a developer's stack from elsewhere, a real cluster). With
// STACK_SUPERVISE=0 in the stack's environment the gateway stays dead and this test fails (that is
// how it was seen to guard the supervisor).
import { existsSync, readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, inject, it } from 'vitest';
import { clusterVersion } from '../../../infra/local/stack-control.js';
import { eventually } from '../../support/eventually.js';

const ROOT = fileURLToPath(new URL('../../..', import.meta.url));
const DIR = resolve(ROOT, process.env.WEIBO_LOCAL_DIR ?? '.local');
const REST_URL = inject('hbaseRestUrl');
const pidFile = `${DIR}/hbase/rest.pid`;
const JSON_HEADERS = { Accept: 'application/json', 'Content-Type': 'application/json' };
const b64 = (s: string) => Buffer.from(s).toString('base64');

describe('stack supervision', () => {
  it.skipIf(!existsSync(pidFile))(
    'a gateway killed with SIGKILL is restarted, logged, and takes writes again',
    async () => {
      const table = `supervised_${process.pid}_${Date.now().toString(36)}`;
      const created = await fetch(`${REST_URL}/${table}/schema`, {
        method: 'PUT',
        headers: JSON_HEADERS,
        body: JSON.stringify({ ColumnSchema: [{ name: 'f' }] }),
      });
      expect(created.status).toBe(201);

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
        body: JSON.stringify({
          Row: [{ key: b64('row1'), Cell: [{ column: b64('f:q'), $: b64('after the restart') }] }],
        }),
      });
      expect(put.status).toBe(200);
      const got = (await (await fetch(row, { headers: { Accept: 'application/json' } })).json()) as {
        Row: { Cell: { $: string }[] }[];
      };
      expect(Buffer.from(got.Row[0]!.Cell[0]!.$, 'base64').toString()).toBe('after the restart');

      const log = existsSync(`${DIR}/supervisor.log`) ? readFileSync(`${DIR}/supervisor.log`, 'utf8') : '';
      expect(log).toContain(`hbase REST: pid ${killed} exited (killed by signal 9)`);
      expect(log).toMatch(/hbase REST: restarted \(pid \d+, restart \d+\)/);

      await fetch(`${REST_URL}/${table}/schema`, { method: 'DELETE' });
    },
    240_000,
  );
});

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}
