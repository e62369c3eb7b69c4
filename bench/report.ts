// Turns the summarized case results into the printed tables and the verdict on each target of
// issue 11 ("Write path v2"), plus the earlier targets the benchmark has always judged.
// Verdicts use the median of the runs, except duplicate sends, where any run with one fails.
import { availableParallelism } from 'node:os';
import type { Summary } from './repeat';
import type { CaseResult, ProducerPartResult, ProducerResult } from './scenarios';

export interface TargetVerdict {
  target: string;
  measured: string;
  met: boolean | null;
}

const fmt = (value: number | undefined, digits = 0) =>
  value === undefined || !Number.isFinite(value)
    ? '-'
    : value.toLocaleString('en-US', { maximumFractionDigits: digits });

interface Column<T> {
  header: string;
  /** A number (shown with its min-max with --repeat) or text (the same in every run). */
  value(result: T): number | string | undefined;
  digits?: number;
}

const CASE_COLUMNS: Column<CaseResult>[] = [
  { header: 'case', value: (r) => r.name },
  { header: 'events', value: (r) => r.events },
  { header: 'recorded/s', value: (r) => r.deliveriesPerSecond },
  { header: 'sent/s', value: (r) => r.sentPerSecond },
  { header: 'success %', value: (r) => r.successRate * 100, digits: 2 },
  { header: 'attempts', value: (r) => r.attempts },
  { header: 'dup sends', value: (r) => r.duplicates },
  { header: 'tail ms', value: (r) => r.recordTailMs },
  { header: 'conns', value: (r) => r.connectionsAccepted },
  { header: 'TIME_WAIT', value: (r) => r.peakTimeWait },
  { header: 'p50 ms', value: (r) => r.latencyMs?.p50, digits: 1 },
  { header: 'p99 ms', value: (r) => r.latencyMs?.p99, digits: 1 },
  { header: 'CPU µs/deliv', value: (r) => r.cpuMicrosPerDelivery },
  { header: 'worker CPU s', value: (r) => r.workerCpuSeconds, digits: 1 },
  { header: 'PG CPU s', value: (r) => r.postgresCpuSeconds, digits: 1 },
  { header: 'RSS MB', value: (r) => r.workerPeakRssMb },
  { header: 'WAL B/event', value: (r) => r.walBytesPerEvent },
  { header: 'producer TPS', value: (r) => r.producer?.tpsWithTrigger },
  { header: '% no trigger', value: (r) => r.producer?.percentOfNoTrigger, digits: 1 },
];

const PRODUCER_COLUMNS: Column<ProducerResult>[] = [
  { header: 'hookline.send trigger', value: (r) => r.name },
  { header: 'no trigger TPS', value: (r) => r.tpsWithoutTrigger },
  { header: 'TPS, worker delivering', value: (r) => r.tpsWithWorker },
  { header: '%', value: (r) => r.percentWithWorker, digits: 1 },
  { header: 'TPS, no worker', value: (r) => r.tpsAlone },
  { header: '% ', value: (r) => r.percentAlone, digits: 1 },
];

const PRODUCER_PART_COLUMNS: Column<ProducerPartResult>[] = [
  { header: 'part of hookline.send', value: (r) => r.name },
  { header: 'TPS', value: (r) => r.tps },
  { header: '% of no trigger', value: (r) => r.percentOfNoTrigger, digits: 1 },
  { header: 'WAL B/insert', value: (r) => r.walBytesPerInsert },
];

function cell<T>(column: Column<T>, result: T): string {
  const value = column.value(result);
  return typeof value === 'number' ? fmt(value, column.digits) : (value ?? '-');
}

/** Medians; with more than one run, a second table gives each number's min-max. */
function summaryTables<T>(columns: Column<T>[], summaries: Summary<T>[]): string {
  const medians = table([
    columns.map((column) => column.header),
    ...summaries.map((summary) => columns.map((column) => cell(column, summary.median))),
  ]);
  const runs = Math.max(0, ...summaries.map((summary) => summary.runs.length));
  if (runs <= 1) return medians;
  const spreads = table([
    columns.map((column) => column.header),
    ...summaries.map((summary) =>
      columns.map((column) => {
        if (typeof column.value(summary.median) !== 'number') return cell(column, summary.median);
        const low = cell(column, summary.min);
        const high = cell(column, summary.max);
        return low === high ? low : `${low}–${high}`;
      }),
    ),
  ]);
  return `Medians of ${runs} runs:\n${medians}\n\nMin–max of the runs:\n${spreads}`;
}

export function casesTable(cases: Summary<CaseResult>[]): string {
  return summaryTables(CASE_COLUMNS, cases);
}

export function producerTable(producers: Summary<ProducerResult>[]): string {
  return summaryTables(PRODUCER_COLUMNS, producers);
}

export function producerPartsTable(parts: Summary<ProducerPartResult>[]): string {
  return summaryTables(PRODUCER_PART_COLUMNS, parts);
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

const isCleanDrain = (r: CaseResult) =>
  r.kind === 'drain' && r.endpoints === 1 && r.receiverDelayMs === 0 && r.receiverFailRate === 0;

/** The largest clean one-worker, one-endpoint drain: the case the drain, CPU and WAL targets read. */
function mainDrain(cases: Summary<CaseResult>[]): Summary<CaseResult> | undefined {
  return cases
    .filter((c) => isCleanDrain(c.median) && c.median.workers === 1)
    .sort((a, b) => b.median.events - a.median.events)[0];
}

/** Clean one-endpoint drains of one size run with several worker counts; the size with most of them. */
function scalingSet(cases: Summary<CaseResult>[]): CaseResult[] {
  const bySize = new Map<number, CaseResult[]>();
  for (const c of cases.filter((c) => isCleanDrain(c.median))) {
    bySize.set(c.median.events, [...(bySize.get(c.median.events) ?? []), c.median]);
  }
  const sets = [...bySize.values()].filter((set) => set.some((r) => r.workers === 1) && set.length > 1);
  return (sets.sort((a, b) => b.length - a.length || b[0]!.events - a[0]!.events)[0] ?? []).sort(
    (a, b) => a.workers - b.workers,
  );
}

/**
 * What the machine's cores allow at the CPU a drain's deliveries cost: worker, PostgreSQL and the
 * loopback receiver, which runs in the bench process (with the bench's own progress checks) on the
 * same cores. A receiver on another machine would leave its share to the other two.
 */
function cpuCeiling(drain: CaseResult): string {
  const receiverMicros = (drain.benchProcessCpuSeconds * 1e6) / Math.max(1, drain.succeeded);
  const totalMicros = drain.cpuMicrosPerDelivery + receiverMicros;
  if (!Number.isFinite(totalMicros) || totalMicros <= 0) return 'CPU per delivery not measured';
  const cores = availableParallelism();
  return (
    `CPU per delivery ${fmt(drain.cpuMicrosPerDelivery)} µs (worker + PostgreSQL) + ${fmt(receiverMicros)} µs ` +
    `(receiver and bench process) = ${fmt(totalMicros)} µs: ${cores} cores allow at most ` +
    `${fmt((cores * 1e6) / totalMicros)}/s`
  );
}

export function judgeTargets(
  cases: Summary<CaseResult>[],
  producers: Summary<ProducerResult>[],
  producerParts: Summary<ProducerPartResult>[] = [],
): TargetVerdict[] {
  const verdicts: TargetVerdict[] = [];
  const notRun = (target: string, why = 'not run') => verdicts.push({ target, measured: why, met: null });

  // 1. Producer cost, independent of the number of subscribed endpoints.
  const shares = producers.map((p) => p.median).sort((a, b) => a.endpoints - b.endpoints);
  const shareText = (p: ProducerResult) =>
    `${p.endpoints} ep ${fmt(p.tpsWithWorker)} TPS = ${fmt(p.percentWithWorker, 1)}%`;
  const aloneText = shares.map((p) => `${fmt(p.percentAlone, 1)}%`).join(' / ');
  if (shares.length > 0) {
    verdicts.push({
      target: 'producer TPS with the hookline.send trigger >= 60% of no trigger, worker delivering',
      measured:
        `${shares.map(shareText).join('; ')} of ${fmt(shares[0]!.tpsWithoutTrigger)} without ` +
        `(no worker running: ${aloneText})` +
        (producerParts.length > 0
          ? `; no worker, in parts: ${producerParts
              .map((p) => `${p.median.name} ${fmt(p.median.percentOfNoTrigger, 1)}%`)
              .join(', ')}, hookline.send ${fmt(shares[0]!.percentAlone, 1)}%`
          : ''),
      met: shares.every((p) => p.percentWithWorker >= 60),
    });
    const counts = new Set(shares.map((p) => p.endpoints));
    const tps = shares.map((p) => p.tpsWithWorker);
    const spread = ((Math.max(...tps) - Math.min(...tps)) / Math.max(...tps)) * 100;
    const aloneTps = shares.map((p) => p.tpsAlone);
    const aloneSpread = ((Math.max(...aloneTps) - Math.min(...aloneTps)) / Math.max(...aloneTps)) * 100;
    verdicts.push({
      target: 'producer TPS for 1, 10 and 100 subscribed endpoints within 10% of each other',
      measured:
        `${shares.map((p) => `${p.endpoints} ep ${fmt(p.tpsWithWorker)}`).join(', ')}: lowest ${fmt(spread, 1)}% below highest ` +
        `(no worker running: ${fmt(aloneSpread, 1)}%)`,
      met: counts.has(1) && counts.has(10) && counts.has(100) ? spread <= 10 : null,
    });
  } else {
    notRun('producer TPS with the hookline.send trigger >= 60% of no trigger');
    notRun('producer TPS for 1, 10 and 100 subscribed endpoints within 10% of each other');
  }

  // 2. Drain counted when recorded; the tail between sending and recording; duplicates.
  const drain = mainDrain(cases)?.median;
  if (drain) {
    verdicts.push({
      target: '>= 10,000 deliveries/s recorded, 100,000 events, one worker, 100% success',
      measured:
        `${fmt(drain.deliveriesPerSecond)}/s recorded (${fmt(drain.sentPerSecond)}/s sent) over ` +
        `${fmt(drain.events)} events, ${fmt(drain.successRate * 100, 2)}% success; ${cpuCeiling(drain)}`,
      met: drain.events >= 100_000 ? drain.deliveriesPerSecond >= 10_000 && drain.successRate === 1 : null,
    });
  } else notRun('>= 10,000 deliveries/s recorded, 100,000 events, one worker, 100% success');

  if (cases.length > 0) {
    const worst = [...cases].sort((a, b) => b.median.recordTailMs - a.median.recordTailMs)[0]!.median;
    verdicts.push({
      target: 'last result recorded within 1 s of the last request received (every case)',
      measured: `worst: ${fmt(worst.recordTailMs)} ms (${worst.name})`,
      met: worst.recordTailMs <= 1000,
    });
    const runs = cases.flatMap((c) => c.runs);
    const duplicated = runs.filter((r) => r.duplicates > 0);
    verdicts.push({
      target: '0 duplicate sends in every run (no crash in any)',
      measured:
        duplicated.length === 0
          ? `0 in ${runs.length} runs`
          : duplicated.map((r) => `${fmt(r.duplicates)} of ${fmt(r.requests)} requests in ${r.name}`).join('; '),
      met: duplicated.length === 0,
    });
  }

  // 3. CPU and WAL per delivery.
  if (drain) {
    const pgCpu = Number.isFinite(drain.postgresCpuSeconds) ? `${fmt(drain.postgresCpuSeconds, 1)} s` : 'not measured';
    verdicts.push({
      target: '<= 200 µs CPU per delivery (worker + all PostgreSQL processes)',
      measured:
        `${fmt(drain.cpuMicrosPerDelivery)} µs in ${drain.name} (worker ${fmt(drain.workerCpuSeconds, 1)} s, ` +
        `PostgreSQL ${pgCpu})`,
      met:
        Number.isFinite(drain.cpuMicrosPerDelivery) && Number.isFinite(drain.postgresCpuSeconds)
          ? drain.cpuMicrosPerDelivery <= 200
          : null,
    });
    const live = cases.find((c) => c.median.kind === 'pg_net' && c.name.includes('send'))?.median;
    verdicts.push({
      target: '<= 1,000 B of WAL per event end to end, one endpoint',
      measured:
        `${fmt(drain.walBytesPerEvent)} B in ${drain.name} (queueing ${fmt(drain.walEnqueueBytesPerEvent)} B in ` +
        `10k-event transactions)` +
        (live ? `; pg_net scenario, one event per transaction: ${fmt(live.walBytesPerEvent)} B` : ''),
      met: drain.walBytesPerEvent <= 1000,
    });
  } else {
    notRun('<= 200 µs CPU per delivery (worker + all PostgreSQL processes)');
    notRun('<= 1,000 B of WAL per event end to end, one endpoint');
  }

  // 4. Latency at a fixed offered rate: only counts if the producers reached it.
  const latency = cases.find((c) => c.median.kind === 'latency')?.median;
  if (latency?.latencyMs && latency.producer) {
    const offered = latency.producer.offeredRate ?? 0;
    verdicts.push({
      target: 'p99 enqueue -> delivery < 50 ms at 1,000 events/s offered, producers reaching that rate',
      measured:
        `p50 ${latency.latencyMs.p50} / p95 ${latency.latencyMs.p95} / p99 ${latency.latencyMs.p99} ms; ` +
        `producers reached ${fmt(latency.producer.tpsWithTrigger)}/s of ${fmt(offered)}/s offered`,
      met: offered >= 1000 ? latency.latencyMs.p99 < 50 && latency.producer.tpsWithTrigger >= 0.95 * offered : null,
    });
  } else notRun('p99 enqueue -> delivery < 50 ms at 1,000 events/s offered');

  // 5. Scaling.
  const scaling = scalingSet(cases);
  if (scaling.length > 1) {
    const one = scaling[0]!;
    verdicts.push({
      target: 'more workers never slower: 2 and 4 workers on one endpoint >= one worker',
      measured:
        `${scaling.map((r) => `${r.workers}w ${fmt(r.deliveriesPerSecond)}/s`).join(', ')} recorded ` +
        `(${fmt(one.events)} events each); CPU per delivery, workers + PostgreSQL: ` +
        `${scaling.map((r) => `${r.workers}w ${fmt(r.cpuMicrosPerDelivery)} µs`).join(', ')} on ${availableParallelism()} cores`,
      met: scaling.every((r) => r.deliveriesPerSecond >= one.deliveriesPerSecond),
    });
  } else
    notRun(
      'more workers never slower: 2 and 4 workers on one endpoint >= one worker',
      'not run (needs drains of one size with 1 and more workers)',
    );

  notRun('dashboard < 200 ms p95 at 10 M deliveries', 'measured by npm run bench:dashboard');
  const retention = drain?.retention;
  if (retention) {
    verdicts.push({
      target: 'retention at 10,000/s without DELETE storms',
      measured:
        `${fmt(retention.deletedPerSecond)} deliveries/s dropped (${fmt(retention.deleted)} after ${drain.name}, ` +
        `${fmt(retention.periodsDropped)} periods in ${fmt(retention.dropMs)} ms), ` +
        `${fmt(retention.walBytesPerDelivery)} B WAL per delivery; whole time partitions, no DELETE`,
      met: retention.deletedPerSecond >= 10_000 && retention.dropMs < 1000,
    });
  } else notRun('retention at 10,000/s without DELETE storms', 'not run (needs a 100k one-worker drain)');

  // Earlier targets, kept.
  const pgNet = cases.find((c) => c.median.kind === 'pg_net' && c.name.includes('send'))?.median;
  if (pgNet) {
    verdicts.push({
      target: '(earlier) pg_net scenario recorded within 1 s of pgbench finishing',
      measured: `last result recorded ${fmt(pgNet.tailAfterProducerMs)} ms after pgbench ended, ${fmt(pgNet.successRate * 100, 2)}% success`,
      met: pgNet.tailAfterProducerMs! <= 1000 && pgNet.successRate === 1,
    });
  }
  const big = cases.map((c) => c.median).filter((r) => isCleanDrain(r) && r.events >= 100_000)[0];
  if (big) {
    const cap = big.endpointCap * big.workers;
    verdicts.push({
      target: '(earlier) connections <= per-endpoint cap for 100,000 deliveries, no TIME_WAIT build-up',
      measured: `${fmt(big.connectionsAccepted)} connections (cap ${big.endpointCap} x ${big.workers} worker(s)), peak TIME_WAIT ${big.peakTimeWait}`,
      met: big.connectionsAccepted <= cap && big.peakTimeWait <= cap,
    });
  }
  if (cases.length > 0) {
    const peakRss = Math.max(...cases.map((c) => c.max.workerPeakRssMb));
    verdicts.push({
      target: '(earlier) worker peak RSS < 250 MB',
      measured: `${fmt(peakRss)} MB (largest of all runs)`,
      met: peakRss < 250,
    });
  }
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

/** --profile: per case (first run), the top statements, the wait events and the worker's CPU profile. */
export function profileReport(cases: Summary<CaseResult>[]): string {
  const parts: string[] = [];
  for (const { runs } of cases) {
    const result = runs[0]!;
    parts.push(`\n## ${result.name}${runs.length > 1 ? ' (first run)' : ''}`);
    if (result.statements.length > 0) {
      parts.push('Postgres statements by total execution time (pg_stat_statements, nested statements included):');
      parts.push(
        table([
          ['total ms', 'calls', 'mean ms', 'rows', 'statement'],
          ...result.statements.map((s) => [fmt(s.totalMs), fmt(s.calls), fmt(s.meanMs, 3), fmt(s.rows), s.query]),
        ]),
      );
    }
    if (result.walRecords.length > 0) {
      parts.push('WAL by record type (pg_walinspect), per event:');
      parts.push(
        table([
          ['record', 'per event', 'B/event', 'of which full-page images'],
          ...result.walRecords.map((w) => [
            w.record,
            fmt(w.count / result.events, 2),
            fmt(w.bytes / result.events),
            fmt(w.fullPageImageBytes / result.events),
          ]),
        ]),
      );
    }
    if (result.walRelations.length > 0) {
      parts.push('WAL by the relation it changed (pg_walinspect, first block of each record), per event:');
      parts.push(
        table([
          ['relation', 'records per event', 'B/event'],
          ...result.walRelations.map((w) => [
            w.relation,
            fmt(w.count / result.events, 2),
            fmt(w.bytes / result.events),
          ]),
        ]),
      );
    }
    if (result.waitEvents.length > 0) {
      parts.push('Active backends by wait event (pg_stat_activity, sampled every 50 ms):');
      parts.push(
        table([
          ['wait event', 'samples', '%'],
          ...result.waitEvents.map((w) => [w.event, fmt(w.samples), fmt(w.share, 1)]),
        ]),
      );
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
