// The whole path, as a user meets it: an ordinary table whose trigger calls hookline.send, a real
// worker, a real receiver on loopback that verifies the signature with the `standardwebhooks` package.
import { Webhook } from 'standardwebhooks';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { fanOutQueued } from '../support/deliveries';
import { createTestDatabase, type TestDatabase } from '../support/database';
import { countRows, createApp, createEndpoint, createEventType, type EndpointFixture } from '../support/fixtures';
import { answer, startReceiver, waitUntil, type Receiver, type ReceiverHandler } from '../support/receiver';
import { startTestWorker, stopTestWorkers } from '../support/worker';

let db: TestDatabase;
let appId: string;
let receiver: Receiver;
let endpoint: EndpointFixture;

interface DeliveryRow {
  id: string;
  state: string;
  attempt_count: number;
  lease_owner: string | null;
  last_status_code: number | null;
  last_error_class: string | null;
  last_duration_ms: number | null;
  next_attempt_at: Date;
}

interface AttemptRow {
  attempt_number: number;
  worker_id: string;
  status_code: number | null;
  error_class: string | null;
  started_at: Date;
  request_headers: Record<string, string>;
  response_body: string | null;
  duration_ms: number;
}

beforeAll(async () => {
  db = await createTestDatabase();
  appId = await createApp(db.pool, 'Arrakis');
  await createEventType(db.pool, appId, 'spice.harvested');
  receiver = await startReceiver();
  endpoint = await createEndpoint(db.pool, appId, `${receiver.url}/hooks/spice`);
  // An application table of the kind Hookline is meant to sit next to.
  await db.pool.query(`
    CREATE TABLE public.spice_harvests (
      id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
      harvester text NOT NULL,
      tonnes numeric NOT NULL,
      harvested_at timestamptz NOT NULL DEFAULT now()
    );
    CREATE FUNCTION public.spice_harvested() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      PERFORM hookline.send('${appId}', 'spice.harvested', to_jsonb(NEW));
      RETURN NEW;
    END $$;
    CREATE TRIGGER spice_harvests_send AFTER INSERT ON public.spice_harvests
      FOR EACH ROW EXECUTE FUNCTION public.spice_harvested();
  `);
});

afterEach(async () => {
  await stopTestWorkers();
  receiver.respond(answer(200, 'ok'));
});

afterAll(async () => {
  await receiver.close();
});

async function deliveryOf(messageId: string): Promise<DeliveryRow> {
  const { rows } = await db.pool.query<DeliveryRow>(
    'SELECT * FROM hookline.deliveries WHERE message_id = hookline.uuid_of($1)',
    [messageId],
  );
  return rows[0]!;
}

async function attemptsOf(deliveryId: string): Promise<AttemptRow[]> {
  const { rows } = await db.pool.query<AttemptRow>(
    'SELECT * FROM hookline.attempts WHERE delivery_id = $1 ORDER BY attempt_number',
    [deliveryId],
  );
  return rows;
}

/** The public id of the message a row made, as its webhook-id header shows it. */
async function messageIdOf(harvester: string): Promise<string> {
  const { rows } = await db.pool.query<{ id: string }>(
    `SELECT hookline.public_id('msg', id) AS id FROM hookline.messages WHERE payload ->> 'harvester' = $1`,
    [harvester],
  );
  if (!rows[0]) throw new Error(`no message for ${harvester}`);
  return rows[0].id;
}

const requestsFor = (harvester: string) =>
  receiver.requests.filter((request) => request.body.includes(`"${harvester}"`));

describe('a row inserted by the application arrives at the receiver', () => {
  it('delivers the row, signed, and records one successful attempt', async () => {
    await startTestWorker(db.url);
    await db.pool.query(`INSERT INTO public.spice_harvests (harvester, tonnes) VALUES ('Harkonnen-7', 12.5)`);
    const messageId = await messageIdOf('Harkonnen-7');

    await waitUntil(() => requestsFor('Harkonnen-7').length > 0, { what: 'the delivery' });
    const [request] = requestsFor('Harkonnen-7');
    expect(request!.method).toBe('POST');
    expect(request!.path).toBe('/hooks/spice');
    expect(request!.headers['content-type']).toBe('application/json');
    expect(request!.headers['webhook-id']).toBe(messageId);
    // Throws unless the signature matches the secret, the id, the timestamp and the exact body bytes.
    const verified = new Webhook(endpoint.secret).verify(request!.body, request!.headers) as {
      type: string;
      data: { harvester: string; tonnes: number; id: number };
    };
    expect(verified.type).toBe('spice.harvested');
    expect(verified.data).toMatchObject({ harvester: 'Harkonnen-7', tonnes: 12.5 });
    expect(() =>
      new Webhook(`whsec_${Buffer.from('not the secret').toString('base64')}`).verify(request!.body, request!.headers),
    ).toThrow();

    const delivery = await waitUntil(async () => {
      const row = await deliveryOf(messageId);
      return row.state === 'succeeded' ? row : null;
    });
    expect(delivery).toMatchObject({
      attempt_count: 1,
      lease_owner: null,
      last_status_code: 200,
      last_error_class: null,
    });
    // A success is kept on its delivery row alone by default: no attempt row (a third of the WAL).
    expect(delivery.last_duration_ms).toBeGreaterThan(0);
    expect(await attemptsOf(delivery.id)).toEqual([]);
  });

  it('keeps a full attempt row for a success with keepSuccessfulAttempts (HOOKLINE_KEEP_SUCCESSFUL_ATTEMPTS)', async () => {
    await stopTestWorkers();
    await startTestWorker(db.url, { keepSuccessfulAttempts: true });
    await db.pool.query(`INSERT INTO public.spice_harvests (harvester, tonnes) VALUES ('Kept-7', 1)`);
    const messageId = await messageIdOf('Kept-7');
    const delivery = await waitUntil(async () => {
      const row = await deliveryOf(messageId);
      return row.state === 'succeeded' ? row : null;
    });
    const attempts = await attemptsOf(delivery.id);
    expect(attempts).toHaveLength(1);
    expect(attempts[0]).toMatchObject({ attempt_number: 1, status_code: 200, error_class: null, response_body: 'ok' });
    expect(attempts[0]!.request_headers['webhook-id']).toBe(messageId);
    expect(attempts[0]!.duration_ms).toBe(delivery.last_duration_ms);
  });

  it('delivers nothing for an insert that is rolled back', async () => {
    await startTestWorker(db.url);
    const messagesBefore = await countRows(db.pool, 'messages');
    const client = await db.pool.connect();
    try {
      await client.query('BEGIN');
      await client.query(`INSERT INTO public.spice_harvests (harvester, tonnes) VALUES ('Ghost', 1)`);
      await client.query('ROLLBACK');
    } finally {
      client.release();
    }
    // A committed insert after it: once that one has arrived, the worker has looked at the queue.
    await db.pool.query(`INSERT INTO public.spice_harvests (harvester, tonnes) VALUES ('After-ghost', 1)`);
    await waitUntil(() => requestsFor('After-ghost').length > 0, { what: 'the committed insert' });
    expect(requestsFor('Ghost')).toHaveLength(0);
    expect(await countRows(db.pool, 'messages')).toBe(messagesBefore + 1);
  });
});

describe('retries', () => {
  it('retries a failed attempt on the schedule with the same webhook-id and body', async () => {
    let calls = 0;
    const failOnce: ReceiverHandler = (request, response) => {
      if (!request.body.includes('"Retry-me"')) return answer(200)(request, response, undefined as never);
      calls++;
      response.writeHead(calls === 1 ? 500 : 200).end(calls === 1 ? 'try later' : 'ok');
    };
    receiver.respond(failOnce);
    // Second attempt 1 s after the first (±20% jitter).
    await startTestWorker(db.url, { retrySchedule: [0, 1000, 1000] });
    await db.pool.query(`INSERT INTO public.spice_harvests (harvester, tonnes) VALUES ('Retry-me', 3)`);
    const messageId = await messageIdOf('Retry-me');

    const firstFailed = await waitUntil(async () => {
      const row = await deliveryOf(messageId);
      return row.attempt_count === 1 ? row : null;
    });
    expect(firstFailed).toMatchObject({ state: 'pending', last_status_code: 500, last_error_class: 'http_5xx' });
    const delivered = await waitUntil(async () => {
      const row = await deliveryOf(messageId);
      return row.state === 'succeeded' ? row : null;
    });
    expect(delivered.attempt_count).toBe(2);

    // The failure has its attempt row; the success is on the delivery row.
    const attempts = await attemptsOf(delivered.id);
    expect(attempts.map((attempt) => [attempt.attempt_number, attempt.status_code, attempt.error_class])).toEqual([
      [1, 500, 'http_5xx'],
    ]);
    expect(delivered).toMatchObject({ last_status_code: 200, last_error_class: null });
    const [first, second] = requestsFor('Retry-me');
    const gapMs = second!.receivedAt - first!.receivedAt;
    expect(gapMs).toBeGreaterThanOrEqual(800);
    expect(gapMs).toBeLessThan(2500);
    expect(second!.headers['webhook-id']).toBe(first!.headers['webhook-id']);
    expect(second!.body).toBe(first!.body);
  });

  it('marks the delivery dead when the schedule is used up', async () => {
    receiver.respond((request, response) => {
      response.writeHead(request.body.includes('"Doomed"') ? 503 : 200).end();
    });
    await startTestWorker(db.url, { retrySchedule: [0, 100, 100] });
    await db.pool.query(`INSERT INTO public.spice_harvests (harvester, tonnes) VALUES ('Doomed', 3)`);
    const messageId = await messageIdOf('Doomed');
    const dead = await waitUntil(async () => {
      const row = await deliveryOf(messageId);
      return row.state === 'dead' ? row : null;
    });
    expect(dead).toMatchObject({ attempt_count: 3, last_status_code: 503, last_error_class: 'http_5xx' });
    expect(await attemptsOf(dead.id)).toHaveLength(3);
    expect(requestsFor('Doomed')).toHaveLength(3);
  });
});

describe('leases', () => {
  it('reclaims a delivery whose worker died holding its lease', async () => {
    await db.pool.query(`INSERT INTO public.spice_harvests (harvester, tonnes) VALUES ('Orphan', 2)`);
    const messageId = await messageIdOf('Orphan');
    // As a worker that claimed it and then died leaves it: leased to that worker, lease already over.
    await db.pool.query(
      `UPDATE hookline.deliveries
          SET state = 'delivering', lease_owner = 'worker-that-died',
              lease_expires_at = now() - interval '1 second', next_attempt_at = now() - interval '1 second',
              claimable_at = now() - interval '1 second'
        WHERE message_id = hookline.uuid_of($1)`,
      [messageId],
    );
    const worker = await startTestWorker(db.url, { keepSuccessfulAttempts: true });
    const delivered = await waitUntil(async () => {
      const row = await deliveryOf(messageId);
      return row.state === 'succeeded' ? row : null;
    });
    expect(delivered.attempt_count).toBe(1);
    const attempts = await attemptsOf(delivered.id);
    expect(attempts.map((attempt) => attempt.worker_id)).toEqual([worker.workerId]);
  });

  it('leaves a delivery alone while another worker holds an unexpired lease', async () => {
    await db.pool.query(`INSERT INTO public.spice_harvests (harvester, tonnes) VALUES ('Held', 2)`);
    const messageId = await messageIdOf('Held');
    await fanOutQueued(db.pool);
    await db.pool.query(
      `UPDATE hookline.deliveries
          SET state = 'delivering', lease_owner = 'worker-alive',
              lease_expires_at = now() + interval '1 hour', next_attempt_at = now() + interval '1 hour',
              claimable_at = now() + interval '1 hour'
        WHERE message_id = hookline.uuid_of($1)`,
      [messageId],
    );
    await startTestWorker(db.url);
    await db.pool.query(`INSERT INTO public.spice_harvests (harvester, tonnes) VALUES ('After-held', 1)`);
    await waitUntil(() => requestsFor('After-held').length > 0, { what: 'the next delivery' });
    expect(requestsFor('Held')).toHaveLength(0);
    expect(await deliveryOf(messageId)).toMatchObject({ state: 'delivering', lease_owner: 'worker-alive' });
  });
});

describe('stopping', () => {
  it('releases in-flight and waiting deliveries without spending an attempt', async () => {
    const slow = await startReceiver(() => {
      // Never answers: the deliveries are in flight when the worker is told to stop.
    });
    const slowEndpoint = await createEndpoint(db.pool, appId, slow.url, {
      eventTypes: ['spice.slow'],
      maxConcurrency: 2,
    });
    await createEventType(db.pool, appId, 'spice.slow');
    await db.pool.query(
      `SELECT hookline.send($1, 'spice.slow', jsonb_build_object('n', n)) FROM generate_series(1, 5) AS n`,
      [appId],
    );
    const worker = await startTestWorker(db.url, { http: { timeoutMs: 10_000, keepBytes: 4096, drainBytes: 0 } });
    await slow.waitForRequests(2);
    // First attempts: no rows until their outcome is written; their fan-out batch's row holds their lease.
    expect(await countRows(db.pool, 'deliveries', 'endpoint_id = $1', [slowEndpoint.id])).toBe(0);
    expect(
      await countRows(db.pool, 'unfinished_deliveries', `endpoint_id = $1 AND state = 'delivering'`, [slowEndpoint.id]),
    ).toBe(5);

    // As on SIGTERM with a short drain deadline: the receiver never answers, so nothing finishes.
    await worker.stop({ deadlineMs: 300 });
    expect(worker.currentState).toBe('stopped');
    const { rows } = await db.pool.query<DeliveryRow>('SELECT * FROM hookline.deliveries WHERE endpoint_id = $1', [
      slowEndpoint.id,
    ]);
    expect(rows).toHaveLength(5);
    for (const row of rows) {
      expect(row).toMatchObject({ state: 'pending', attempt_count: 0, lease_owner: null });
      expect(row.next_attempt_at.getTime()).toBeLessThanOrEqual(Date.now() + 1000);
    }
    expect(await countRows(db.pool, 'attempts', 'endpoint_id = $1', [slowEndpoint.id])).toBe(0);
    await db.pool.query(
      `UPDATE hookline.deliveries SET state = 'cancelled', claimable_at = NULL WHERE endpoint_id = $1`,
      [slowEndpoint.id],
    );
    await slow.close();
  });

  it('drains: lets in-flight deliveries finish and records them before stopping', async () => {
    receiver.respond((request, response) => {
      setTimeout(() => response.writeHead(200).end('late but fine'), request.body.includes('"Drained"') ? 300 : 0);
    });
    const worker = await startTestWorker(db.url);
    await db.pool.query(`INSERT INTO public.spice_harvests (harvester, tonnes) VALUES ('Drained', 2)`);
    const messageId = await messageIdOf('Drained');
    await waitUntil(() => requestsFor('Drained').length > 0, { what: 'the request' });
    await worker.stop({ deadlineMs: 5000 });
    const row = await deliveryOf(messageId);
    expect(row).toMatchObject({ state: 'succeeded', attempt_count: 1 });
  });
});
