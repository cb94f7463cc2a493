// test/bench/feed/progress.ts — a progress bar on stderr. On a terminal it redraws one line;
// elsewhere (CI, a spawned child) it prints a line per phase and per 25 % of a phase, so logs
// stay short.

export interface PhaseSpec {
  id: string;
  label: string;
  /** Share of the whole run, roughly proportional to its expected time. */
  weight: number;
}

export class Progress {
  private readonly total: number;
  private readonly offsets = new Map<string, number>();
  private current: PhaseSpec | undefined;
  private fraction = 0;
  private detail = '';
  private lastDraw = 0;
  private lastQuarter = -1;
  private readonly tty = Boolean(process.stderr.isTTY);
  private readonly started = Date.now();

  constructor(private readonly phases: PhaseSpec[]) {
    let at = 0;
    for (const p of phases) {
      this.offsets.set(p.id, at);
      at += p.weight;
    }
    this.total = at;
  }

  phase(id: string, detail = ''): void {
    const spec = this.phases.find((p) => p.id === id);
    if (!spec) throw new Error(`unknown bench phase ${id}`);
    this.current = spec;
    this.fraction = 0;
    this.detail = detail;
    this.lastQuarter = 0;
    if (!this.tty)
      process.stderr.write(
        `[bench ${this.elapsed()}] ${this.percent()}% ${spec.label}${detail ? ` — ${detail}` : ''}\n`,
      );
    this.draw(true);
  }

  /** Progress inside the current phase, 0..1. */
  update(fraction: number, detail?: string): void {
    this.fraction = Math.max(0, Math.min(1, fraction));
    if (detail !== undefined) this.detail = detail;
    if (!this.tty) {
      const quarter = Math.floor(this.fraction * 4);
      if (quarter > this.lastQuarter && quarter < 4) {
        this.lastQuarter = quarter;
        process.stderr.write(
          `[bench ${this.elapsed()}] ${this.percent()}% ${this.current?.label ?? ''} ${this.detail}\n`,
        );
      }
      return;
    }
    this.draw(false);
  }

  /** Prints a line above the bar (a note the reader should see). */
  note(line: string): void {
    if (this.tty) process.stderr.write('\r\x1b[2K');
    process.stderr.write(`${line}\n`);
    this.draw(true);
  }

  done(): void {
    if (this.tty) process.stderr.write(`\r\x1b[2K[${'#'.repeat(30)}] 100% done in ${this.elapsed()}\n`);
    else process.stderr.write(`[bench ${this.elapsed()}] 100% done\n`);
  }

  private percent(): number {
    if (!this.current) return 0;
    const at = (this.offsets.get(this.current.id) ?? 0) + this.current.weight * this.fraction;
    return Math.floor((100 * at) / this.total);
  }

  private elapsed(): string {
    const s = Math.round((Date.now() - this.started) / 1000);
    return `${Math.floor(s / 60)}:${String(s % 60).padStart(2, '0')}`;
  }

  private draw(force: boolean): void {
    if (!this.tty) return;
    const now = Date.now();
    if (!force && now - this.lastDraw < 100) return;
    this.lastDraw = now;
    const pct = this.percent();
    const filled = Math.round((30 * pct) / 100);
    const text = `[${'#'.repeat(filled)}${'.'.repeat(30 - filled)}] ${String(pct).padStart(3)}% ${this.elapsed()} ${this.current?.label ?? ''} ${this.detail}`;
    const width = process.stderr.columns || 120;
    process.stderr.write(`\r\x1b[2K${text.slice(0, width - 1)}`);
  }
}
