// The soak's series as an SVG, hand-written (no chart library): one small line chart per quantity,
// minutes on the x axis, the windows the verdict compares shaded.
import type { SoakWindows } from './soak-verdict';

export interface ChartSeries {
  label: string;
  color: string;
  values: (number | null)[];
}

export interface ChartPanel {
  title: string;
  unit: string;
  series: ChartSeries[];
  /** Minute ranges to shade (inclusive), with a label. */
  shade?: { from: number; to: number; label: string }[];
}

const WIDTH = 760;
const PANEL_HEIGHT = 170;
const LEFT = 70;
const RIGHT = 150;
const TOP = 28;
const BOTTOM = 30;

const escape = (text: string) => text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

function niceMax(value: number): number {
  if (!(value > 0)) return 1;
  const magnitude = 10 ** Math.floor(Math.log10(value));
  for (const step of [1, 2, 2.5, 5, 10]) if (step * magnitude >= value) return step * magnitude;
  return 10 * magnitude;
}

const number = (value: number) =>
  value >= 100 ? Math.round(value).toLocaleString('en-US') : String(Math.round(value * 10) / 10);

function panel(chart: ChartPanel, minutes: number, top: number): string {
  const plotWidth = WIDTH - LEFT - RIGHT;
  const plotHeight = PANEL_HEIGHT - TOP - BOTTOM;
  const all = chart.series.flatMap((series) =>
    series.values.filter((v): v is number => v !== null && Number.isFinite(v)),
  );
  const maxY = niceMax(Math.max(0, ...all));
  // Minute m (1-based) spans x from m - 1 to m; its point is drawn in the middle.
  const x = (minute: number) => LEFT + (minute / minutes) * plotWidth;
  const y = (value: number) => top + TOP + plotHeight - (value / maxY) * plotHeight;
  const parts: string[] = [];
  parts.push(`<text x="${LEFT}" y="${top + 18}" class="title">${escape(chart.title)} (${escape(chart.unit)})</text>`);
  for (const band of chart.shade ?? []) {
    const from = x(band.from - 1);
    parts.push(
      `<rect x="${from}" y="${top + TOP}" width="${x(band.to) - from}" height="${plotHeight}" class="band"/>`,
      `<text x="${(from + x(band.to)) / 2}" y="${top + TOP + 12}" class="band-label">${escape(band.label)}</text>`,
    );
  }
  for (const fraction of [0, 0.5, 1]) {
    const value = maxY * fraction;
    parts.push(
      `<line x1="${LEFT}" x2="${LEFT + plotWidth}" y1="${y(value)}" y2="${y(value)}" class="grid"/>`,
      `<text x="${LEFT - 6}" y="${y(value) + 4}" class="axis" text-anchor="end">${number(value)}</text>`,
    );
  }
  const tickEvery = Math.max(1, Math.ceil(minutes / 10));
  for (let minute = 0; minute <= minutes; minute += tickEvery) {
    parts.push(
      `<text x="${x(minute)}" y="${top + TOP + plotHeight + 16}" class="axis" text-anchor="middle">${minute}</text>`,
    );
  }
  chart.series.forEach((series, index) => {
    const points = series.values
      .map((value, i) =>
        value === null || !Number.isFinite(value) ? null : `${x(i + 0.5).toFixed(1)},${y(value).toFixed(1)}`,
      )
      .filter((point): point is string => point !== null);
    if (points.length > 1) {
      parts.push(`<polyline points="${points.join(' ')}" fill="none" stroke="${series.color}" stroke-width="2"/>`);
    }
    for (const point of points) {
      const [px, py] = point.split(',');
      parts.push(`<circle cx="${px}" cy="${py}" r="2.5" fill="${series.color}"/>`);
    }
    const legendY = top + TOP + 10 + index * 16;
    parts.push(
      `<line x1="${LEFT + plotWidth + 12}" x2="${LEFT + plotWidth + 30}" y1="${legendY}" y2="${legendY}" stroke="${series.color}" stroke-width="2"/>`,
      `<text x="${LEFT + plotWidth + 35}" y="${legendY + 4}" class="legend">${escape(series.label)}</text>`,
    );
  });
  return parts.join('\n');
}

export function soakChart(options: { title: string; subtitle: string; minutes: number; panels: ChartPanel[] }): string {
  const height = 50 + options.panels.length * PANEL_HEIGHT;
  const body = options.panels.map((chart, index) => panel(chart, options.minutes, 45 + index * PANEL_HEIGHT));
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${WIDTH}" height="${height}" viewBox="0 0 ${WIDTH} ${height}" font-family="sans-serif">
<style>
  .title { font-size: 13px; font-weight: bold; fill: #222; }
  .axis { font-size: 10px; fill: #555; }
  .legend { font-size: 11px; fill: #333; }
  .grid { stroke: #ddd; stroke-width: 1; }
  .band { fill: #f0ead6; }
  .band-label { font-size: 9px; fill: #886; text-anchor: middle; }
</style>
<rect width="100%" height="100%" fill="white"/>
<text x="${LEFT}" y="20" font-size="15" font-weight="bold" fill="#111">${escape(options.title)}</text>
<text x="${LEFT}" y="36" font-size="11" fill="#555">${escape(options.subtitle)}</text>
${body.join('\n')}
</svg>
`;
}

/** The windows the verdict compares, as shaded bands. */
export function verdictBands(
  windows: SoakWindows,
  minutes: number,
): {
  latency: ChartPanel['shade'];
  size: ChartPanel['shade'];
} {
  return {
    latency: [
      { from: windows.baseline[0], to: windows.baseline[1], label: 'baseline' },
      { from: windows.last[0], to: windows.last[1], label: 'judged' },
    ],
    size: [
      { from: windows.sizeAt, to: windows.sizeAt, label: 'base' },
      { from: minutes, to: minutes, label: 'end' },
    ],
  };
}
