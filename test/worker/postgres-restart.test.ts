// PostgreSQL restarted under running workers: every statement they send fails for a few seconds, their
// connections (pool and LISTEN) are cut, the leases they hold run out meanwhile. No event may be
// lost, no worker may exit, and delivery must resume within seconds of the database coming back.
// This file runs its own embedded PostgreSQL (in a temporary folder, on a free port): the shared one
// serves the other test files, running in parallel, and must not be restarted under them.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort, startEmbeddedPostgres, type EmbeddedPostgresHandle } from '../../lib/database/embedded-postgres';
import { migrate } from '../../lib/database/migrate';
import { createPool, withDatabase, type Pool } from '../../lib/database/pg';
import { countRows, createApp, createEndpoint, createEventType } from '../support/fixtures';
import { startReceiver, waitUntil, type Receiver } from '../support/receiver';
import { isRunning, killAll, spawnWorker, type WorkerProcess } from '../support/worker-process';

let folder: string;
let port: number;
let postgres: EmbeddedPostgresHandle;
let databaseUrl: string;
let pool: Pool;
let receiver: Receiver;
const workers: WorkerProcess[] = [];

// Durability does not matter for throwaway data; a fast stop checkpoints anyway.
const settings = { fsync: 'off', synchronous_commit: 'off', full_page_writes: 'off' };

beforeAll(async () => {
  folder = await mkdtemp(join(tmpdir(), 'hookline-restart-pg-'));
  port = await freePort();
  postgres = await startEmbeddedPostgres({ dataDir: join(folder, 'pg'), port, settings });
  const admin = new pg.Client({ connectionString: postgres.connectionString });
  await admin.connect();
  await admin.query('CREATE DATABASE hookline_restart');
  await admin.end();
  databaseUrl = withDatabase(postgres.connectionString, 'hookline_restart');
  await migrate(databaseUrl);
  pool = createPool(databaseUrl, { max: 3 });
  receiver = await startReceiver((_request, response) => {
    setTimeout(() => response.writeHead(200).end('ok'), Math.random() * 5);
  });
}, 120_000);

afterAll(async () => {
  await killAll(workers);
  await receiver?.close();
  await pool?.end();
  await postgres?.stop();
  if (folder) await rm(folder, { recursive: true, force: true });
});

async function send(appId: string, from: number, count: number): Promise<void> {
  await pool.query(
    `SELECT hookline.send($1, 'tide.turned', jsonb_build_object('n', n)) FROM generate_series($2::int, $2::int + $3::int - 1) AS n`,
    [appId, from, count],
  );
}

/** Connects once with a fresh client: the error if the server is not there. */
async function connectError(): Promise<NodeJS.ErrnoException | null> {
  const client = new pg.Client({ connectionString: databaseUrl });
  client.on('error', () => {});
  try {
    await client.connect();
    await client.end();
    return null;
  } catch (error) {
    return error as NodeJS.ErrnoException;
  }
}

describe('PostgreSQL restarts mid-run', () => {
  it('loses no event, keeps every worker alive, and resumes within seconds', async () => {
    const appId = await createApp(pool, 'Chapterhouse');
    await createEventType(pool, appId, 'tide.turned');
    const endpoint = await createEndpoint(pool, appId, `${receiver.url}/tide`, {
      eventTypes: ['tide.turned'],
      maxConcurrency: 16,
    });
    // Enough that the queue is still being worked when the restart hits, a second after the workers
    // start: one worker delivered 2,000 events before its first maintenance run began.
    const BEFORE = 20_000;
    await send(appId, 1, BEFORE);

    for (let i = 0; i < 2; i++) workers.push(spawnWorker(databaseUrl, { HOOKLINE_RETENTION: '1d' }));
    const exits: { pid: number; code: number | null; signal: string | null }[] = [];
    for (const worker of workers) void worker.exited.then((exit) => exits.push({ pid: worker.pid, ...exit }));
    // A worker's first maintenance starts a second after it does (time partitions, retention, the
    // queue sample): the restart comes when it has, with the queue being worked.
    await waitUntil(async () => receiver.requests.length > 0, {
      timeoutMs: 20_000,
      intervalMs: 10,
      what: 'the first delivery',
    });
    // Both running before the outage: a worker still loading when it begins cannot reach the database
    // to start, and exits 1 by design ("worker failed to start"; its supervisor restarts it). On a
    // machine busy with the other test files one took longer than the other's first delivery.
    const exitedOutput = () =>
      exits
        .map(
          ({ pid }) =>
            `worker ${pid} exited:\n${workers
              .find((worker) => worker.pid === pid)
              ?.output()
              .slice(-6000)}`,
        )
        .join('\n');
    await waitUntil(async () => exits.length > 0 || workers.every((worker) => worker.started()), {
      timeoutMs: 10_000,
      what: 'both workers started',
    });
    expect(exits, exitedOutput()).toEqual([]);
    await new Promise((resolve) => setTimeout(resolve, 1000));
    const delivered = () => countRows(pool, 'deliveries', `endpoint_id = $1 AND state = 'succeeded'`, [endpoint.id]);

    // Stop it while the queue is being worked (claims, flushes and deliveries in flight).
    await postgres.stop();
    const outage = await connectError();
    expect(outage?.code).toBe('ECONNREFUSED');
    expect(receiver.requests.length).toBeGreaterThan(0);
    expect(receiver.requests.length).toBeLessThan(BEFORE);
    // Longer than the 2 s lease: the leases the workers hold run out during the outage.
    await new Promise((resolve) => setTimeout(resolve, 2500));
    expect(await connectError()).not.toBeNull();

    postgres = await startEmbeddedPostgres({ dataDir: join(folder, 'pg'), port, settings });
    const backAt = Date.now();
    expect(await connectError()).toBeNull();
    // Events sent after the restart are found too (LISTEN is re-established, or the poll finds them).
    const AFTER = 500;
    await send(appId, BEFORE + 1, AFTER);

    const firstRecordedAfterRestart = await waitUntil(
      async () => {
        const { rows } = await pool.query<{ first: Date | null }>(
          `SELECT min(updated_at) AS first FROM hookline.deliveries
            WHERE endpoint_id = $1 AND state = 'succeeded' AND updated_at >= $2`,
          [endpoint.id, new Date(backAt)],
        );
        return rows[0]!.first;
      },
      { timeoutMs: 10_000, what: 'a delivery recorded after the restart' },
    ).catch((error: Error) => {
      // What the workers said is the only clue to why they did not resume.
      throw new Error(
        `${error.message}\n${workers.map((worker) => `worker ${worker.pid}:\n${worker.output().slice(-6000)}`).join('\n')}`,
      );
    });
    // Claims back off to at most 5 s, and LISTEN reconnects with the same cap; the first claim that
    // works sends the buffered results at once instead of after the flush's own back-off (which had
    // made this 10 s and more). 1 s more for a machine busy with the other test files.
    expect(firstRecordedAfterRestart.getTime() - backAt).toBeLessThan(6000);

    await waitUntil(async () => (await delivered()) === BEFORE + AFTER, {
      timeoutMs: 30_000,
      intervalMs: 200,
      what: `all ${BEFORE + AFTER} deliveries`,
    });
    expect(await countRows(pool, 'deliveries', 'endpoint_id = $1', [endpoint.id])).toBe(BEFORE + AFTER);
    const seen = new Set(
      receiver.requests.map((request) => (JSON.parse(request.body) as { data: { n: number } }).data.n),
    );
    expect(seen.size).toBe(BEFORE + AFTER);
    expect(exits, exitedOutput()).toEqual([]);
    expect(workers.every(isRunning)).toBe(true);
    // Each worker met the outage, and backed off instead of hammering the database: the claim waits
    // 100 ms doubling to 5 s, and so does the flush of buffered results. An outage of ~4 s is 6 or 7
    // tries of each, not one per delivery that finished meanwhile.
    for (const worker of workers) {
      expect(worker.logged('claim failed; retrying')).toBeGreaterThan(0);
      expect(worker.logged('claim failed; retrying')).toBeLessThanOrEqual(10);
      expect(worker.logged('flush failed; will retry')).toBeLessThanOrEqual(10);
      expect(worker.logged('database reachable again; claiming')).toBeGreaterThan(0);
    }

    // And they still stop cleanly.
    for (const worker of workers) worker.child.kill('SIGTERM');
    for (const worker of workers) expect(await worker.exited).toEqual({ code: 0, signal: null });
  }, 90_000);
});
