// prom-client's default Node process metrics on a real worker's /metrics, beside Hookline's own
// series (whose names and values test/worker/metrics.test.ts checks), and one registry per worker.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort } from '../../lib/database/embedded-postgres';
import { WorkerMetrics } from '../../worker/metrics';
import { createTestDatabase, type TestDatabase } from '../support/database';
import { createApp, createEndpoint, createEventType } from '../support/fixtures';
import { startReceiver, waitUntil, type Receiver } from '../support/receiver';
import { killAll, scrapeMetrics, spawnWorker, type WorkerProcess } from '../support/worker-process';

let db: TestDatabase;
const workers: WorkerProcess[] = [];
let receiver: Receiver;

beforeAll(async () => {
  db = await createTestDatabase();
  receiver = await startReceiver();
});

afterAll(async () => {
  await killAll(workers);
  await receiver.close();
});

describe('GET /metrics: Node process metrics', () => {
  it('serves event-loop lag, GC, heap, RSS and open file descriptors beside the hookline_ series', async () => {
    const appId = await createApp(db.pool, 'Ix');
    await createEventType(db.pool, appId, 'navigator.folded');
    await createEndpoint(db.pool, appId, receiver.url);
    const port = await freePort();
    const worker = spawnWorker(db.url, { HOOKLINE_METRICS_PORT: String(port) });
    workers.push(worker);
    await db.pool.query(`SELECT hookline.send($1, 'navigator.folded', '{}') FROM generate_series(1, 3)`, [appId]);
    const { text, samples } = await waitUntil(
      async () => {
        const scraped = await scrapeMetrics(port).catch(() => null);
        return scraped?.samples.get('hookline_deliveries_finished_total{state="succeeded"}') === 3 ? scraped : null;
      },
      { what: 'three deliveries counted on /metrics' },
    );

    expect(samples.get('process_resident_memory_bytes')).toBeGreaterThan(10_000_000);
    expect(samples.get('process_open_fds')).toBeGreaterThan(3); // stdio, the metrics socket, Postgres
    expect(samples.get('nodejs_heap_size_used_bytes')).toBeGreaterThan(0);
    expect(samples.get('nodejs_heap_space_size_used_bytes{space="old"}')).toBeGreaterThan(0);
    expect(samples.has('nodejs_eventloop_lag_p99_seconds')).toBe(true);
    expect(text).toMatch(/^# TYPE nodejs_eventloop_lag_seconds gauge$/m);
    expect(text).toMatch(/^# TYPE nodejs_gc_duration_seconds histogram$/m);
    // Hookline's own series are still there, with their labels in the documented order.
    expect(samples.get('hookline_attempts_total{outcome="succeeded",error_class=""}')).toBe(3);
    expect(samples.get('hookline_in_flight')).toBe(0);
  }, 60_000);

  it('keeps each worker in its own registry, so several workers run in one process', async () => {
    const first = new WorkerMetrics();
    const second = new WorkerMetrics();
    first.attempts.inc({ error_class: 'timeout', outcome: 'failed' }, 2);
    second.attempts.inc({ outcome: 'succeeded', error_class: '' });
    first.inFlight.set({}, 7);
    let collected = 0;
    second.collect = () => void collected++;
    const [firstText, secondText] = await Promise.all([first.render(), second.render()]);
    expect(firstText).toContain('hookline_attempts_total{outcome="failed",error_class="timeout"} 2');
    expect(firstText).not.toContain('error_class=""');
    expect(firstText).toContain('hookline_in_flight 7');
    expect(secondText).toContain('hookline_attempts_total{outcome="succeeded",error_class=""} 1');
    expect(secondText).toContain('hookline_in_flight 0');
    expect(collected).toBe(1);
  });
});
