// A first attempt leased by a fan-out gets its delivery row once, with its outcome (migration
// 20261206090000_first_attempts_written_once): the fan-out writes no row for it, the flush inserts it
// succeeded (or failed, with its attempt row), and nothing updates it. Before, the fan-out inserted it
// 'delivering' and the flush updated it: 150 B of WAL per event (bench/README.md). Observed here by
// counting, with triggers of the test's own, every write of a delivery row while a real worker drains.
// And a batch row written before that migration, whose first attempts do have rows, still gives them
// back when its lease runs out.
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { publicDeliveryId } from '../../lib/database/ids';
import { fanOutOnce } from '../../worker/fan-out';
import { statements } from '../../worker/statements';
import { attemptsOf, deliveriesOf, sendEvent } from '../support/deliveries';
import { createTestDatabase, type TestDatabase } from '../support/database';
import { countRows, createApp, createEndpoint, createEventType } from '../support/fixtures';
import { answer, startReceiver, waitUntil, type Receiver } from '../support/receiver';
import { startTestWorker, stopTestWorkers } from '../support/worker';

let db: TestDatabase;
let appId: string;
const receivers: Receiver[] = [];

beforeAll(async () => {
  db = await createTestDatabase();
  appId = await createApp(db.pool, 'Ix');
  await db.pool.query(`
    CREATE TABLE public.delivery_writes (delivery_id uuid NOT NULL, operation text NOT NULL, state text NOT NULL);
    CREATE FUNCTION public.log_delivery_write() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      INSERT INTO public.delivery_writes VALUES (NEW.id, TG_OP, NEW.state);
      RETURN NULL;
    END $$;
    CREATE TRIGGER deliveries_written AFTER INSERT OR UPDATE ON hookline.deliveries FOR EACH ROW
      EXECUTE FUNCTION public.log_delivery_write();
  `);
});
afterEach(() => stopTestWorkers());
afterAll(async () => {
  await Promise.all(receivers.splice(0).map((receiver) => receiver.close()));
});

async function writesOf(endpointId: string): Promise<{ operation: string; state: string }[]> {
  const { rows } = await db.pool.query<{ operation: string; state: string }>(
    `SELECT w.operation, w.state
       FROM public.delivery_writes AS w JOIN hookline.deliveries AS d ON d.id = w.delivery_id
      WHERE d.endpoint_id = $1`,
    [endpointId],
  );
  return rows;
}

describe('a first attempt leased by its fan-out', () => {
  it('is inserted once with its success, and never updated', async () => {
    const receiver = await startReceiver();
    receivers.push(receiver);
    await createEventType(db.pool, appId, 'ix.machine');
    const endpoint = await createEndpoint(db.pool, appId, receiver.url, { eventTypes: ['ix.machine'] });
    await startTestWorker(db.url);
    await db.pool.query(
      `SELECT hookline.send($1, 'ix.machine', jsonb_build_object('n', n)) FROM generate_series(1, 200) AS n`,
      [appId],
    );
    await waitUntil(
      async () =>
        (await countRows(db.pool, 'deliveries', `endpoint_id = $1 AND state = 'succeeded'`, [endpoint.id])) === 200,
      { timeoutMs: 20_000, what: 'every event delivered' },
    );
    const writes = await writesOf(endpoint.id);
    expect(writes).toHaveLength(200);
    expect(writes.filter((write) => write.operation !== 'INSERT' || write.state !== 'succeeded')).toEqual([]);
    // Under the id hookline.delivery_id gives the pair, whoever writes the row.
    const { rows } = await db.pool.query<{ mismatched: number }>(
      `SELECT count(*)::int AS mismatched FROM hookline.deliveries
        WHERE endpoint_id = $1 AND id <> hookline.delivery_id(message_id, endpoint_id)`,
      [endpoint.id],
    );
    expect(rows[0]!.mismatched).toBe(0);
    expect(receiver.requests).toHaveLength(200);
  });

  it('is inserted once with its failure, its attempt row keeping what the response said', async () => {
    const receiver = await startReceiver(answer(500, 'the spice must flow'));
    receivers.push(receiver);
    await createEventType(db.pool, appId, 'ix.navigator');
    const endpoint = await createEndpoint(db.pool, appId, receiver.url, { eventTypes: ['ix.navigator'] });
    await startTestWorker(db.url, { retrySchedule: [0, 3_600_000] });
    const messages = [];
    for (let n = 0; n < 3; n++) messages.push(await sendEvent(db.pool, appId, 'ix.navigator', { n }));
    const rows = await waitUntil(
      async () => {
        const found = await deliveriesOf(db.pool, 'endpoint_id = $1', [endpoint.id]);
        return found.length === 3 ? found : null;
      },
      { timeoutMs: 20_000, what: 'the three first attempts recorded' },
    );
    for (const row of rows) {
      expect(row).toMatchObject({ state: 'pending', attempt_count: 1, last_status_code: 500, lease_owner: null });
      const [attempt] = await attemptsOf(db.pool, row.id);
      // Read from the flush's arrays at the result's own position (record-results.sql, `recorded`).
      expect(attempt).toMatchObject({
        attempt_number: 1,
        status_code: 500,
        error_class: 'http_5xx',
        error_message: 'HTTP 500',
        response_body: 'the spice must flow',
      });
      expect(attempt!.request_headers['webhook-id']).toBe(row.message_id);
    }
    expect(await writesOf(endpoint.id)).toEqual([
      { operation: 'INSERT', state: 'pending' },
      { operation: 'INSERT', state: 'pending' },
      { operation: 'INSERT', state: 'pending' },
    ]);
  });
});

describe('a fan-out batch written before migration 20261206090000', () => {
  it('gives back, when its lease runs out, the first attempts that were written leased', async () => {
    await createEventType(db.pool, appId, 'ix.legacy');
    const endpoint = await createEndpoint(db.pool, appId, 'http://127.0.0.1:9/legacy', { eventTypes: ['ix.legacy'] });
    await sendEvent(db.pool, appId, 'ix.legacy');
    const [taken] = (
      await fanOutOnce(db.pool, { workerId: 'legacy-worker', messages: 10, room: 10, leaseSeconds: 60 })
    ).filter((row) => row.id !== null);
    expect(taken).toBeDefined();
    // As the fan-out wrote it before: the row, 'delivering', leased to the batch's worker, out of the
    // claim index; and a batch row that names no endpoints.
    await db.pool.query(`UPDATE hookline.fanout_batches SET endpoint_ids = '{}'`);
    await db.pool.query(
      `INSERT INTO hookline.deliveries (id, app_id, message_id, endpoint_id, event_type, state, lease_owner,
                                        lease_expires_at)
       VALUES ($1, $2, $3, $4, 'ix.legacy', 'delivering', 'legacy-worker', now() + interval '1 minute')`,
      [taken!.id, appId, taken!.message_id, endpoint.id],
    );
    await db.pool.query(`UPDATE hookline.fanout_batches SET lease_expires_at = now() - interval '1 second'`);
    const { rows } = await statements.releaseExpiredBatchLeases.run(db.pool, {});
    expect(rows[0]).toEqual({ batches: 1, deliveries: 1 });
    expect(await deliveriesOf(db.pool, 'endpoint_id = $1', [endpoint.id])).toMatchObject([
      { id: publicDeliveryId(taken!.id), state: 'pending', attempt_count: 0, lease_owner: null },
    ]);
    expect(await countRows(db.pool, 'fanout_batches')).toBe(0);
  });
});
