// The graphile-worker peer scenario (issue 22): the same two measurements as Hookline's, in the same
// run, against the same loopback receiver, with one graphile-worker process tuned as
// GRAPHILE_TUNING says (bench/graphile-worker-module.ts):
//   producer: the pg_net scenario's pgbench (spice_harvests, 10 clients x 1,000 inserts) with an AFTER
//             INSERT trigger calling graphile_worker.add_job('deliver', to_jsonb(NEW)::json) (its
//             payload parameter is json: the same document, cast) while the
//             worker delivers; TPS against the round's no-trigger TPS, and pgbench start to the last
//             job completed;
//   drain:    N jobs queued first (add_job with a payload shaped like the row, as Hookline's drain
//             queues hookline.send), then the worker started; jobs completed per second, CPU per
//             delivery (the worker process and every PostgreSQL process) and WAL per event, queueing
//             included, end to end.
// graphile-worker deletes a job's row when the job completes: a job counts as completed when its row
// is gone, polled every 20 ms (an index probe while the drain runs, then whether any row is left).
// The drain's window runs from the first completed job to the last.
import type pg from 'pg';
import { startMeasurement, cpuMicrosPerDelivery, walPosition } from './case-measurement';
import { GRAPHILE_TUNING, type GraphileWorkerModule, type LoadedGraphileWorker } from './graphile-worker-module';
import { runPgbench } from './pgbench';
import { SPICE_INSERT, SPICE_TABLE, triggerCalling, withClient, type BenchContext } from './scenarios';
import { startWorkerProcesses, type WorkerProcesses } from './worker-processes';

const JOBS = 'graphile_worker._private_jobs';

export interface PeerResult {
  name: string;
  producerTps: number;
  percentOfNoTrigger: number;
  /** pgbench start to the last job completed. */
  startToLastCompletedMs: number;
  drainEvents: number;
  /** Jobs completed per second, first completed to last. */
  drainPerSecond: number;
  /** Worker process + PostgreSQL CPU per delivered job in the drain, µs. */
  cpuMicrosPerDelivery: number;
  /** Drain, queueing included. */
  walBytesPerEvent: number;
  /** The producer case, pgbench start to the last completed job. */
  producerWalBytesPerEvent: number;
  workerCpuSeconds: number;
  postgresCpuSeconds: number;
  workerPeakRssMb: number;
  /** Requests for a job the receiver had already answered or was answering, both cases. */
  duplicates: number;
}

async function startGraphileWorker(context: BenchContext, url: string): Promise<WorkerProcesses> {
  return startWorkerProcesses({
    databaseUrl: url,
    count: 1,
    script: 'bench/graphile-worker-process.ts',
    env: { BENCH_RECEIVER_URL: `${context.receiver.url}/e0` },
  });
}

async function jobsLeft(client: pg.ClientBase): Promise<boolean> {
  const { rows } = await client.query<{ left: boolean }>(`SELECT EXISTS (SELECT 1 FROM ${JOBS}) AS left`);
  return rows[0]!.left;
}

/** Resolves with the time (Date.now()) the last job row was gone. */
async function waitForNoJobs(client: pg.ClientBase, timeoutMs: number): Promise<number> {
  const until = Date.now() + timeoutMs;
  while (await jobsLeft(client)) {
    if (Date.now() > until) throw new Error(`graphile-worker left jobs unfinished after ${timeoutMs / 1000} s`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  return Date.now();
}

async function prepareDatabase(context: BenchContext, graphile: GraphileWorkerModule, name: string): Promise<string> {
  // A case database from the template (Hookline's schema is there but unused): the same server
  // settings, the same clean start.
  const url = await context.server.create(name);
  await graphile.runMigrations({ connectionString: url });
  return url;
}

export async function runGraphilePeer(
  context: BenchContext,
  graphile: LoadedGraphileWorker,
  options: { clients: number; transactionsPerClient: number; tpsWithoutTrigger: number; drainEvents: number },
): Promise<PeerResult> {
  const producer = await runProducer(context, graphile.module, options);
  const drain = await runDrain(context, graphile.module, options.drainEvents);
  return {
    name: `graphile-worker ${graphile.version}`,
    ...producer,
    ...drain,
    duplicates: producer.duplicates + drain.duplicates,
  };
}

async function runProducer(
  context: BenchContext,
  graphile: GraphileWorkerModule,
  options: { clients: number; transactionsPerClient: number; tpsWithoutTrigger: number },
) {
  const name = 'bench_peer_graphile_producer';
  const url = await prepareDatabase(context, graphile, name);
  const { receiver } = context;
  try {
    return await withClient(url, async (client) => {
      await client.query(SPICE_TABLE);
      await client.query(triggerCalling(`PERFORM graphile_worker.add_job('deliver', to_jsonb(NEW)::json);`));
      const measurement = await startMeasurement(context, client, url);
      const worker = await startGraphileWorker(context, url);
      try {
        await measurement.workersStarted(worker);
        receiver.setBehaviour({ delayMs: 0, failRate: 0 });
        receiver.reset();
        context.log(`  graphile-worker producer: pgbench running`);
        const run = await runPgbench({
          binary: context.pgbench!,
          databaseUrl: url,
          script: SPICE_INSERT,
          clients: options.clients,
          threads: 2,
          transactionsPerClient: options.transactionsPerClient,
        });
        await receiver.waitForUnique(run.transactions, 300_000);
        const lastCompletedAt = await waitForNoJobs(client, 60_000);
        const measured = await measurement.finish(worker);
        return {
          producerTps: run.tps,
          percentOfNoTrigger: (run.tps / options.tpsWithoutTrigger) * 100,
          startToLastCompletedMs: Math.round(lastCompletedAt - run.startedAt),
          producerWalBytesPerEvent: Math.round(measured.walBytes / run.transactions),
          duplicates: receiver.counts().duplicates,
        };
      } finally {
        await worker.stop();
      }
    });
  } finally {
    await context.server.drop(name);
  }
}

async function runDrain(context: BenchContext, graphile: GraphileWorkerModule, events: number) {
  const name = 'bench_peer_graphile_drain';
  const url = await prepareDatabase(context, graphile, name);
  const { receiver } = context;
  try {
    return await withClient(url, async (client) => {
      context.log(`  graphile-worker drain: queueing ${events} jobs`);
      const walBefore = await walPosition(client);
      const chunk = 10_000;
      for (let from = 1; from <= events; from += chunk) {
        const to = Math.min(events, from + chunk - 1);
        await client.query(
          `SELECT count(graphile_worker.add_job('deliver',
                    jsonb_build_object('id', g, 'planet', 'Arrakis', 'tonnes', g % 1000, 'harvested_at', now())::json))
             FROM generate_series($1::int, $2::int) AS g`,
          [from, to],
        );
      }
      await client.query(`ANALYZE ${JOBS}`);
      const { rows } = await client.query<{ first: string }>(`SELECT min(id)::text AS first FROM ${JOBS}`);
      const firstJob = rows[0]!.first;
      receiver.setBehaviour({ delayMs: 0, failRate: 0 });
      receiver.reset();
      const measurement = await startMeasurement(context, client, url, walBefore);
      const worker = await startGraphileWorker(context, url);
      try {
        await measurement.workersStarted(worker);
        context.log(`  graphile-worker drain: draining (${describeShort()})`);
        // The first completion: the oldest job's row is gone (jobs are taken oldest first; with a
        // local queue of 500 and 24 at a time, it is among the first completed).
        let firstCompletedAt = NaN;
        const until = Date.now() + 60_000;
        while (Date.now() < until) {
          const { rows: first } = await client.query<{ gone: boolean }>(
            `SELECT NOT EXISTS (SELECT 1 FROM ${JOBS} WHERE id = $1::bigint) AS gone`,
            [firstJob],
          );
          if (first[0]!.gone) {
            firstCompletedAt = Date.now();
            break;
          }
          await new Promise((resolve) => setTimeout(resolve, 20));
        }
        await receiver.waitForUnique(events, Math.max(120_000, events * 2));
        const lastCompletedAt = await waitForNoJobs(client, 60_000);
        const measured = await measurement.finish(worker);
        return {
          drainEvents: events,
          drainPerSecond: Math.round(events / ((lastCompletedAt - firstCompletedAt) / 1000)),
          cpuMicrosPerDelivery: cpuMicrosPerDelivery(measured, events),
          walBytesPerEvent: Math.round(measured.walBytes / events),
          workerCpuSeconds: measured.workerCpuSeconds,
          postgresCpuSeconds: measured.postgresCpuSeconds,
          workerPeakRssMb: measured.workerPeakRssMb,
          duplicates: receiver.counts().duplicates,
        };
      } finally {
        await worker.stop();
      }
    });
  } finally {
    await context.server.drop(name);
  }
}

const describeShort = () =>
  `concurrency ${GRAPHILE_TUNING.concurrentJobs}, local queue ${GRAPHILE_TUNING.localQueue.size}, batched completions`;
