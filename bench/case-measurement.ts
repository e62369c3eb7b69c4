// What every case measures while it runs, started before the work and read when it is done: CPU of
// the workers and of every PostgreSQL process (/proc), WAL written, sockets on the receiver's port,
// what backends waited on, and the statements Postgres spent its time in.
import type pg from 'pg';
import {
  resetStatements,
  topStatements,
  walRecordShares,
  walRelationShares,
  type StatementCost,
  type WalRecordShare,
  type WalRelationShare,
} from './bench-database';
import type { BenchContext } from './scenarios';
import { watchSockets } from './socket-states';
import { watchWaitEvents, type WaitEventShare } from './wait-events';
import { postgresCpuSeconds, type WorkerProcesses, type WorkerUsage } from './worker-processes';

export interface Measured {
  workerCpuSeconds: number;
  workerPeakRssMb: number;
  /** NaN when PostgreSQL runs elsewhere (--database-url to another machine or a container). */
  postgresCpuSeconds: number;
  benchProcessCpuSeconds: number;
  walBytes: number;
  peakTimeWait: number;
  waitEvents: WaitEventShare[];
  statements: StatementCost[];
  /** --profile only: the case's WAL by record type (reading it back costs seconds per 100k events). */
  walRecords: WalRecordShare[];
  walRelations: WalRelationShare[];
}

export interface CaseMeasurement {
  /** Call once the workers have started: their start-up CPU (loading tsx, ~1 s) is not the case's. */
  workersStarted(workers: WorkerProcesses): Promise<void>;
  finish(workers: WorkerProcesses): Promise<Measured>;
}

export async function walPosition(client: pg.ClientBase): Promise<string> {
  const { rows } = await client.query<{ lsn: string }>('SELECT pg_current_wal_lsn()::text AS lsn');
  return rows[0]!.lsn;
}

export async function walBytesSince(client: pg.ClientBase, since: string): Promise<number> {
  const { rows } = await client.query<{ bytes: string }>(
    'SELECT pg_wal_lsn_diff(pg_current_wal_lsn(), $1)::text AS bytes',
    [since],
  );
  return Number(rows[0]!.bytes);
}

async function postgresCpu(context: BenchContext): Promise<number> {
  const pid = context.server.postmasterPid;
  return pid === null ? NaN : postgresCpuSeconds(pid);
}

/**
 * Starts measuring. `walSince`: a WAL position taken earlier, for cases whose WAL counts from before
 * the measured part (a drain's WAL includes queueing its events: end to end).
 */
export async function startMeasurement(
  context: BenchContext,
  client: pg.ClientBase,
  url: string,
  walSince?: string,
): Promise<CaseMeasurement> {
  const sockets = watchSockets(context.receiver.port);
  await resetStatements(context.server, client);
  const postgresCpuBefore = await postgresCpu(context);
  const benchCpuBefore = process.cpuUsage();
  const waits = await watchWaitEvents(url);
  const walBefore = walSince ?? (await walPosition(client));
  let workerBaseline: WorkerUsage[] = [];
  return {
    async workersStarted(workers) {
      workerBaseline = await workers.usage();
    },
    async finish(workers) {
      const usage = await workers.usage();
      const postgresCpuAfter = await postgresCpu(context);
      const benchCpu = process.cpuUsage(benchCpuBefore);
      const walBytes = await walBytesSince(client, walBefore);
      const socketPeaks = await sockets.stop();
      const waitEvents = await waits.stop();
      const statements = await topStatements(context.server, client);
      const walRecords = context.profileDir ? await walRecordShares(context.server, client, walBefore) : [];
      const walRelations = context.profileDir ? await walRelationShares(context.server, client, walBefore) : [];
      const workerCpu = usage.reduce(
        (sum, entry, index) => sum + entry.cpuSeconds - (workerBaseline[index]?.cpuSeconds ?? 0),
        0,
      );
      return {
        workerCpuSeconds: Math.round(workerCpu * 100) / 100,
        workerPeakRssMb: Math.max(...usage.map((entry) => entry.peakRssMb)),
        postgresCpuSeconds: Math.round((postgresCpuAfter - postgresCpuBefore) * 100) / 100,
        benchProcessCpuSeconds: (benchCpu.user + benchCpu.system) / 1e6,
        walBytes,
        peakTimeWait: socketPeaks.peakTimeWait,
        waitEvents,
        statements,
        walRecords,
        walRelations,
      };
    },
  };
}

/** Worker and PostgreSQL CPU per delivery in µs: the cost of a delivery on the machine (issue 11: ≤ 200). */
export function cpuMicrosPerDelivery(measured: Measured, deliveries: number): number {
  return Math.round(((measured.workerCpuSeconds + measured.postgresCpuSeconds) * 1e6) / Math.max(1, deliveries));
}
