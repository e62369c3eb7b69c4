// Turns case results into the printed tables and the verdict on each target of the Benchmarks issue.
import type { CaseResult } from './scenarios';

export interface TargetVerdict {
  target: string;
  measured: string;
  met: boolean | null;
}

const fmt = (value: number | undefined, digits = 0) =>
  value === undefined || !Number.isFinite(value)
    ? '-'
    : value.toLocaleString('en-US', { maximumFractionDigits: digits });

export function casesTable(results: CaseResult[]): string {
  const header = [
    'case',
    'events',
    'deliv/s',
    'success',
    'attempts',
    'conns',
    'TIME_WAIT',
    'p50/p95/p99 ms',
    'worker CPU s',
    'RSS MB',
    'PG CPU s',
    'WAL B/event',
    'producer TPS',
  ];
  const rows = results.map((result) => [
    result.name,
    fmt(result.events),
    fmt(result.deliveriesPerSecond),
    `${fmt(result.successRate * 100, 2)}%`,
    fmt(result.attempts),
    fmt(result.connectionsAccepted),
    fmt(result.peakTimeWait),
    result.latencyMs ? `${result.latencyMs.p50}/${result.latencyMs.p95}/${result.latencyMs.p99}` : '-',
    fmt(result.workerCpuSeconds, 1),
    fmt(result.workerPeakRssMb),
    fmt(result.postgresCpuSeconds, 1),
    fmt(result.walBytesPerEvent),
    result.producer
      ? result.producer.tpsWithoutTrigger
        ? `${fmt(result.producer.tpsWithTrigger)} (no trigger ${fmt(result.producer.tpsWithoutTrigger)})`
        : fmt(result.producer.tpsWithTrigger)
      : '-',
  ]);
  return table([header, ...rows]);
}

export function table(rows: string[][]): string {
  const widths = rows[0]!.map((_, column) => Math.max(...rows.map((row) => (row[column] ?? '').length)));
  const line = (row: string[]) => `| ${row.map((cell, column) => cell.padEnd(widths[column]!)).join(' | ')} |`;
  return [
    line(rows[0]!),
    `|${widths.map((width) => '-'.repeat(width + 2)).join('|')}|`,
    ...rows.slice(1).map(line),
  ].join('\n');
}

export function judgeTargets(results: CaseResult[]): TargetVerdict[] {
  const verdicts: TargetVerdict[] = [];
  const cleanDrains = results.filter(
    (r) =>
      r.kind === 'drain' && r.workers === 1 && r.endpoints === 1 && r.receiverDelayMs === 0 && r.receiverFailRate === 0,
  );
  const drain = cleanDrains.sort((a, b) => b.events - a.events)[0];
  verdicts.push({
    target: '>= 10,000 deliveries/s drain, one worker, 100% success',
    measured: drain
      ? `${fmt(drain.deliveriesPerSecond)}/s over ${fmt(drain.events)} events, ${fmt(drain.successRate * 100, 2)}% success`
      : 'not run',
    met: drain ? drain.deliveriesPerSecond >= 10_000 && drain.successRate === 1 : null,
  });

  const pgNet = results.find((r) => r.kind === 'pg_net' && r.name.includes('send'));
  verdicts.push({
    target: '10 x 1,000 pg_net scenario fully delivered within 1 s of pgbench finishing',
    measured: pgNet
      ? `last delivery ${fmt(pgNet.tailAfterProducerMs)} ms after pgbench ended, ${fmt(pgNet.successRate * 100, 2)}% success`
      : 'not run',
    met: pgNet ? pgNet.tailAfterProducerMs! <= 1000 && pgNet.successRate === 1 : null,
  });

  const big = results
    .filter((r) => r.kind === 'drain' && r.endpoints === 1 && r.events >= 100_000)
    .sort((a, b) => b.events - a.events)[0];
  if (big) {
    const cap = big.endpointCap * big.workers;
    verdicts.push({
      target: 'connections <= per-endpoint cap for 100,000 deliveries, no TIME_WAIT build-up',
      measured: `${fmt(big.connectionsAccepted)} connections for ${fmt(big.events)} deliveries (cap ${big.endpointCap} x ${big.workers} worker(s)), peak TIME_WAIT ${big.peakTimeWait}`,
      met: big.connectionsAccepted <= cap && big.peakTimeWait <= cap,
    });
  } else {
    verdicts.push({
      target: 'connections <= per-endpoint cap for 100,000 deliveries',
      measured: 'not run (needs a 1-endpoint case with >= 100k events)',
      met: null,
    });
  }

  const tps = pgNet?.producer;
  verdicts.push({
    target: 'producer TPS with the trigger >= 80% of without',
    measured: tps?.tpsWithoutTrigger
      ? `${fmt(tps.tpsWithTrigger)} vs ${fmt(tps.tpsWithoutTrigger)} TPS = ${fmt((tps.tpsWithTrigger / tps.tpsWithoutTrigger) * 100, 1)}%`
      : 'not run',
    met: tps?.tpsWithoutTrigger ? tps.tpsWithTrigger >= 0.8 * tps.tpsWithoutTrigger : null,
  });

  const latency = results.find((r) => r.kind === 'latency');
  verdicts.push({
    target: 'p99 enqueue-to-delivery < 50 ms at 1,000 events/s offered',
    measured: latency?.latencyMs
      ? `p50 ${latency.latencyMs.p50} / p95 ${latency.latencyMs.p95} / p99 ${latency.latencyMs.p99} ms; ` +
        `${fmt(latency.producer?.tpsWithTrigger)}/s achieved of ${fmt(latency.producer?.offeredRate)}/s offered`
      : 'not run',
    // Latency only counts if the producers kept up with the offered rate.
    met: latency?.latencyMs
      ? latency.latencyMs.p99 < 50 && latency.producer!.tpsWithTrigger >= 0.95 * (latency.producer!.offeredRate ?? 0)
      : null,
  });

  const peakRss = Math.max(...results.map((r) => r.workerPeakRssMb));
  verdicts.push({
    target: 'worker peak RSS < 250 MB',
    measured: results.length ? `${fmt(peakRss)} MB (largest of all cases)` : 'not run',
    met: results.length ? peakRss < 250 : null,
  });
  return verdicts;
}

export function targetsTable(verdicts: TargetVerdict[]): string {
  return table([
    ['target', 'measured', 'met'],
    ...verdicts.map((verdict) => [
      verdict.target,
      verdict.measured,
      verdict.met === null ? 'n/a' : verdict.met ? 'yes' : 'NO',
    ]),
  ]);
}

export function profileReport(results: CaseResult[]): string {
  const parts: string[] = [];
  for (const result of results) {
    parts.push(`\n## ${result.name}`);
    if (result.statements.length > 0) {
      parts.push('Postgres statements by total execution time (pg_stat_statements, nested statements included):');
      parts.push(
        table([
          ['total ms', 'calls', 'mean ms', 'rows', 'statement'],
          ...result.statements.map((s) => [fmt(s.totalMs), fmt(s.calls), fmt(s.meanMs, 3), fmt(s.rows), s.query]),
        ]),
      );
    }
    if (result.waitEvents.length > 0) {
      parts.push('Active backends by wait event (pg_stat_activity, sampled every 50 ms):');
      parts.push(table([['wait event', 'samples', '%'], ...result.waitEvents.map((w) => [w.event, fmt(w.samples), fmt(w.share, 1)])]));
    }
    if (result.cpuProfile) {
      parts.push(`Worker CPU profile (${fmt(result.cpuProfile.totalMs)} ms sampled, first worker):`);
      parts.push(
        table([['area', 'ms', '%'], ...result.cpuProfile.byArea.map((a) => [a.area, fmt(a.ms), fmt(a.share, 1)])]),
      );
      parts.push(
        table([
          ['function (self time)', 'ms', '%'],
          ...result.cpuProfile.topFunctions.map((f) => [f.name, fmt(f.ms), fmt(f.share, 1)]),
        ]),
      );
    }
  }
  return parts.join('\n');
}
