// Migrations 20261124160000_retry_policy and 20261124161000_reserved_headers carry a running
// installation forward: a database migrated to the step before them, with an app, an endpoint that
// has a timeout, and an implicit endpoint that the old hookline.http_post stored with a reserved header,
// is migrated in place. Every endpoint inherits (the deployment's schedule, its own timeout), the same
// hookline.http_post call finds the same implicit endpoint, and a worker delivers it without the
// reserved header.
import { afterAll, describe, expect, it } from 'vitest';
import { migrate } from '../../lib/database/migrate';
import { createPool, type Pool } from '../../lib/database/pg';
import { startReceiver, waitUntil, type Receiver } from '../support/receiver';
import { databaseBefore } from '../support/database-before';
import { startTestWorker, stopTestWorkers } from '../support/worker';

const FIRST = '20261124160000_retry_policy';
let dropDatabase: (() => Promise<void>) | undefined;
let pool: Pool | undefined;
let receiver: Receiver | undefined;

afterAll(async () => {
  await stopTestWorkers();
  await receiver?.close();
  await pool?.end();
  await dropDatabase?.();
});

describe(`migrations ${FIRST} and 20261124161000_reserved_headers`, () => {
  it('keep every app and endpoint as they were, and find and deliver old implicit endpoints', async () => {
    const migrated = await databaseBefore(FIRST);
    dropDatabase = migrated.drop;
    const url = migrated.url;
    pool = createPool(url, { max: 4 });
    receiver = await startReceiver();

    const { rows: apps } = await pool.query<{ id: string }>(
      "INSERT INTO hookline.apps (name) VALUES ('old') RETURNING id",
    );
    const appId = apps[0]!.id;
    await pool.query(
      `INSERT INTO hookline.endpoints (app_id, url, timeout_ms, headers) VALUES ($1, 'https://example.com/old', 2500, '{"x-a": "1"}')`,
      [appId],
    );
    // The old function stores a reserved header as given (undici then refuses Keep-Alive on every attempt).
    const postUrl = `${receiver.url}/old-implicit`;
    const call = `SELECT hookline.http_post(url := $1, body := '{"n": 1}'::jsonb,
                    headers := '{"Content-Type": "application/json", "Keep-Alive": "timeout=5", "X-Tenant": "acme"}'::jsonb)`;
    await pool.query(call, [postUrl]);
    const before = await pool.query<{ id: string; headers: Record<string, string>; implicit_key: string }>(
      'SELECT id, headers, implicit_key FROM hookline.endpoints WHERE implicit ORDER BY id',
    );
    expect(before.rows).toHaveLength(1);
    expect(before.rows[0]!.headers).toEqual({ 'keep-alive': 'timeout=5', 'x-tenant': 'acme' });
    // Not sent yet: the worker runs after the migration. Drop the queued message, keep the endpoint.
    await pool.query('DELETE FROM hookline.fanout_queue');

    const applied = await migrate(url);
    // These two first; later migrations follow them.
    expect(applied.applied.slice(0, 2)).toEqual([FIRST, '20261124161000_reserved_headers']);

    const { rows: after } = await pool.query(
      `SELECT a.name, a.retry_schedule_ms AS app_schedule, a.timeout_ms AS app_timeout,
              e.url, e.timeout_ms, e.retry_schedule_ms, e.headers
         FROM hookline.endpoints e JOIN hookline.apps a ON a.id = e.app_id WHERE a.id = $1`,
      [appId],
    );
    expect(after).toEqual([
      {
        name: 'old',
        app_schedule: [],
        app_timeout: null,
        url: 'https://example.com/old',
        timeout_ms: 2500,
        retry_schedule_ms: [],
        headers: { 'x-a': '1' },
      },
    ]);

    // The same call after the migration: the same endpoint (same key, same secret), headers untouched.
    const { rows: requestIds } = await pool.query<{ http_post: string }>(call, [postUrl]);
    expect(requestIds).toHaveLength(1);
    const afterImplicit = await pool.query(
      'SELECT id, headers, implicit_key FROM hookline.endpoints WHERE implicit ORDER BY id',
    );
    expect(afterImplicit.rows).toEqual(before.rows);

    // A worker sends it, leaving the stored reserved header out (undici would refuse it).
    await startTestWorker(url);
    await waitUntil(() => receiver!.requests.some((request) => request.path === '/old-implicit'), {
      timeoutMs: 15_000,
      what: 'the old implicit endpoint to be delivered',
    });
    const received = receiver.requests.find((request) => request.path === '/old-implicit')!;
    expect(received.headers['x-tenant']).toBe('acme');
    expect(received.headers['keep-alive']).toBeUndefined();
    await waitUntil(
      async () =>
        (
          await pool!.query("SELECT 1 FROM hookline.deliveries WHERE state = 'succeeded' AND endpoint_id = $1", [
            before.rows[0]!.id,
          ])
        ).rowCount === 1,
      { what: 'the delivery recorded as succeeded' },
    );
  });
});
