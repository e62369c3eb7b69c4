// An endpoint header the HTTP client cannot send, stored before the ways in refused it (or written by
// hand): its attempts fail as invalid_header without a request, and the endpoint keeps working once the
// header is fixed. Before, undici refused the header while building the request and left the endpoint's
// connection marked busy: with max_concurrency 1 every later delivery waited in its queue for good,
// 'delivering' under a renewed lease, until the worker restarted, fixed header or not.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { attemptsOf, sendEvent, waitForDelivery } from '../support/deliveries';
import { createTestDatabase, type TestDatabase } from '../support/database';
import { createApp, createEndpoint, createEventType } from '../support/fixtures';
import { startReceiver, type Receiver } from '../support/receiver';
import { startTestWorker, stopTestWorkers } from '../support/worker';

let db: TestDatabase;
let target: Receiver;

beforeAll(async () => {
  db = await createTestDatabase();
  target = await startReceiver();
  await startTestWorker(db.url, {
    // Retries 800 ms apart: the worker sees the fixed header within its endpoint cache's 2 s, after
    // fewer failures than open the circuit (10).
    retrySchedule: [0, 800, 800, 800, 800, 800],
    http: { timeoutMs: 1000, keepBytes: 1024, drainBytes: 64 * 1024 },
  });
});

afterAll(async () => {
  await stopTestWorkers();
  await target.close();
});

describe('a stored header value above U+00FF', () => {
  it('fails its attempt as invalid_header without a request, and the next event goes out once it is fixed', async () => {
    const appId = await createApp(db.pool);
    await createEventType(db.pool, appId, 'city.renamed');
    const endpoint = await createEndpoint(db.pool, appId, `${target.url}/hook`, { maxConcurrency: 1 });
    // Straight into the table, past the checks of the REST API and hookline.http_post.
    await db.pool.query(`UPDATE hookline.endpoints SET headers = '{"X-City": "Łódź"}' WHERE id = $1`, [endpoint.id]);

    const first = await sendEvent(db.pool, appId, 'city.renamed', { n: 1 });
    const failed = await waitForDelivery(db.pool, first, (row) => row.attempt_count >= 1);
    const [attempt] = await attemptsOf(db.pool, failed.id);
    expect(attempt).toMatchObject({ error_class: 'invalid_header', status_code: null });
    expect(attempt!.error_message).toContain('header "x-city" must not contain characters above U+00FF');
    expect(attempt!.duration_ms).toBeLessThan(100);
    expect(target.requests).toHaveLength(0);

    await db.pool.query(`UPDATE hookline.endpoints SET headers = '{"X-City": "Lodz"}' WHERE id = $1`, [endpoint.id]);
    const second = await sendEvent(db.pool, appId, 'city.renamed', { n: 2 });
    await waitForDelivery(db.pool, second, (row) => row.state === 'succeeded');
    // The first is retried on the same endpoint, and goes out too.
    await waitForDelivery(db.pool, first, (row) => row.state === 'succeeded');
    await target.waitForRequests(2);
    expect(target.requests.map((request) => request.headers['x-city'])).toEqual(['Lodz', 'Lodz']);
  });
});
