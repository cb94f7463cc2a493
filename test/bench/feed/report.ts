// test/bench/feed/report.ts — what the feed benchmark hands back: the targets of product.md
// ("Performance") as measured ratios with pass/miss, a short table for stdout, and a
// hand-written SVG chart (one panel per ratio: the measured bar against its target line).
// Besides ratios, a target can be an exact count (kind 'exact'): a correctness figure measured
// under load, such as a hot post's like count after N concurrent likes.

// Kind 'info': a figure reported beside the targets with no target of its own (`target` unused,
// 0; `pass` always true; shown as "info", charted without a target line).
export type TargetKind = 'max' | 'min' | 'band' | 'exact' | 'info';

export interface TargetResult {
  id: string;
  label: string;
  /** How the ratio is formed, for the table and the chart. */
  formula: string;
  value: number;
  kind: TargetKind;
  /** max: value ≤ target; min: value ≥ target; band: |value − 1| ≤ target; exact: value = target. */
  target: number;
  unit: '×' | '%' | 'requests' | 'count' | 'ms';
  pass: boolean;
  /** Use a log axis in the chart (values span orders of magnitude). */
  log?: boolean;
}

export function target(t: Omit<TargetResult, 'pass'>): TargetResult {
  const ok = Number.isFinite(t.value);
  const pass =
    t.kind === 'info' ||
    (ok &&
      (t.kind === 'max'
        ? t.value <= t.target
        : t.kind === 'min'
          ? t.value >= t.target
          : t.kind === 'exact'
            ? t.value === t.target
            : Math.abs(t.value - 1) <= t.target));
  return { ...t, pass };
}

export function formatValue(t: Pick<TargetResult, 'value' | 'unit'>): string {
  if (!Number.isFinite(t.value)) return 'n/a';
  if (t.unit === '%') return `${(t.value * 100).toFixed(1)} %`;
  if (t.unit === 'requests') return String(Math.round(t.value * 100) / 100);
  if (t.unit === 'count') return Math.round(t.value).toLocaleString('en-US');
  if (t.unit === 'ms') return `${Math.round(t.value).toLocaleString('en-US')} ms`;
  if (t.value >= 100) return `${Math.round(t.value).toLocaleString('en-US')}×`;
  return `${t.value.toFixed(2)}×`;
}

export function formatTarget(t: TargetResult): string {
  if (t.kind === 'info') return '—';
  if (t.kind === 'band') return `1.00× ± ${Math.round(t.target * 100)} %`;
  const v = formatValue({ value: t.target, unit: t.unit });
  return `${t.kind === 'max' ? '≤' : t.kind === 'exact' ? '=' : '≥'} ${v}`;
}

/** "pass", "MISS", or "info" for a figure without a target. */
export function resultWord(t: Pick<TargetResult, 'kind' | 'pass'>): string {
  return t.kind === 'info' ? 'info' : t.pass ? 'pass' : 'MISS';
}

const esc = (s: string) => s.replaceAll('&', '&amp;').replaceAll('<', '&lt;').replaceAll('>', '&gt;');

/** One panel per target: a bar for the measured value, a dashed line (or band) for the target. */
export function chartSvg(title: string, subtitle: string, targets: TargetResult[]): string {
  const W = 820;
  const left = 40;
  const plotW = W - left - 60;
  const panelH = 92;
  const top = 70;
  const H = top + targets.length * panelH + 30;
  const out: string[] = [];
  out.push(
    `<svg xmlns="http://www.w3.org/2000/svg" width="${W}" height="${H}" viewBox="0 0 ${W} ${H}" font-family="DejaVu Sans, Helvetica, Arial, sans-serif">`,
    `<rect width="${W}" height="${H}" fill="#ffffff"/>`,
    `<text x="${left}" y="30" font-size="18" font-weight="bold" fill="#222">${esc(title)}</text>`,
    `<text x="${left}" y="50" font-size="12" fill="#555">${esc(subtitle)}</text>`,
  );
  targets.forEach((t, i) => {
    const y0 = top + i * panelH;
    const barY = y0 + 30;
    const barH = 24;
    const finite = Number.isFinite(t.value);
    // Axis: linear from 0, or log10 from 1 for ratios spanning orders of magnitude.
    const hi =
      t.kind === 'band'
        ? Math.max(1 + t.target * 3, finite ? t.value * 1.15 : 0)
        : Math.max(
            t.target * (t.log ? 10 : 1.6),
            finite ? t.value * (t.log ? 3 : 1.15) : 0,
            t.kind === 'info' ? (t.log ? 10 : 1) : 0,
          );
    const lo = t.log ? 1 : 0;
    const x = (v: number) => {
      const f = t.log ? Math.log10(Math.max(v, 1)) / Math.log10(hi) : (v - lo) / (hi - lo);
      return left + Math.max(0, Math.min(1, f)) * plotW;
    };
    const colour = t.kind === 'info' ? '#607d8b' : t.pass ? '#2e7d32' : '#c62828';
    out.push(`<text x="${left}" y="${y0 + 18}" font-size="13" font-weight="bold" fill="#222">${esc(t.label)}</text>`);
    out.push(
      `<text x="${W - 20}" y="${y0 + 18}" font-size="12" text-anchor="end" fill="#555">${esc(t.formula)}</text>`,
    );
    out.push(`<rect x="${left}" y="${barY}" width="${plotW}" height="${barH}" fill="#f3f3f3"/>`);
    if (t.kind === 'band') {
      const a = x(1 - t.target);
      const b = x(1 + t.target);
      out.push(
        `<rect x="${a}" y="${barY - 6}" width="${b - a}" height="${barH + 12}" fill="#1565c0" fill-opacity="0.12"/>`,
      );
      for (const v of [1 - t.target, 1 + t.target]) {
        out.push(
          `<line x1="${x(v)}" y1="${barY - 6}" x2="${x(v)}" y2="${barY + barH + 6}" stroke="#1565c0" stroke-width="2" stroke-dasharray="5,3"/>`,
        );
      }
    }
    if (finite)
      out.push(
        `<rect x="${left}" y="${barY + 3}" width="${Math.max(1, x(t.value) - left)}" height="${barH - 6}" fill="${colour}"/>`,
      );
    if (t.kind !== 'band' && t.kind !== 'info') {
      const tx = x(t.target);
      out.push(
        `<line x1="${tx}" y1="${barY - 6}" x2="${tx}" y2="${barY + barH + 6}" stroke="#1565c0" stroke-width="2" stroke-dasharray="5,3"/>`,
      );
    }
    if (t.kind !== 'info') {
      out.push(
        `<text x="${x(t.kind === 'band' ? 1 + t.target : t.target)}" y="${barY + barH + 20}" font-size="11" text-anchor="middle" fill="#1565c0">target ${esc(formatTarget(t))}</text>`,
      );
    }
    const label = `${formatValue(t)}  ${resultWord(t)}`;
    const vx = finite ? x(t.value) : left;
    const inside = vx > left + plotW * 0.75;
    // Outside the bar, start right of the target line when it is close, so they never overlap.
    const line = t.kind === 'info' ? -Infinity : x(t.kind === 'band' ? 1 + t.target : t.target);
    const outsideX = line > vx && line - vx < 110 ? line + 6 : vx + 6;
    out.push(
      `<text x="${inside ? vx - 6 : outsideX}" y="${barY + 17}" font-size="13" font-weight="bold" text-anchor="${inside ? 'end' : 'start'}" fill="${inside ? '#fff' : colour}">${esc(label)}</text>`,
    );
    // Axis ends.
    out.push(`<text x="${left}" y="${barY + barH + 20}" font-size="10" fill="#888">${t.log ? '1×' : '0'}</text>`);
    out.push(
      `<text x="${left + plotW}" y="${barY + barH + 20}" font-size="10" text-anchor="end" fill="#888">${esc(formatValue({ value: hi, unit: t.unit }))}${t.log ? ' (log)' : ''}</text>`,
    );
  });
  out.push(
    `<text x="${left}" y="${H - 10}" font-size="11" fill="#888">bars: measured in this run · dashed: target from product.md "Performance" (= : an exact count) · green pass, red miss, grey info (no target)</text>`,
  );
  out.push('</svg>');
  return `${out.join('\n')}\n`;
}
