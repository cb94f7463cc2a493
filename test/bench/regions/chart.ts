// test/bench/regions/chart.ts — the regions benchmark's SVG: for each phase and layout, one bar
// per RegionServer, its requests over the phase divided by the mean over the RegionServers
// (1.00 = its fair share), against the target line (max / mean ≤ 1.25, ours).
const esc = (s: string) => s.replaceAll('&', '&amp;').replaceAll('<', '&lt;').replaceAll('>', '&gt;');

export interface ChartRow {
  label: string;
  perNode: Record<string, number>;
  maxOverMean: number;
  /** Held to the target (ours) or shown beside it (the seed's layouts). */
  target: boolean;
  pass?: boolean;
}

export interface ChartPanel {
  title: string;
  rows: ChartRow[];
}

export function regionsChartSvg(title: string, subtitle: string, targetRatio: number, panels: ChartPanel[]): string {
  const W = 860;
  const left = 250;
  const plotW = W - left - 150;
  const barH = 14;
  const rowGap = 14;
  const top = 80;
  const nodes = [...new Set(panels.flatMap((p) => p.rows.flatMap((r) => Object.keys(r.perNode))))].sort();
  const rowH = nodes.length * (barH + 3) + rowGap;
  const hi = Math.max(
    3,
    ...panels.flatMap((p) => p.rows.map((r) => (Number.isFinite(r.maxOverMean) ? r.maxOverMean * 1.1 : 0))),
  );
  const x = (v: number) => left + Math.max(0, Math.min(1, v / hi)) * plotW;
  const panelH = (p: ChartPanel) => 34 + p.rows.length * rowH;
  const H = top + panels.reduce((h, p) => h + panelH(p), 0) + 40;
  const out: string[] = [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${W}" height="${H}" viewBox="0 0 ${W} ${H}" font-family="DejaVu Sans, Helvetica, Arial, sans-serif">`,
    `<rect width="${W}" height="${H}" fill="#ffffff"/>`,
    `<text x="20" y="30" font-size="18" font-weight="bold" fill="#222">${esc(title)}</text>`,
    `<text x="20" y="50" font-size="12" fill="#555">${esc(subtitle)}</text>`,
  ];
  const palette = ['#1565c0', '#6a1b9a', '#00838f', '#ef6c00', '#558b2f', '#5d4037', '#ad1457', '#283593', '#9e9d24'];
  nodes.forEach((n, i) => {
    out.push(
      `<rect x="${20 + i * 150}" y="60" width="10" height="10" fill="${palette[i % palette.length]}"/><text x="${34 + i * 150}" y="69" font-size="11" fill="#333">${esc(n)}</text>`,
    );
  });
  let y = top;
  for (const p of panels) {
    out.push(`<text x="20" y="${y + 18}" font-size="14" font-weight="bold" fill="#222">${esc(p.title)}</text>`);
    const y0 = y + 30;
    const yEnd = y0 + p.rows.length * rowH - rowGap + 4;
    out.push(`<line x1="${x(1)}" y1="${y0 - 4}" x2="${x(1)}" y2="${yEnd}" stroke="#999" stroke-width="1"/>`);
    out.push(`<text x="${x(1)}" y="${yEnd + 12}" font-size="10" text-anchor="middle" fill="#777">mean</text>`);
    out.push(
      `<line x1="${x(targetRatio)}" y1="${y0 - 4}" x2="${x(targetRatio)}" y2="${yEnd}" stroke="#2e7d32" stroke-width="2" stroke-dasharray="5,3"/>`,
    );
    out.push(
      `<text x="${x(targetRatio)}" y="${yEnd + 12}" font-size="10" text-anchor="start" fill="#2e7d32"> target ≤ ${targetRatio.toFixed(2)}× mean</text>`,
    );
    p.rows.forEach((r, i) => {
      const ry = y0 + i * rowH;
      const mean = Object.values(r.perNode).reduce((a, b) => a + b, 0) / Math.max(1, nodes.length);
      out.push(
        `<text x="${left - 10}" y="${ry + (nodes.length * (barH + 3)) / 2 + 4}" font-size="12" text-anchor="end" fill="#222">${esc(r.label)}</text>`,
      );
      nodes.forEach((n, k) => {
        const v = mean > 0 ? (r.perNode[n] ?? 0) / mean : 0;
        out.push(
          `<rect x="${left}" y="${ry + k * (barH + 3)}" width="${Math.max(1, x(v) - left)}" height="${barH}" fill="${palette[k % palette.length]}" fill-opacity="0.85"/>`,
        );
        out.push(
          `<text x="${x(v) + 4}" y="${ry + k * (barH + 3) + 11}" font-size="10" fill="#555">${(r.perNode[n] ?? 0).toLocaleString('en-US')}</text>`,
        );
      });
      const colour = r.target ? (r.pass ? '#2e7d32' : '#c62828') : '#555';
      const verdict = r.target ? (r.pass ? ' pass' : ' MISS') : '';
      out.push(
        `<text x="${W - 20}" y="${ry + (nodes.length * (barH + 3)) / 2 + 4}" font-size="13" font-weight="bold" text-anchor="end" fill="${colour}">max/mean ${Number.isFinite(r.maxOverMean) ? r.maxOverMean.toFixed(2) : 'n/a'}×${verdict}</text>`,
      );
    });
    y += panelH(p);
  }
  out.push(
    `<text x="20" y="${H - 12}" font-size="11" fill="#888">bar = requests (reads + writes) a RegionServer served in the phase ÷ the mean over RegionServers · number = requests · dashed: target (ours)</text>`,
  );
  out.push('</svg>');
  return `${out.join('\n')}\n`;
}
