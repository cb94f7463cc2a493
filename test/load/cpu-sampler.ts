// test/load/cpu-sampler.ts — where the time goes during a load run: CPU seconds per process of
// the running system, read from /proc (Linux only; elsewhere it reports nothing). The processes
// are found from the URLs the run uses: the REST gateway by its port, the standalone HBase JVM
// (master + region server) and ElasticMQ by the gateway's stack directory, serverless-offline by
// the API port it was given, the poller as offline's parent (run-local.ts hosts it), s3rver, and
// this process (the load client). A process's children (esbuild, workers) count with it.
import { readdirSync, readFileSync } from 'node:fs';

export type Component =
  | 'REST gateway'
  | 'HBase (master + region server)'
  | 'ElasticMQ'
  | 'serverless-offline'
  | 'run-local (SQS poller, web)'
  | 's3rver'
  | 'load client';

interface Proc {
  pid: number;
  ppid: number;
  ticks: number;
  rssKb: number;
  cmdline: string;
}

const TICKS_PER_SECOND = 100; // USER_HZ on Linux

function readProcs(): Map<number, Proc> {
  const out = new Map<number, Proc>();
  let entries: string[];
  try {
    entries = readdirSync('/proc');
  } catch {
    return out;
  }
  for (const name of entries) {
    if (!/^\d+$/.test(name)) continue;
    try {
      const stat = readFileSync(`/proc/${name}/stat`, 'utf8');
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      // After the command: state(0) ppid(1) … utime(11) stime(12) cutime(13) cstime(14) … rss(21) pages
      const cmdline = readFileSync(`/proc/${name}/cmdline`, 'utf8').replace(/\0/g, ' ').trim();
      out.set(Number(name), {
        pid: Number(name),
        ppid: Number(fields[1]),
        ticks: Number(fields[11]) + Number(fields[12]),
        rssKb: Number(fields[21]) * 4,
        cmdline,
      });
    } catch {
      /* gone meanwhile */
    }
  }
  return out;
}

function environ(pid: number): string {
  try {
    return readFileSync(`/proc/${pid}/environ`, 'utf8');
  } catch {
    return '';
  }
}

/** The root process of each component. */
function findComponents(procs: Map<number, Proc>, restPort: string, apiPort: string): Map<Component, number> {
  const found = new Map<Component, number>();
  const all = [...procs.values()];
  const gateway = all.find(
    (p) => p.cmdline.includes('org.apache.hadoop.hbase.rest.RESTServer') && p.cmdline.includes(`-p ${restPort}`),
  );
  if (gateway) {
    found.set('REST gateway', gateway.pid);
    // -cp <dir>/hbase/conf-rest:…: the same <dir> holds the master's conf and ElasticMQ's.
    const dir = /-cp (\S+)\/hbase\/conf-rest:/.exec(gateway.cmdline)?.[1];
    if (dir) {
      const master = all.find(
        (p) => p.cmdline.includes('org.apache.hadoop.hbase.master.HMaster') && p.cmdline.includes(`${dir}/hbase/conf:`),
      );
      if (master) found.set('HBase (master + region server)', master.pid);
      const mq = all.find(
        (p) => p.cmdline.includes('org.elasticmq.server.Main') && p.cmdline.includes(`${dir}/elasticmq/`),
      );
      if (mq) found.set('ElasticMQ', mq.pid);
      const s3 = all.find(
        (p) => p.cmdline.includes('s3-server.ts') && environ(p.pid).includes(`WEIBO_LOCAL_DIR=${dir}\0`),
      );
      if (s3) found.set('s3rver', s3.pid);
    }
  }
  const offline = all.find(
    (p) => p.cmdline.includes('serverless.js offline') && environ(p.pid).includes(`\0API_PORT=${apiPort}\0`),
  );
  if (offline) {
    found.set('serverless-offline', offline.pid);
    found.set('run-local (SQS poller, web)', offline.ppid);
  }
  found.set('load client', process.pid);
  return found;
}

/** Each process's component: its own, or its nearest ancestor's. */
function assign(procs: Map<number, Proc>, roots: Map<Component, number>): Map<number, Component> {
  const byRoot = new Map([...roots].map(([c, pid]) => [pid, c]));
  const out = new Map<number, Component>();
  for (const p of procs.values()) {
    for (let at: Proc | undefined = p, hops = 0; at && hops < 20; at = procs.get(at.ppid), hops++) {
      const c = byRoot.get(at.pid);
      if (c) {
        // run-local is serverless-offline's parent: offline's own subtree stays offline's.
        out.set(p.pid, c);
        break;
      }
    }
  }
  return out;
}

export interface CpuFigures {
  component: Component;
  pid: number;
  /** CPU seconds per wall second × 100: 100 = one core busy. */
  cpuPercent: number;
  rssMb: number;
}

export interface CpuSample {
  wallSeconds: number;
  components: CpuFigures[];
  /** The whole machine, from /proc/stat: busy share of all cores (100 = all busy), and cores. */
  machineBusyPercent: number;
  /** CPU of everything else (other runs sharing the machine, processes that exited), as cpuPercent. */
  othersPercent: number;
  cores: number;
}

function machineTicks(): { busy: number; total: number; cores: number } {
  try {
    const lines = readFileSync('/proc/stat', 'utf8').split('\n');
    const cpu = lines[0]!.split(/\s+/).slice(1).map(Number);
    const idle = cpu[3]! + (cpu[4] ?? 0);
    const total = cpu.reduce((a, b) => a + b, 0);
    return { busy: total - idle, total, cores: lines.filter((l) => /^cpu\d/.test(l)).length };
  } catch {
    return { busy: 0, total: 0, cores: 0 };
  }
}

/** Starts counting now; `stop()` gives each component's CPU share over the interval. */
export function startCpuSampler(opts: { restPort: string; apiPort: string }): { stop: () => CpuSample } {
  const start = Date.now();
  const before = readProcs();
  const machineBefore = machineTicks();
  return {
    stop: () => {
      const after = readProcs();
      const machineAfter = machineTicks();
      const wallSeconds = (Date.now() - start) / 1000;
      const roots = findComponents(after, opts.restPort, opts.apiPort);
      const owner = assign(after, roots);
      const ticks = new Map<Component, number>();
      const rss = new Map<Component, number>();
      for (const [pid, c] of owner) {
        const p = after.get(pid)!;
        // A process started during the run counts from zero.
        ticks.set(c, (ticks.get(c) ?? 0) + p.ticks - (before.get(pid)?.ticks ?? 0));
        rss.set(c, (rss.get(c) ?? 0) + p.rssKb);
      }
      const components = [...roots].map(([component, pid]) => ({
        component,
        pid,
        cpuPercent: Math.round(((ticks.get(component) ?? 0) / TICKS_PER_SECOND / wallSeconds) * 1000) / 10,
        rssMb: Math.round((rss.get(component) ?? 0) / 1024),
      }));
      components.sort((a, b) => b.cpuPercent - a.cpuPercent);
      const busy = machineAfter.busy - machineBefore.busy;
      const total = machineAfter.total - machineBefore.total;
      const machineBusyPercent = total > 0 ? Math.round((busy / total) * 1000) / 10 : 0;
      const ours = components.reduce((sum, c) => sum + c.cpuPercent, 0);
      const othersPercent = Math.max(0, Math.round((machineBusyPercent * machineAfter.cores - ours) * 10) / 10);
      return { wallSeconds, components, machineBusyPercent, othersPercent, cores: machineAfter.cores };
    },
  };
}
