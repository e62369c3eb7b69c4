// Turns the summarized case results into the printed tables and the verdict on each target of
// issue 22 (storage: producers, WAL, drain CPU beside graphile-worker, soak, retention), then those of
// issue 11 ("Write path v2") it did not replace, and the earlier ones the benchmark has always judged.
// A target not met says why, in numbers the same run measured.
// Verdicts use the median of the runs, except duplicate sends, where any run with one fails.
import { availableParallelism } from 'node:os';
import type { PeerResult } from './graphile-peer';
import type { Summary } from './repeat';
import { drainLabel, type CaseResult, type ProducerPartResult, type ProducerResult } from './scenarios';
import type { SoakResult } from './soak';

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

/** CPU µs per delivery of the loopback receiver and the bench process, which share the cores. */
const receiverMicros = (drain: CaseResult) => (drain.benchProcessCpuSeconds * 1e6) / Math.max(1, drain.succeeded);

/**
 * What the machine's cores allow at the CPU a drain's deliveries cost: worker, PostgreSQL and the
 * loopback receiver, which runs in the bench process (with the bench's own progress checks) on the
 * same cores. A receiver on another machine would leave its share to the other two.
 */
function cpuCeiling(drain: CaseResult): string {
  const totalMicros = drain.cpuMicrosPerDelivery + receiverMicros(drain);
  if (!Number.isFinite(totalMicros) || totalMicros <= 0) return 'CPU per delivery not measured';
  const cores = availableParallelism();
  return (
    `CPU per delivery ${fmt(drain.cpuMicrosPerDelivery)} µs (worker + PostgreSQL) + ${fmt(receiverMicros(drain))} µs ` +
    `(receiver and bench process) = ${fmt(totalMicros)} µs: ${cores} cores allow at most ` +
    `${fmt((cores * 1e6) / totalMicros)}/s`
  );
}

/** What the run measured besides the cases and producers, for the targets that read it. */
export interface OtherMeasurements {
  peers?: Summary<PeerResult>[];
  /** The size of the drain the peer ran, which Hookline's drain of the same size is compared with. */
  peerEvents?: number;
  soak?: SoakResult;
}

/**
 * Issue 22's producer targets, and why one is not met. No worker: the parts (the message row alone,
 * its index entries) bound what hookline.send can keep. Beside a worker on the same cores: each event
 * costs its producer's transaction (CPU at the saturated no-worker rate) plus its delivery (worker,
 * PostgreSQL and receiver, from the drain): their sum over the cores is the most the producers can do.
 */
function producerVerdicts(
  producers: Summary<ProducerResult>[],
  producerParts: Summary<ProducerPartResult>[],
  drain: CaseResult | undefined,
): TargetVerdict[] {
  const aloneTarget = 'producer TPS with the hookline.send trigger >= 65% of no trigger, no worker running';
  const besideTarget = 'producer TPS with the hookline.send trigger >= 50% of no trigger beside a worker, same cores';
  const one = producers.find((p) => p.median.endpoints === 1)?.median;
  if (!one) return [aloneTarget, besideTarget].map((target) => ({ target, measured: 'not run', met: null }));
  const row = producerParts.find((p) => p.median.part === 'written')?.median;
  const aloneReason =
    one.percentAlone >= 65 || !row
      ? ''
      : `; the message row alone keeps ${fmt(row.percentOfNoTrigger, 1)}% (${fmt(row.walBytesPerInsert)} B of WAL ` +
        `per insert), so hookline.send's checks (event type, payload, wake-up) cost ` +
        `${fmt(row.percentOfNoTrigger - one.percentAlone, 1)} points beyond it`;
  let besideReason = '';
  if (one.percentWithWorker < 50 && drain && Number.isFinite(drain.cpuMicrosPerDelivery)) {
    const cores = availableParallelism();
    const transactionMicros = (cores * 1e6) / one.tpsAlone;
    const deliveryMicros = drain.cpuMicrosPerDelivery + receiverMicros(drain);
    const ceiling = ((cores * 1e6) / (transactionMicros + deliveryMicros) / one.tpsWithoutTrigger) * 100;
    besideReason =
      `; on ${cores} cores an event costs its producer's transaction ${fmt(transactionMicros)} µs of CPU (at the ` +
      `no-worker rate) and its delivery ${fmt(deliveryMicros)} µs (worker and PostgreSQL ` +
      `${fmt(drain.cpuMicrosPerDelivery)}, receiver ${fmt(receiverMicros(drain))}; ${drain.name}): at most ` +
      `${fmt(ceiling, 1)}% while the worker keeps up`;
  }
  return [
    {
      target: aloneTarget,
      measured:
        `${fmt(one.percentAlone, 1)}% (${fmt(one.tpsAlone)} of ${fmt(one.tpsWithoutTrigger)} TPS), 1 endpoint` +
        aloneReason,
      met: one.percentAlone >= 65,
    },
    {
      target: besideTarget,
      measured: `${fmt(one.percentWithWorker, 1)}% (${fmt(one.tpsWithWorker)} TPS), 1 endpoint` + besideReason,
      met: one.percentWithWorker >= 50,
    },
  ];
}

/** Where a drain's WAL goes, when --profile read it by relation: heaps, and index entries. */
function walReason(drain: CaseResult): string {
  const relations = drain.walRelations ?? [];
  if (relations.length === 0) return '; --profile shows where it goes';
  const perEvent = (bytes: number) => bytes / Math.max(1, drain.events);
  const hookline = relations.filter((r) => r.relation.startsWith('hookline.'));
  const indexes = hookline.filter((r) => /_(pkey|idx|key)$/.test(r.relation));
  const heaps = hookline.filter((r) => !indexes.includes(r));
  const sum = (rs: typeof relations) => rs.reduce((total, r) => total + perEvent(r.bytes), 0);
  const rest = drain.walBytesPerEvent - sum(hookline);
  return (
    `: heaps ${fmt(sum(heaps))} B (${heaps
      .filter((r) => perEvent(r.bytes) >= 10)
      .map((r) => `${r.relation.replace('hookline.', '')} ${fmt(perEvent(r.bytes))}`)
      .join(', ')}), ` +
    `entries in ${indexes.filter((r) => perEvent(r.bytes) >= 10).length} indexes ${fmt(sum(indexes))} B, the rest ${fmt(rest)} B`
  );
}

export function judgeTargets(
  cases: Summary<CaseResult>[],
  producers: Summary<ProducerResult>[],
  producerParts: Summary<ProducerPartResult>[] = [],
  other: OtherMeasurements = {},
): TargetVerdict[] {
  const verdicts: TargetVerdict[] = [];
  const notRun = (target: string, why = 'not run') => verdicts.push({ target, measured: why, met: null });
  const drain = mainDrain(cases)?.median;

  // Issue 22. 1. Producers, with no worker and beside one.
  verdicts.push(...producerVerdicts(producers, producerParts, drain));

  // 2. WAL and CPU per delivery; the drain beside graphile-worker's in the same run.
  if (drain) {
    verdicts.push({
      target: '<= 1,000 B of WAL per event end to end, one endpoint',
      measured:
        `${fmt(drain.walBytesPerEvent)} B in ${drain.name}` + (drain.walBytesPerEvent > 1000 ? walReason(drain) : ''),
      met: drain.walBytesPerEvent <= 1000,
    });
    const pgCpu = Number.isFinite(drain.postgresCpuSeconds) ? `${fmt(drain.postgresCpuSeconds, 1)} s` : 'not measured';
    verdicts.push({
      target: '<= 225 µs CPU per delivery (worker + all PostgreSQL processes)',
      measured:
        `${fmt(drain.cpuMicrosPerDelivery)} µs in ${drain.name} (worker ${fmt(drain.workerCpuSeconds, 1)} s, ` +
        `PostgreSQL ${pgCpu}, over ${fmt(drain.succeeded)} deliveries)`,
      met:
        Number.isFinite(drain.cpuMicrosPerDelivery) && Number.isFinite(drain.postgresCpuSeconds)
          ? drain.cpuMicrosPerDelivery <= 225
          : null,
    });
  } else {
    notRun('<= 1,000 B of WAL per event end to end, one endpoint');
    notRun('<= 225 µs CPU per delivery (worker + all PostgreSQL processes)');
  }
  const peer = other.peers?.[0]?.median;
  const peerDrainName =
    other.peerEvents === undefined
      ? undefined
      : drainLabel({ events: other.peerEvents, workers: 1, endpoints: 1, delayMs: 0, failRate: 0 });
  const sameSize = cases.find((c) => c.name === peerDrainName)?.median;
  if (peer && sameSize) {
    verdicts.push({
      target: 'drain at least as fast as graphile-worker in the same run, 0 duplicate sends',
      measured:
        `Hookline ${fmt(sameSize.deliveriesPerSecond)}/s recorded at ${fmt(sameSize.cpuMicrosPerDelivery)} µs, ` +
        `${peer.name} ${fmt(peer.drainPerSecond)}/s completed at ${fmt(peer.cpuMicrosPerDelivery)} µs ` +
        `(${fmt(sameSize.events)} events each); duplicate sends ${fmt(sameSize.duplicates)} / ${fmt(peer.duplicates)}`,
      met: sameSize.deliveriesPerSecond >= peer.drainPerSecond && sameSize.duplicates === 0,
    });
  } else
    notRun(
      'drain at least as fast as graphile-worker in the same run, 0 duplicate sends',
      'not run (--scenario=graphile, with graphile-worker installed: bench/README.md)',
    );

  // 3. The soak, when it ran in this invocation (its own table follows the others).
  if (other.soak) {
    const failed = other.soak.criteria.filter((c) => !c.passed);
    verdicts.push({
      target: `soak: ${other.soak.rate}/s for ${other.soak.minutes} min, nothing lost or duplicated, latency and size flat`,
      measured:
        failed.length === 0
          ? 'every criterion passed (table below)'
          : `failed: ${failed.map((c) => c.criterion).join('; ')}`,
      met: other.soak.passed,
    });
  } else
    notRun('soak: 1,000/s for 30 min, nothing lost or duplicated, latency and size flat', 'run by --scenario=soak');
  notRun('dashboard p95 < 200 ms at 100 M deliveries', 'measured by npm run bench:dashboard');
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

  // Issue 11's, where issue 22 did not replace them.
  const shares = producers.map((p) => p.median).sort((a, b) => a.endpoints - b.endpoints);
  if (shares.length > 0) {
    const counts = new Set(shares.map((p) => p.endpoints));
    const tps = shares.map((p) => p.tpsWithWorker);
    const spread = ((Math.max(...tps) - Math.min(...tps)) / Math.max(...tps)) * 100;
    const aloneTps = shares.map((p) => p.tpsAlone);
    const aloneSpread = ((Math.max(...aloneTps) - Math.min(...aloneTps)) / Math.max(...aloneTps)) * 100;
    verdicts.push({
      target: '(issue 11) producer TPS for 1, 10 and 100 subscribed endpoints within 10% of each other',
      measured:
        `${shares.map((p) => `${p.endpoints} ep ${fmt(p.tpsWithWorker)}`).join(', ')}: lowest ${fmt(spread, 1)}% below highest ` +
        `(no worker running: ${fmt(aloneSpread, 1)}%)`,
      met: counts.has(1) && counts.has(10) && counts.has(100) ? spread <= 10 : null,
    });
  } else notRun('(issue 11) producer TPS for 1, 10 and 100 subscribed endpoints within 10% of each other');

  // Drain counted when recorded; the tail between sending and recording; duplicates.
  if (drain) {
    verdicts.push({
      target: '(issue 11) >= 10,000 deliveries/s recorded, 100,000 events, one worker, 100% success',
      measured:
        `${fmt(drain.deliveriesPerSecond)}/s recorded (${fmt(drain.sentPerSecond)}/s sent) over ` +
        `${fmt(drain.events)} events, ${fmt(drain.successRate * 100, 2)}% success; ${cpuCeiling(drain)}`,
      met: drain.events >= 100_000 ? drain.deliveriesPerSecond >= 10_000 && drain.successRate === 1 : null,
    });
  } else notRun('(issue 11) >= 10,000 deliveries/s recorded, 100,000 events, one worker, 100% success');

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

  // Latency at a fixed offered rate: only counts if the producers reached it.
  const latency = cases.find((c) => c.median.kind === 'latency')?.median;
  if (latency?.latencyMs && latency.producer) {
    const offered = latency.producer.offeredRate ?? 0;
    verdicts.push({
      target: '(issue 11) p99 enqueue -> delivery < 50 ms at 1,000 events/s offered, producers reaching that rate',
      measured:
        `p50 ${latency.latencyMs.p50} / p95 ${latency.latencyMs.p95} / p99 ${latency.latencyMs.p99} ms; ` +
        `producers reached ${fmt(latency.producer.tpsWithTrigger)}/s of ${fmt(offered)}/s offered`,
      met: offered >= 1000 ? latency.latencyMs.p99 < 50 && latency.producer.tpsWithTrigger >= 0.95 * offered : null,
    });
  } else notRun('(issue 11) p99 enqueue -> delivery < 50 ms at 1,000 events/s offered');

  // Scaling.
  const scaling = scalingSet(cases);
  if (scaling.length > 1) {
    const one = scaling[0]!;
    verdicts.push({
      target: '(issue 11) more workers never slower: 2 and 4 workers on one endpoint >= one worker',
      measured:
        `${scaling.map((r) => `${r.workers}w ${fmt(r.deliveriesPerSecond)}/s`).join(', ')} recorded ` +
        `(${fmt(one.events)} events each); CPU per delivery, workers + PostgreSQL: ` +
        `${scaling.map((r) => `${r.workers}w ${fmt(r.cpuMicrosPerDelivery)} µs`).join(', ')} on ${availableParallelism()} cores`,
      met: scaling.every((r) => r.deliveriesPerSecond >= one.deliveriesPerSecond),
    });
  } else
    notRun(
      '(issue 11) more workers never slower: 2 and 4 workers on one endpoint >= one worker',
      'not run (needs drains of one size with 1 and more workers)',
    );

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
