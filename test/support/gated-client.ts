// test/support/gated-client.ts — the real HBase REST client, but the next write of one kind to
// one table (optionally: to a row the test picks) can be held before or after it runs: released
// it goes on, stopped it throws — as if the function died right there. For races forced inside
// the adapters, where the use cases' step points do not reach.
import { HBaseRestClient, toBytes, type Bytes, type HBaseClientOptions } from '../../shared/hbase/index.js';

type GatedOp = 'put' | 'checkAndPut' | 'checkAndDelete' | 'deleteRow';

/** Which request a hold takes: by the row keys it writes (a put's rows, the other ops' one row). */
export type RowMatch = (keys: Uint8Array[]) => boolean;

interface Hold {
  op: GatedOp;
  table: string;
  when: 'before' | 'after';
  match?: RowMatch;
  arrived: () => void;
  outcome: Promise<'go' | 'stop'>;
}

export class GatedClient extends HBaseRestClient {
  private readonly holds: Hold[] = [];

  constructor(opts: HBaseClientOptions) {
    super(opts);
  }

  hold(op: GatedOp, table: string, when: 'before' | 'after', match?: RowMatch) {
    let arrived!: () => void;
    let decide!: (o: 'go' | 'stop') => void;
    const reached = new Promise<void>((resolve, reject) => {
      arrived = resolve;
      setTimeout(() => reject(new Error(`no ${op} on ${table} within 15 s`)), 15_000).unref();
    });
    this.holds.push({
      op,
      table,
      when,
      ...(match ? { match } : {}),
      arrived,
      outcome: new Promise((resolve) => (decide = resolve)),
    });
    return { reached, release: () => decide('go'), stop: () => decide('stop') };
  }

  private async pass(op: GatedOp, table: string, keys: Uint8Array[], when: 'before' | 'after'): Promise<void> {
    const i = this.holds.findIndex(
      (h) => h.op === op && h.when === when && table.endsWith(`:${h.table}`) && (!h.match || h.match(keys)),
    );
    if (i < 0) return;
    const [h] = this.holds.splice(i, 1);
    h!.arrived();
    if ((await h!.outcome) === 'stop') throw new Error(`stopped at ${when} ${op} on ${table}`);
  }

  private async gated<T>(op: GatedOp, table: string, keys: Bytes[], run: () => Promise<T>): Promise<T> {
    const bytes = keys.map(toBytes);
    await this.pass(op, table, bytes, 'before');
    const result = await run();
    await this.pass(op, table, bytes, 'after');
    return result;
  }

  override put(...args: Parameters<HBaseRestClient['put']>) {
    return this.gated(
      'put',
      args[0],
      args[1].map((r) => r.key),
      () => super.put(...args),
    );
  }
  override checkAndPut(...args: Parameters<HBaseRestClient['checkAndPut']>) {
    return this.gated('checkAndPut', args[0], [args[1]], () => super.checkAndPut(...args));
  }
  override checkAndDelete(...args: Parameters<HBaseRestClient['checkAndDelete']>) {
    return this.gated('checkAndDelete', args[0], [args[1]], () => super.checkAndDelete(...args));
  }
  override deleteRow(...args: Parameters<HBaseRestClient['deleteRow']>) {
    return this.gated('deleteRow', args[0], [args[1]], () => super.deleteRow(...args));
  }
}
