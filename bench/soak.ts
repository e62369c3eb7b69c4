// The soak (issue 22): producers offer a steady rate through the hookline.send trigger (the pg_net
// scenario's spice_harvests row and to_jsonb(NEW)) for --minutes, one worker process delivers to the
// loopback receiver with retention shortened to a third of the run (10 minutes of 30: the stored
// events turn over three times; the worker's maintenance runs retention every 60 s), and once a
// minute the run records what the producers offered and committed, the results recorded and their
// latency, the size of Hookline's tables, dead tuples, rows deleted, WAL, load, CPU and lock waits.
// Latency is enqueue (the message's created_at) to its result recorded (deliveries.updated_at, set by
// the worker's flush): a delivery counts when its result is recorded, as everywhere in the bench.
// The receiver's view (enqueue to the request arriving) is kept beside it.
import { loadavg } from 'node:os';
import type { LockWait } from './lock-waits';
import { watchLockWaits } from './lock-waits';
import { startPacedProducers } from './paced-producers';
import { databaseClockOffsetMs } from './recorded-results';
import { createCaseDatabase, prepareProducer, startWorkers, withClient, type BenchContext } from './scenarios';
import { databaseNow, percentileOf, readRecordedBetween, readStorage, walBytesBetween } from './soak-minute';
import { judgeSoak, soakWindows, type SoakCriterion, type SoakWindows } from './soak-verdict';
import { postgresCpuSeconds } from './worker-processes';

/** Producer connections: as many as the latency scenario's pgbench clients. */
const PRODUCER_CONNECTIONS = 4;
/**
 * Each minute closes this long before the sample is taken: a flush whose transaction began before
 * the boundary (updated_at = its start) but commits after it would otherwise be missed by both
 * minutes. Flushes take tens of milliseconds.
 */
const BOUNDARY_LAG_SECONDS = 5;
/** How far before a minute a recorded delivery may have been fanned out and still be found. */
const LOOKBACK_MINUTES = 5;

export interface SoakOptions {
  minutes: number;
  rate: number;
  /** Length of one sample; 60 s except in a quick check of the machinery. */
  minuteMs?: number;
}

export interface SoakMinute {
  /** 1 to --minutes while the producers run; the drain after them is `tail`. */
  minute: number | 'tail';
  endedAt: string;
  seconds: number;
  offeredPerSecond: number;
  achievedPerSecond: number;
  /** Rows the producers committed in this sample (the tail: between the last minute and their stop). */
  committedRows: number;
  recorded: number;
  recordedPerSecond: number;
  dead: number;
  /** Enqueue to result recorded, of the deliveries recorded in this minute. */
  latencyMs: { p50: number; p95: number; p99: number; max: number };
  /** Enqueue to the receiver getting the request, for comparison. */
  receiptP99Ms: number;
  receivedPerSecond: number;
  tableBytes: number;
  largestTables: { name: string; bytes: number }[];
  liveTuples: number;
  deadTuples: number;
  deletedRows: number;
  vacuums: number;
  /** Time partitions of messages at the end of the minute: they stay level when retention drops them. */
  timePartitions: number;
  walBytes: number;
  loadAverage: number;
  workerCpuSeconds: number;
  postgresCpuSeconds: number;
  /** Worker and PostgreSQL CPU in the minute per result recorded in it (producers' inserts included). */
  cpuMicrosPerDelivery: number;
  workerPeakRssMb: number;
  lockWaitSamples: number;
  lockWaits: number;
  retentionLockWaits: number;
  /** Up to three of the minute's lock waits, for the reader. */
  lockWaitExamples: LockWait[];
}

export interface SoakResult {
  minutes: number;
  rate: number;
  retentionSeconds: number;
  producerConnections: number;
  windows: SoakWindows;
  series: SoakMinute[];
  totals: ReturnType<typeof totalsOf>;
  criteria: SoakCriterion[];
  passed: boolean;
  producerFailures: { count: number; first?: string };
}

const fixed = (value: number, digits = 0) =>
  Number.isFinite(value) ? value.toLocaleString('en-US', { maximumFractionDigits: digits }) : '-';
const mb = (bytes: number) => `${(bytes / 2 ** 20).toFixed(1)} MB`;

export function formatSoakMinute(sample: SoakMinute, minutes: number): string {
  const label = sample.minute === 'tail' ? 'tail   ' : `min ${String(sample.minute).padStart(2)}/${minutes}`;
  const producers =
    sample.minute === 'tail'
      ? `producers stopped (${fixed(sample.committedRows)} rows after the last minute), ${sample.seconds} s to drain`
      : `offered ${fixed(sample.offeredPerSecond)}/s, achieved ${fixed(sample.achievedPerSecond)}/s`;
  return (
    `  ${label}: ${producers} | ` +
    `recorded ${fixed(sample.recordedPerSecond)}/s p50/p95/p99 ${fixed(sample.latencyMs.p50)}/${fixed(sample.latencyMs.p95)}/` +
    `${fixed(sample.latencyMs.p99)} ms | tables ${mb(sample.tableBytes)}, dead tuples ${fixed(sample.deadTuples)}, ` +
    `deleted ${fixed(sample.deletedRows)}, partitions ${sample.timePartitions} | WAL ${mb(sample.walBytes)} | ${fixed(sample.cpuMicrosPerDelivery)} µs/deliv | ` +
    `load ${sample.loadAverage.toFixed(2)} | lock waits ${sample.lockWaits} (on retention ${sample.retentionLockWaits})`
  );
}

function totalsOf(series: SoakMinute[], windows: SoakWindows, latencies: Map<number, Float64Array>) {
  const pooledP99 = ([from, to]: [number, number]) => {
    const parts: Float64Array[] = [];
    for (let minute = from; minute <= to; minute++) parts.push(latencies.get(minute) ?? new Float64Array());
    const all = new Float64Array(parts.reduce((sum, part) => sum + part.length, 0));
    let offset = 0;
    for (const part of parts) {
      all.set(part, offset);
      offset += part.length;
    }
    return percentileOf(all.sort(), 99);
  };
  const producing = series.filter((sample) => sample.minute !== 'tail');
  const at = (minute: number) => producing.find((sample) => sample.minute === minute);
  return {
    recorded: series.reduce((sum, sample) => sum + sample.recorded, 0),
    dead: series.reduce((sum, sample) => sum + sample.dead, 0),
    deletedRows: series.reduce((sum, sample) => sum + sample.deletedRows, 0),
    timePartitions: producing.map((sample) => sample.timePartitions),
    retentionLockWaits: series.reduce((sum, sample) => sum + sample.retentionLockWaits, 0),
    otherLockWaits: series.reduce((sum, sample) => sum + sample.lockWaits - sample.retentionLockWaits, 0),
    p99Baseline: pooledP99(windows.baseline),
    p99Last: pooledP99(windows.last),
    bytesAtSizeMinute: at(windows.sizeAt)?.tableBytes ?? NaN,
    bytesAtEnd: producing.at(-1)?.tableBytes ?? NaN,
  };
}

async function waitUntil(check: () => Promise<boolean>, timeoutMs: number, what: string): Promise<void> {
  const until = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > until) throw new Error(`${what} within ${timeoutMs / 1000} s`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

export async function runSoak(context: BenchContext, options: SoakOptions): Promise<SoakResult> {
  const { minutes, rate } = options;
  const minuteMs = options.minuteMs ?? 60_000;
  const retentionSeconds = Math.round((minutes * 60) / 3);
  const windows = soakWindows(minutes);
  const name = 'bench_soak';
  const url = await createCaseDatabase(context, name, { retentionMs: retentionSeconds * 1000 });
  const { receiver } = context;
  try {
    return await withClient(url, async (client) => {
      await prepareProducer(context, client, 'send', 1);
      const { rows: apps } = await client.query<{ id: string }>(`SELECT id FROM hookline.apps WHERE name = 'bench'`);
      const appId = apps[0]!.id;
      const clockOffsetMs = await databaseClockOffsetMs(client);
      const { workers } = await startWorkers(context, url, 1, name, { HOOKLINE_RETENTION: `${retentionSeconds}s` });
      const lockWaits = await watchLockWaits(url);
      try {
        receiver.setBehaviour({ delayMs: 0, failRate: 0 });
        receiver.reset();
        context.log(
          `  soak: ${rate}/s offered by ${PRODUCER_CONNECTIONS} connections for ${minutes} min, retention ` +
            `${retentionSeconds} s, one worker (pid ${workers.pids.join(', ')})` +
            (windows.scale !== 1 ? `; windows scaled by ${minutes}/30` : ''),
        );
        const series: SoakMinute[] = [];
        const latencies = new Map<number, Float64Array>();
        let bound = await databaseNow(client);
        let storage = await readStorage(client);
        let workerCpu = (await workers.usage())[0]?.cpuSeconds ?? 0;
        const pid = context.server.postmasterPid;
        let postgresCpu = pid === null ? NaN : await postgresCpuSeconds(pid);
        let receiptsSeen = 0;
        let offeredBefore = 0;
        let committedBefore = 0;
        let sampledAt = performance.now();

        const sample = async (minute: number | 'tail', offered: number, committed: number): Promise<SoakMinute> => {
          const now = performance.now();
          const seconds = (now - sampledAt) / 1000;
          sampledAt = now;
          const nextBound = minute === 'tail' ? 'infinity' : await databaseNow(client, BOUNDARY_LAG_SECONDS);
          const recorded = await readRecordedBetween(client, {
            appId,
            from: bound,
            to: nextBound,
            lookbackMinutes: LOOKBACK_MINUTES,
          });
          bound = nextBound;
          const sorted = Float64Array.from(recorded.latenciesMs).sort();
          if (typeof minute === 'number') latencies.set(minute, sorted);
          const next = await readStorage(client);
          const walBytes = await walBytesBetween(client, storage.walLsn, next.walLsn);
          const usage = (await workers.usage())[0];
          const nextPostgresCpu = pid === null ? NaN : await postgresCpuSeconds(pid);
          const receipts = receiver.latencies().subarray(receiptsSeen);
          receiptsSeen += receipts.length;
          const waits = lockWaits.take();
          const workerCpuSeconds = (usage?.cpuSeconds ?? 0) - workerCpu;
          const postgresCpuSpent = nextPostgresCpu - postgresCpu;
          const result: SoakMinute = {
            minute,
            endedAt: new Date().toISOString(),
            seconds: Math.round(seconds * 10) / 10,
            offeredPerSecond: Math.round((offered - offeredBefore) / seconds),
            achievedPerSecond: Math.round((committed - committedBefore) / seconds),
            committedRows: committed - committedBefore,
            recorded: sorted.length,
            recordedPerSecond: Math.round(sorted.length / seconds),
            dead: recorded.dead,
            latencyMs: {
              p50: percentileOf(sorted, 50),
              p95: percentileOf(sorted, 95),
              p99: percentileOf(sorted, 99),
              max: percentileOf(sorted, 100),
            },
            receiptP99Ms: percentileOf(receipts.map((ms) => ms + clockOffsetMs).sort(), 99),
            receivedPerSecond: Math.round(receipts.length / seconds),
            tableBytes: next.tableBytes,
            largestTables: next.largest,
            liveTuples: next.liveTuples,
            deadTuples: next.deadTuples,
            deletedRows: next.deletedRows - storage.deletedRows,
            vacuums: next.vacuums - storage.vacuums,
            timePartitions: next.timePartitions,
            walBytes,
            loadAverage: Math.round(loadavg()[0]! * 100) / 100,
            workerCpuSeconds: Math.round(workerCpuSeconds * 100) / 100,
            postgresCpuSeconds: Math.round(postgresCpuSpent * 100) / 100,
            cpuMicrosPerDelivery: Math.round(
              ((workerCpuSeconds + postgresCpuSpent) * 1e6) / Math.max(1, sorted.length),
            ),
            workerPeakRssMb: usage?.peakRssMb ?? NaN,
            lockWaitSamples: waits.samples,
            lockWaits: waits.waits.length,
            retentionLockWaits: waits.waits.filter((wait) => wait.blockedByRetention).length,
            lockWaitExamples: waits.waits.slice(0, 3),
          };
          storage = next;
          workerCpu = usage?.cpuSeconds ?? workerCpu;
          postgresCpu = nextPostgresCpu;
          offeredBefore = offered;
          committedBefore = committed;
          series.push(result);
          context.log(formatSoakMinute(result, minutes));
          return result;
        };

        const producers = await startPacedProducers({ databaseUrl: url, rate, connections: PRODUCER_CONNECTIONS });
        const startedAt = performance.now();
        sampledAt = startedAt;
        let committed: number;
        try {
          for (let minute = 1; minute <= minutes; minute++) {
            const due = startedAt + minute * minuteMs;
            await new Promise((resolve) => setTimeout(resolve, Math.max(0, due - performance.now())));
            const at = performance.now();
            await sample(minute, producers.offeredBy(at), producers.committed());
          }
        } finally {
          committed = await producers.stop();
        }
        const offered = producers.offeredBy(performance.now());
        // The drain after the producers stop: everything committed is sent and recorded, then the
        // last window is read to the end.
        await waitUntil(
          async () => {
            if (receiver.counts().uniqueSucceeded < committed) return false;
            const { rows } = await client.query<{ open: number }>(
              `SELECT (SELECT count(*) FROM hookline.deliveries WHERE state IN ('pending', 'delivering'))::int
                    + (SELECT count(*) FROM hookline.messages AS m, hookline.fanout_cursor AS c
                        WHERE m.written_by >= pg_snapshot_xmin(c.fanned_out_through)
                          AND NOT hookline.fanned_out(m.written_by, m.id, c.fanned_out_through, c.partial_xid, c.partial_through_id))::int AS open`,
            );
            return rows[0]!.open === 0;
          },
          120_000,
          `the soak's last deliveries were not all sent and recorded`,
        ).catch((error: Error) => context.log(`  ${error.message}`));
        await sample('tail', offered, committed);
        const { rows: open } = await client.query<{ unfinished: number; spice: number }>(
          `SELECT (SELECT count(*) FROM hookline.deliveries WHERE state IN ('pending', 'delivering'))::int
                + (SELECT count(*) FROM hookline.messages AS m, hookline.fanout_cursor AS c
                    WHERE m.written_by >= pg_snapshot_xmin(c.fanned_out_through)
                      AND NOT hookline.fanned_out(m.written_by, m.id, c.fanned_out_through, c.partial_xid, c.partial_through_id))::int AS unfinished,
                  (SELECT count(*) FROM spice_harvests)::int AS spice`,
        );
        if (open[0]!.spice !== committed) {
          context.log(
            `  note: spice_harvests holds ${open[0]!.spice} rows, the producers counted ${committed} commits`,
          );
        }
        const counts = receiver.counts();
        const totals = {
          ...totalsOf(series, windows, latencies),
          committed: open[0]!.spice,
          receivedOnce: counts.uniqueSucceeded,
          duplicates: counts.duplicates,
          unfinished: open[0]!.unfinished,
        };
        const criteria = judgeSoak(minutes, totals);
        return {
          minutes,
          rate,
          retentionSeconds,
          producerConnections: PRODUCER_CONNECTIONS,
          windows,
          series,
          totals,
          criteria,
          passed: criteria.every((criterion) => criterion.passed),
          producerFailures: producers.failures(),
        };
      } finally {
        await lockWaits.stop();
        await workers.stop();
      }
    });
  } finally {
    await context.server.drop(name);
  }
}
