// Writes the soak's series as JSON and draws it as an SVG beside it, in bench/results/.
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { SoakMinute, SoakResult } from './soak';
import { soakChart, verdictBands } from './soak-chart';
import { table } from './report';

export function soakVerdictTable(result: SoakResult): string {
  return table([
    ['criterion', 'measured', 'passed'],
    ...result.criteria.map((criterion) => [
      criterion.criterion,
      criterion.measured,
      criterion.passed ? 'yes' : '**no**',
    ]),
  ]);
}

export async function writeSoakFiles(options: {
  resultsDir: string;
  runId: string;
  result: SoakResult;
  /** The run's header: commit, machine, PostgreSQL, load averages. */
  run: Record<string, unknown>;
  subtitle: string;
}): Promise<{ json: string; svg: string }> {
  const { result } = options;
  const json = join(options.resultsDir, `soak-${options.runId}.json`);
  const svg = join(options.resultsDir, `soak-${options.runId}.svg`);
  await writeFile(json, `${JSON.stringify({ ...options.run, soak: result }, null, 2)}\n`);
  const minutes = result.series.filter((sample) => sample.minute !== 'tail');
  const values = (pick: (sample: SoakMinute) => number) => minutes.map(pick);
  const bands = verdictBands(result.windows, result.minutes);
  await writeFile(
    svg,
    soakChart({
      title: `Hookline soak: ${result.rate}/s offered for ${result.minutes} min, retention ${result.retentionSeconds / 60} min — ${result.passed ? 'PASSED' : 'FAILED'}`,
      subtitle: options.subtitle,
      minutes: result.minutes,
      panels: [
        {
          title: 'Enqueue to result recorded, per minute',
          unit: 'ms',
          series: [
            { label: 'p50', color: '#2a7ab0', values: values((s) => s.latencyMs.p50) },
            { label: 'p99', color: '#c0392b', values: values((s) => s.latencyMs.p99) },
          ],
          shade: bands.latency,
        },
        {
          title: "Hookline's tables and indexes",
          unit: 'MB',
          series: [{ label: 'total size', color: '#6c3483', values: values((s) => s.tableBytes / 2 ** 20) }],
          shade: bands.size,
        },
        {
          title: 'Rates',
          unit: 'per second',
          series: [
            { label: 'offered', color: '#999999', values: values((s) => s.offeredPerSecond) },
            { label: 'achieved', color: '#27ae60', values: values((s) => s.achievedPerSecond) },
            { label: 'recorded', color: '#2a7ab0', values: values((s) => s.recordedPerSecond) },
            { label: 'deleted rows', color: '#d68910', values: values((s) => s.deletedRows / s.seconds) },
          ],
        },
        {
          title: 'Dead tuples and WAL',
          unit: 'thousands; MB per minute',
          series: [
            { label: 'dead tuples (k)', color: '#7f8c8d', values: values((s) => s.deadTuples / 1000) },
            { label: 'WAL MB/min', color: '#16a085', values: values((s) => s.walBytes / 2 ** 20) },
          ],
        },
      ],
    }),
  );
  return { json, svg };
}
