/** One line of the results table. */
export interface Row {
  group: 'throughput' | 'latency' | 'scale';
  scenario: string;
  emulator: string;
  baseline?: string;
  /** The number the target is about: a ratio, milliseconds or megabytes. */
  value: number;
  target: string;
  met: boolean;
  /** Numbers for the chart: req/s for throughput rows, p50 ms for latency rows; a short label. */
  chart?: { label: string; emulator: number; baseline?: number };
  rssMb?: number;
}

export interface Meta {
  date: string;
  mode: string;
  node: string;
  cpus: string;
  seconds: number;
}

const fmt = (v: number) => (Math.abs(v) >= 100 ? v.toFixed(0) : v.toFixed(2));

export function renderMarkdown(rows: readonly Row[], meta: Meta): string {
  const lines = [
    `Run of ${meta.date} (${meta.mode} mode, ${meta.seconds} s), Node ${meta.node}, ${meta.cpus}.`,
    '',
    '| scenario | emulator | baseline (bare node:http, same bytes) | measured | target | met |',
    '|---|---|---|---|---|---|',
    ...rows.map(
      (r) =>
        `| ${r.scenario} | ${r.emulator}${r.rssMb === undefined ? '' : `; RSS ${r.rssMb.toFixed(0)} MB`} | ${r.baseline ?? ''} | ${fmt(r.value)} | ${r.target} | ${r.met ? 'yes' : '**no**'} |`,
    ),
    '',
    '![throughput by scenario and latency by account size](bench/results/latest.svg)',
    '',
  ];
  return lines.join('\n');
}

function escapeXml(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

/** Two bar charts side by side: req/s by scenario (emulator and baseline), p50 ms by account size. */
export function renderSvg(rows: readonly Row[]): string {
  const width = 960;
  const height = 340;
  const plotTop = 60;
  const plotH = 240;
  const panel = (x0: number, title: string, note: string, bars: { label: string; value: number; color: string }[]) => {
    const max = Math.max(1, ...bars.map((b) => b.value));
    const barW = 70;
    const parts = [
      `<text x="${x0 + 220}" y="24" text-anchor="middle" font-size="15" font-weight="bold">${escapeXml(title)}</text>`,
      `<text x="${x0 + 220}" y="42" text-anchor="middle" font-size="11" fill="#555">${escapeXml(note)}</text>`,
      `<line x1="${x0 + 20}" y1="${plotTop + plotH}" x2="${x0 + 440}" y2="${plotTop + plotH}" stroke="#999"/>`,
    ];
    bars.forEach((b, i) => {
      const h = (b.value / max) * plotH;
      const x = x0 + 30 + i * (barW + 30);
      const y = plotTop + plotH - h;
      parts.push(`<rect x="${x}" y="${y}" width="${barW}" height="${h}" fill="${b.color}"/>`);
      parts.push(`<text x="${x + barW / 2}" y="${y - 4}" text-anchor="middle" font-size="11">${fmt(b.value)}</text>`);
      b.label.split('\n').forEach((line, k) => {
        parts.push(
          `<text x="${x + barW / 2}" y="${plotTop + plotH + 16 + 13 * k}" text-anchor="middle" font-size="11">${escapeXml(line)}</text>`,
        );
      });
    });
    return parts.join('\n');
  };
  const throughputBars = rows
    .filter((r) => r.group === 'throughput' && r.chart !== undefined)
    .flatMap((r) => [
      { label: `${r.chart?.label}\nemulator`, value: r.chart?.emulator ?? 0, color: '#2b6cb0' },
      { label: `${r.chart?.label}\nbaseline`, value: r.chart?.baseline ?? 0, color: '#a0aec0' },
    ]);
  const latencyBars = rows
    .filter((r) => r.group === 'latency' && r.chart !== undefined)
    .map((r) => ({ label: r.chart?.label ?? '', value: r.chart?.emulator ?? 0, color: '#2f855a' }));
  return [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" font-family="sans-serif">`,
    `<rect width="${width}" height="${height}" fill="white"/>`,
    panel(
      0,
      'Throughput (req/s, 32 connections)',
      'higher is better; baseline = bare node:http, same bytes',
      throughputBars,
    ),
    panel(
      490,
      'Page latency by account size (p50 ms)',
      'flat is the goal: no work grows with the account',
      latencyBars,
    ),
    '</svg>',
    '',
  ].join('\n');
}
