// A database path that goes silent: a NAT or load-balancer timeout, a failover, a VM migration drop
// the connections' state without closing them. Seen before: a worker draining 20,000 events stalled
// for good after 2,011 deliveries while new connections would have worked, and needed more than 30 s
// to stop on SIGTERM. Here a real worker process reaches PostgreSQL through a proxy the test controls;
// the producers and the test's own checks go direct.
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { getPrisma } from '../../lib/database/db';
import { createTestDatabase, type TestDatabase } from '../support/database';
import { countRows, createApp, createEndpoint, createEventType } from '../support/fixtures';
import { startReceiver, waitUntil, type Receiver } from '../support/receiver';
import { startTcpProxy, type TcpProxy } from '../support/tcp-proxy';
import { killAll, spawnWorker, type WorkerProcess } from '../support/worker-process';

let db: TestDatabase;
let appId: string;
const spawned: WorkerProcess[] = [];
const receivers: Receiver[] = [];
const proxies: TcpProxy[] = [];

beforeAll(async () => {
  db = await createTestDatabase();
  appId = await createApp(db.pool, 'Kaitain');
  await createEventType(db.pool, appId, 'palace.guarded');
});

afterEach(async () => {
  await killAll(spawned.splice(0));
  await Promise.all(receivers.splice(0).map((receiver) => receiver.close()));
  await Promise.all(proxies.splice(0).map((proxy) => proxy.close()));
});

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function proxyToDatabase(): Promise<TcpProxy> {
  const proxy = await startTcpProxy(Number(new URL(db.url).port));
  proxies.push(proxy);
  return proxy;
}

describe('a database path that goes silent', () => {
  it('the worker drops the silent connections, resumes within 10 s of the path coming back, loses nothing', async () => {
    const receiver = await startReceiver((_request, response) => {
      setTimeout(() => response.writeHead(200).end('ok'), 2);
    });
    receivers.push(receiver);
    const endpoint = await createEndpoint(db.pool, appId, `${receiver.url}/palace`, { eventTypes: ['palace.guarded'] });
    const proxy = await proxyToDatabase();
    const worker = spawnWorker(proxy.url(db.url), { HOOKLINE_LEASE_SECONDS: '3' });
    spawned.push(worker);
    const send = (from: number, count: number) =>
      db.pool.query(
        `SELECT hookline.send($1, 'palace.guarded', jsonb_build_object('n', n)) FROM generate_series($2::int, $3::int) AS n`,
        [appId, from, from + count - 1],
      );
    const succeeded = () => countRows(db.pool, 'deliveries', `endpoint_id = $1 AND state = 'succeeded'`, [endpoint.id]);

    await send(1, 2000);
    await waitUntil(async () => (await succeeded()) >= 300, { timeoutMs: 20_000, what: 'deliveries before the cut' });

    proxy.goSilent();
    // First attempts included: they have no row until their outcome is written, only their fan-out
    // batch's lease (migration 20261206090000_first_attempts_written_once).
    const leasedAtCut = await countRows(db.pool, 'unfinished_deliveries', `endpoint_id = $1 AND state = 'delivering'`, [
      endpoint.id,
    ]);
    // Producers do not go through the proxy: events keep arriving while the worker cannot see them.
    await send(2001, 1000);
    await sleep(8000);
    const duringCut = await succeeded();
    await sleep(1000);
    // Nothing recorded while the path is silent (the worker's flushes cannot get through)...
    expect(await succeeded()).toBe(duringCut);
    // A claim on a silent connection fails at its query timeout (5 s); the loop may first wait that long
    // on another statement (its polling mark, a lease renewal) on the same silent path.
    await waitUntil(async () => (worker.logged('claim failed; retrying') > 0 ? true : null), {
      timeoutMs: 15_000,
      what: 'a claim to fail on the silent connection',
    });

    const acceptedBefore = proxy.accepted();
    proxy.reconnect();
    const reconnectedAt = Date.now();
    // ...and delivery resumes within 10 s of new connections being possible.
    await waitUntil(async () => (await succeeded()) > duringCut, {
      timeoutMs: 10_000,
      intervalMs: 100,
      what: 'a delivery recorded after the path came back',
    });
    const resumedAfterMs = Date.now() - reconnectedAt;
    expect(resumedAfterMs).toBeLessThan(10_000);
    expect(proxy.accepted()).toBeGreaterThan(acceptedBefore);

    await waitUntil(async () => (await succeeded()) === 3000, { timeoutMs: 30_000, what: 'every event delivered' });
    // Each event reached the receiver; one it saw twice was in flight (or its result unrecorded)
    // when the path went silent, and its lease ran out before the worker could record it.
    const seen = new Map<string, number>();
    for (const request of receiver.requests) {
      const id = request.headers['webhook-id'] as string;
      seen.set(id, (seen.get(id) ?? 0) + 1);
    }
    expect(seen.size).toBe(3000);
    const duplicates = [...seen.values()].filter((count) => count > 1).length;
    expect(duplicates).toBeLessThanOrEqual(leasedAtCut);

    // And it still stops promptly: its silent connections are dropped, not waited for.
    const signalledAt = Date.now();
    worker.child.kill('SIGTERM');
    expect(await worker.exited).toEqual({ code: 0, signal: null });
    expect(Date.now() - signalledAt).toBeLessThan(15_000);
  }, 120_000);

  it("the web process's pool gives up on a silent connection and reconnects when the path is back", async () => {
    const proxy = await proxyToDatabase();
    const prisma = getPrisma(proxy.url(db.url));
    expect(await prisma.app.count({ where: { id: appId } })).toBe(1);

    proxy.goSilent();
    const started = Date.now();
    await expect(prisma.app.count({ where: { id: appId } })).rejects.toThrow();
    // The query timeout (lib/database/pg.ts), not forever.
    expect(Date.now() - started).toBeLessThan(20_000);

    proxy.reconnect();
    const back = Date.now();
    await waitUntil(
      async () => {
        try {
          return (await prisma.app.count({ where: { id: appId } })) === 1;
        } catch {
          return false;
        }
      },
      { timeoutMs: 20_000, what: 'a query through a new connection' },
    );
    expect(Date.now() - back).toBeLessThan(10_000);
    await prisma.$disconnect();
  }, 60_000);
});
