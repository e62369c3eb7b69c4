// /api/v1/apps/{appId}/deliveries: list with filters, get with attempts, replay one, replay a selection
// (ids or filter, with a dry run), cancel, with the errors each can answer.
import { beforeAll, describe, expect, it } from 'vitest';
import { createApp, createEndpoint, createEventType } from '../support/fixtures';
import { call, setUpApiTest, type ApiTestContext } from './support/api';
import { expectError } from './support/expect-error';
import { runQueuedJobs } from './support/jobs';
import { insertDelivery, insertFailedAttempt, rowsAsText, type DeliveryFixture } from './support/world';

let ctx: ApiTestContext;

beforeAll(async () => {
  ctx = await setUpApiTest();
});

// Ids stored as uuid (migration 20261208090000_ids_as_uuid): the SQL here reads and compares the public
// ids the API shows through hookline.uuid_of and hookline.public_id. An unknown delivery is asked for
// both ways: an id no delivery has, and a string that is no delivery id at all.
const UNKNOWN_DELIVERY_IDS = [`dlv_${'0'.repeat(32)}`, 'dlv_unknown'];

interface Fixture extends DeliveryFixture {
  id: string;
  messageId: string;
}

/** The API's name for a fixture's stored state (lib/domain/deliveries/delivery-states.ts). */
const publicState = (f: DeliveryFixture) =>
  f.state === 'pending' || f.state === undefined ? ((f.attemptCount ?? 0) > 0 ? 'retrying' : 'waiting') : f.state;

/** An app with two endpoints and deliveries in every state, error class and age. */
async function createDeliveryWorld(name: string) {
  const appId = await createApp(ctx.db.pool, name);
  await createEventType(ctx.db.pool, appId, 'invoice.paid');
  await createEventType(ctx.db.pool, appId, 'user.created');
  const first = (await createEndpoint(ctx.db.pool, appId, `https://example.com/${name}/1`)).id;
  const second = (await createEndpoint(ctx.db.pool, appId, `https://example.com/${name}/2`)).id;
  const specs: DeliveryFixture[] = [
    { appId, endpointId: first, state: 'succeeded', attemptCount: 1, lastStatusCode: 200, createdSecondsAgo: 5000 },
    {
      appId,
      endpointId: first,
      state: 'dead',
      attemptCount: 8,
      lastStatusCode: 500,
      lastErrorClass: 'http_5xx',
      createdSecondsAgo: 4000,
    },
    {
      appId,
      endpointId: second,
      state: 'dead',
      attemptCount: 8,
      lastErrorClass: 'timeout',
      eventType: 'user.created',
      createdSecondsAgo: 3000,
    },
    {
      appId,
      endpointId: second,
      state: 'pending',
      attemptCount: 2,
      lastStatusCode: 503,
      lastErrorClass: 'http_5xx',
      nextAttemptInSeconds: 600,
      createdSecondsAgo: 2000,
    },
    { appId, endpointId: first, state: 'pending', createdSecondsAgo: 1000 },
    {
      appId,
      endpointId: second,
      state: 'delivering',
      attemptCount: 1,
      createdSecondsAgo: 500,
      eventType: 'user.created',
    },
    { appId, endpointId: first, state: 'cancelled', createdSecondsAgo: 100 },
  ];
  const fixtures: Fixture[] = [];
  for (const spec of specs) {
    const { deliveryId, messageId } = await insertDelivery(ctx.db.pool, spec);
    fixtures.push({ ...spec, id: deliveryId, messageId });
  }
  // The retrying one's message was sent with an idempotency key (kept on the message and in
  // hookline.idempotency_keys, as hookline.send writes it).
  await ctx.db.pool.query(
    `WITH m AS (UPDATE hookline.messages SET idempotency_key = 'order-42' WHERE id = hookline.uuid_of($1) RETURNING id, app_id)
     INSERT INTO hookline.idempotency_keys (app_id, idempotency_key, message_id) SELECT app_id, 'order-42', id FROM m`,
    [fixtures[3]!.messageId],
  );
  return { appId, first, second, fixtures };
}

describe('GET /apps/{appId}/deliveries', () => {
  it('filters by endpoint, event type, state, error class, status code, attempts, message, idempotency key, time and id, newest first', async () => {
    const world = await createDeliveryWorld('filters');
    const { fixtures } = world;
    const ago = (seconds: number) => new Date(Date.now() - seconds * 1000).toISOString();
    const cases: [Record<string, string>, (fixture: Fixture) => boolean][] = [
      [{}, () => true],
      [{ endpointId: world.second }, (f) => f.endpointId === world.second],
      [{ eventType: 'user.created' }, (f) => f.eventType === 'user.created'],
      [{ state: 'dead' }, (f) => f.state === 'dead'],
      // One vocabulary: waiting (never tried) and retrying (failed, pending again) split the stored
      // `pending`, which the API still accepts as the name of both; `failed` is retrying or dead.
      [{ state: 'waiting' }, (f) => publicState(f) === 'waiting'],
      [{ state: 'retrying' }, (f) => publicState(f) === 'retrying'],
      [{ state: 'failed' }, (f) => publicState(f) === 'retrying' || f.state === 'dead'],
      [{ state: 'pending' }, (f) => f.state === 'pending'],
      [{ state: 'pending', endpointId: world.first }, (f) => f.state === 'pending' && f.endpointId === world.first],
      [{ attemptCount: '8' }, (f) => f.attemptCount === 8],
      [{ minAttempts: '2' }, (f) => (f.attemptCount ?? 0) >= 2],
      [{ minAttempts: '1', state: 'failed' }, (f) => ['retrying', 'dead'].includes(publicState(f))],
      [{ messageId: fixtures[2]!.messageId }, (f) => f.id === fixtures[2]!.id],
      [{ idempotencyKey: 'order-42' }, (f) => f.id === fixtures[3]!.id],
      [{ idempotencyKey: 'order-43' }, () => false],
      [{ errorClass: 'http_5xx' }, (f) => f.lastErrorClass === 'http_5xx'],
      [{ statusCode: '500' }, (f) => f.lastStatusCode === 500],
      [{ from: ago(2500) }, (f) => f.createdSecondsAgo! <= 2500],
      [{ to: ago(2500) }, (f) => f.createdSecondsAgo! > 2500],
      [{ from: ago(4500), to: ago(1500), state: 'dead' }, (f) => f.state === 'dead' && f.createdSecondsAgo! < 4500],
      [{ id: fixtures[3]!.id }, (f) => f.id === fixtures[3]!.id],
      // Ids nothing has, as unknown ids (no delivery or message id at all; one of the other kind): none.
      ...UNKNOWN_DELIVERY_IDS.map((id): (typeof cases)[number] => [{ id }, () => false]),
      [{ id: fixtures[3]!.messageId }, () => false],
      [{ messageId: 'msg_unknown' }, () => false],
      [{ messageId: fixtures[2]!.id }, () => false],
      [{ messageId: fixtures[2]!.id, eventType: 'invoice.paid' }, () => false],
    ];
    for (const [query, matches] of cases) {
      const response = await call('GET', `/v1/apps/${world.appId}/deliveries`, { key: ctx.adminKey, query });
      expect(response.status, response.text).toBe(200);
      for (const delivery of response.body.data as { id: string; state: string }[]) {
        expect(delivery.state).toBe(publicState(fixtures.find((f) => f.id === delivery.id)!));
      }
      const expected = fixtures
        .filter(matches)
        .sort((a, b) => a.createdSecondsAgo! - b.createdSecondsAgo!)
        .map((fixture) => fixture.id);
      expect(
        response.body.data.map((delivery: { id: string }) => delivery.id),
        JSON.stringify(query),
      ).toEqual(expected);
    }
  });

  it('shows each delivery with its endpoint URL, last outcome and no next attempt once finished', async () => {
    const world = await createDeliveryWorld('view');
    const dead = world.fixtures[1]!;
    const deliveryRow = await ctx.db.pool.query<{ message_id: string }>(
      `SELECT hookline.public_id('msg', message_id) AS message_id FROM hookline.deliveries WHERE id = hookline.uuid_of($1)`,
      [dead.id],
    );
    await insertFailedAttempt(ctx.db.pool, {
      appId: world.appId,
      deliveryId: dead.id,
      messageId: deliveryRow.rows[0]!.message_id,
      endpointId: world.first,
    });
    const response = await call('GET', `/v1/apps/${world.appId}/deliveries`, {
      key: ctx.adminKey,
      query: { id: dead.id },
    });
    expect(response.body.data[0]).toMatchObject({
      id: dead.id,
      endpointId: world.first,
      endpointUrl: 'https://example.com/view/1',
      state: 'dead',
      attemptCount: 8,
      nextAttemptAt: null,
      lastStatusCode: 500,
      lastErrorClass: 'http_5xx',
      lastDurationMs: 12.5,
    });
  });

  it.each([
    [{ state: 'lost' }, 'state'],
    [{ statusCode: '99' }, 'statusCode'],
    [{ statusCode: 'abc' }, 'statusCode'],
    [{ attemptCount: '-1' }, 'attemptCount'],
    [{ minAttempts: 'many' }, 'minAttempts'],
    [{ idempotencyKey: 'has space' }, 'idempotencyKey'],
    [{ from: 'yesterday' }, 'from'],
    [{ eventType: '-bad' }, 'eventType'],
  ])('answers 400 for %o, naming the parameter', async (query, field) => {
    const appId = await createApp(ctx.db.pool, 'bad-query');
    expectError(
      await call('GET', `/v1/apps/${appId}/deliveries`, { key: ctx.adminKey, query }),
      400,
      'invalid_query',
      field,
    );
  });

  it("shows the last attempt's duration: the delivery's own, or its last attempt row's for one recorded without it", async () => {
    // Since migration 20261124100000_success_on_delivery every attempt writes its duration on the
    // delivery; a row recorded before has it only in its attempt rows, which the views read for it
    // alone (lib/domain/deliveries/delivery-view.ts, deliveryViews).
    const appId = await createApp(ctx.db.pool, 'durations');
    await createEventType(ctx.db.pool, appId, 'invoice.paid');
    const endpointId = (await createEndpoint(ctx.db.pool, appId, 'https://example.com/durations')).id;
    const spec = { appId, endpointId, state: 'dead', attemptCount: 2, lastErrorClass: 'http_5xx' } as const;
    const older = { ...(await insertDelivery(ctx.db.pool, { ...spec, createdSecondsAgo: 60 })), appId, endpointId };
    const newer = { ...(await insertDelivery(ctx.db.pool, spec)), appId, endpointId };
    for (const delivery of [older, newer]) {
      for (const [attempt, ms] of [
        [1, 40],
        [2, 75],
      ]) {
        const id = await insertFailedAttempt(ctx.db.pool, delivery, attempt);
        await ctx.db.pool.query('UPDATE hookline.attempts SET duration_ms = $2 WHERE id = $1', [id, ms]);
      }
    }
    // The newer one was recorded as every delivery is now: its own duration, which the view shows.
    await ctx.db.pool.query('UPDATE hookline.deliveries SET last_duration_ms = 12.5 WHERE id = hookline.uuid_of($1)', [
      newer.deliveryId,
    ]);
    const expected = { [older.deliveryId]: 75, [newer.deliveryId]: 12.5 };

    const list = await call('GET', `/v1/apps/${appId}/deliveries?endpointId=${endpointId}`, { key: ctx.adminKey });
    expect(
      Object.fromEntries(list.body.data.map((d: { id: string; lastDurationMs: number }) => [d.id, d.lastDurationMs])),
    ).toEqual(expected);
    const appWide = await call('GET', `/v1/apps/${appId}/deliveries?state=dead`, { key: ctx.adminKey });
    expect(
      Object.fromEntries(
        appWide.body.data.map((d: { id: string; lastDurationMs: number }) => [d.id, d.lastDurationMs]),
      ),
    ).toEqual(expected);
    for (const delivery of [older, newer]) {
      const one = await call('GET', `/v1/apps/${appId}/deliveries/${delivery.deliveryId}`, { key: ctx.adminKey });
      expect(one.body.lastDurationMs).toBe(expected[delivery.deliveryId]);
      const message = await call('GET', `/v1/apps/${appId}/messages/${delivery.messageId}`, { key: ctx.adminKey });
      expect(message.body.deliveries.map((d: { lastDurationMs: number }) => d.lastDurationMs)).toEqual([
        expected[delivery.deliveryId],
      ]);
    }
  });

  it('answers 404 for an unknown app', async () => {
    expectError(await call('GET', '/v1/apps/app_unknown/deliveries', { key: ctx.adminKey }), 404, 'not_found');
  });
});

describe('GET /apps/{appId}/deliveries/{deliveryId}', () => {
  it('returns the delivery with every attempt (request and response) in order, and its message', async () => {
    const world = await createDeliveryWorld('detail');
    const dead = world.fixtures[1]!;
    const { rows } = await ctx.db.pool.query<{ message_id: string }>(
      `SELECT hookline.public_id('msg', message_id) AS message_id FROM hookline.deliveries WHERE id = hookline.uuid_of($1)`,
      [dead.id],
    );
    const ids = { appId: world.appId, deliveryId: dead.id, messageId: rows[0]!.message_id, endpointId: world.first };
    const second = await insertFailedAttempt(ctx.db.pool, ids, 2);
    const first = await insertFailedAttempt(ctx.db.pool, ids, 1);

    const response = await call('GET', `/v1/apps/${world.appId}/deliveries/${dead.id}`, { key: ctx.adminKey });
    expect(response.status, response.text).toBe(200);
    expect(response.body.attempts.map((attempt: { id: string }) => attempt.id)).toEqual([first, second]);
    expect(response.body.attempts[0]).toEqual({
      id: first,
      deliveryId: dead.id,
      attemptNumber: 1,
      workerId: 'worker-test',
      startedAt: expect.any(String),
      durationMs: 12.5,
      statusCode: 500,
      errorClass: 'http_5xx',
      errorMessage: 'HTTP 500',
      requestHeaders: { 'webhook-id': 'x' },
      responseHeaders: { 'content-type': 'text/plain' },
      responseBody: 'boom',
      responseTruncated: false,
      keptOnDelivery: false,
    });
    expect(response.body.message).toMatchObject({ id: ids.messageId, eventType: 'invoice.paid', payload: { n: 1 } });
  });

  it('answers 404 for an unknown delivery', async () => {
    const appId = await createApp(ctx.db.pool, 'missing');
    for (const unknown of UNKNOWN_DELIVERY_IDS)
      expectError(
        await call('GET', `/v1/apps/${appId}/deliveries/${unknown}`, { key: ctx.adminKey }),
        404,
        'not_found',
      );
  });
});

describe('POST /apps/{appId}/deliveries/{deliveryId}/replay', () => {
  it('puts a finished delivery back to pending and due now, keeping its attempts and count', async () => {
    const world = await createDeliveryWorld('replay-one');
    for (const fixture of [world.fixtures[0]!, world.fixtures[1]!, world.fixtures[6]!]) {
      const response = await call('POST', `/v1/apps/${world.appId}/deliveries/${fixture.id}/replay`, {
        key: ctx.adminKey,
      });
      expect(response.status, response.text).toBe(200);
      expect(response.body).toEqual({ replayed: 1 });
      const { rows } = await ctx.db.pool.query(
        'SELECT state, attempt_count, next_attempt_at <= now() AS due, lease_owner FROM hookline.deliveries WHERE id = hookline.uuid_of($1)',
        [fixture.id],
      );
      expect(rows).toEqual([
        { state: 'pending', attempt_count: fixture.attemptCount ?? 0, due: true, lease_owner: null },
      ]);
    }
  });

  it('keeps the success it resends in the attempt log, once, whichever way it is replayed', async () => {
    const appId = await createApp(ctx.db.pool, 'replay-success');
    await createEventType(ctx.db.pool, appId, 'invoice.paid');
    const endpointId = (await createEndpoint(ctx.db.pool, appId, 'https://example.com/replay-success')).id;
    const success = () =>
      insertDelivery(ctx.db.pool, { appId, endpointId, state: 'succeeded', attemptCount: 1, lastStatusCode: 200 });
    const one = await success();
    const viaJob = await success();
    const untouched = await success();
    await ctx.db.pool.query(`UPDATE hookline.deliveries SET last_duration_ms = 12.5 WHERE app_id = $1`, [appId]);
    const logOf = async (deliveryId: string) =>
      (await call('GET', `/v1/apps/${appId}/deliveries/${deliveryId}`, { key: ctx.adminKey })).body.attempts.map(
        (a: { attemptNumber: number; statusCode: number; durationMs: number; keptOnDelivery: boolean }) => [
          a.attemptNumber,
          a.statusCode,
          a.durationMs,
          a.keptOnDelivery,
        ],
      );
    expect(await logOf(one.deliveryId)).toEqual([[1, 200, 12.5, true]]);

    // Replayed twice before the worker gets to it: one attempt row, not two.
    for (let i = 0; i < 2; i++) {
      const replay = await call('POST', `/v1/apps/${appId}/deliveries/${one.deliveryId}/replay`, { key: ctx.adminKey });
      expect(replay.status, replay.text).toBe(200);
    }
    // The worker records the replay's success on the delivery row, as it does every success.
    await ctx.db.pool.query(
      `UPDATE hookline.deliveries SET state = 'succeeded', attempt_count = 2, last_attempt_at = now(),
              last_status_code = 204, last_duration_ms = 3, claimable_at = NULL WHERE id = hookline.uuid_of($1)`,
      [one.deliveryId],
    );
    const log = await logOf(one.deliveryId);
    expect(log).toEqual([
      [1, 200, 12.5, true],
      [2, 204, 3, true],
    ]);
    // The kept success's request is rebuilt with its signature, as for a success on its row.
    const detail = await call('GET', `/v1/apps/${appId}/deliveries/${one.deliveryId}`, { key: ctx.adminKey });
    expect(detail.body.attempts[0].requestHeaders).toMatchObject({
      'webhook-id': one.messageId,
      'webhook-signature': expect.stringMatching(/^v1,/),
    });

    // A replay by filter runs as a job in the worker (worker/sql/job-replay-batch.sql): the same.
    const job = await call('POST', `/v1/apps/${appId}/deliveries/replay`, {
      key: ctx.adminKey,
      body: { filter: { id: viaJob.deliveryId, state: 'succeeded' } },
    });
    expect(job.status, job.text).toBe(200);
    await runQueuedJobs(ctx.db.url);
    expect(
      (
        await ctx.db.pool.query('SELECT state FROM hookline.deliveries WHERE id = hookline.uuid_of($1)', [
          viaJob.deliveryId,
        ])
      ).rows,
    ).toEqual([{ state: 'pending' }]);
    expect(await logOf(viaJob.deliveryId)).toEqual([[1, 200, 12.5, true]]);
    // A delivery no replay touched has no attempt row: its success stays on its row.
    const { rows } = await ctx.db.pool.query(
      'SELECT count(*)::int AS n FROM hookline.attempts WHERE delivery_id = hookline.uuid_of($1)',
      [untouched.deliveryId],
    );
    expect(rows).toEqual([{ n: 0 }]);
  });

  it('answers 409 for a delivery being sent right now, changing nothing, and 404 for an unknown one', async () => {
    const world = await createDeliveryWorld('replay-busy');
    const delivering = world.fixtures[5]!;
    const before = await rowsAsText(ctx.db.pool, 'deliveries', 'id = hookline.uuid_of($1)', [delivering.id]);
    expectError(
      await call('POST', `/v1/apps/${world.appId}/deliveries/${delivering.id}/replay`, { key: ctx.adminKey }),
      409,
      'delivery_in_flight',
    );
    expect(await rowsAsText(ctx.db.pool, 'deliveries', 'id = hookline.uuid_of($1)', [delivering.id])).toEqual(before);
    for (const unknown of UNKNOWN_DELIVERY_IDS)
      expectError(
        await call('POST', `/v1/apps/${world.appId}/deliveries/${unknown}/replay`, { key: ctx.adminKey }),
        404,
        'not_found',
      );
  });
});

describe('POST /apps/{appId}/deliveries/replay', () => {
  it('replays the listed deliveries; ids of other apps and unknown ids are ignored', async () => {
    const world = await createDeliveryWorld('selection');
    const otherWorld = await createDeliveryWorld('selection-other');
    const chosen = [world.fixtures[1]!.id, world.fixtures[2]!.id];
    const othersBefore = await rowsAsText(ctx.db.pool, 'deliveries', 'app_id = $1', [otherWorld.appId]);
    const restBefore = await rowsAsText(
      ctx.db.pool,
      'deliveries',
      `app_id = $1 AND NOT hookline.public_id('dlv', id) = ANY($2)`,
      [world.appId, chosen],
    );
    const response = await call('POST', `/v1/apps/${world.appId}/deliveries/replay`, {
      key: ctx.adminKey,
      body: { deliveryIds: [...chosen, otherWorld.fixtures[1]!.id, ...UNKNOWN_DELIVERY_IDS] },
    });
    expect(response.status, response.text).toBe(200);
    expect(response.body).toEqual({ replayed: 2 });
    const { rows } = await ctx.db.pool.query(
      `SELECT DISTINCT state FROM hookline.deliveries WHERE hookline.public_id('dlv', id) = ANY($1)`,
      [chosen],
    );
    expect(rows).toEqual([{ state: 'pending' }]);
    expect(await rowsAsText(ctx.db.pool, 'deliveries', 'app_id = $1', [otherWorld.appId])).toEqual(othersBefore);
    expect(
      await rowsAsText(ctx.db.pool, 'deliveries', `app_id = $1 AND NOT hookline.public_id('dlv', id) = ANY($2)`, [
        world.appId,
        chosen,
      ]),
    ).toEqual(restBefore);
  });

  it('counts the deliveries a filter matches in a dry run, then replays exactly those', async () => {
    const world = await createDeliveryWorld('by-filter');
    const before = await rowsAsText(ctx.db.pool, 'deliveries', 'app_id = $1', [world.appId]);
    const filter = { state: 'dead', endpointId: world.first };
    const dryRun = await call('POST', `/v1/apps/${world.appId}/deliveries/replay`, {
      key: ctx.adminKey,
      body: { filter, dryRun: true },
    });
    expect(dryRun.status, dryRun.text).toBe(200);
    expect(dryRun.body).toEqual({ matched: 1, matchedIsLowerBound: false });
    expect(await rowsAsText(ctx.db.pool, 'deliveries', 'app_id = $1', [world.appId])).toEqual(before);

    const replay = await call('POST', `/v1/apps/${world.appId}/deliveries/replay`, {
      key: ctx.adminKey,
      body: { filter },
    });
    // A filter starts a background job whose total is the dry run's count; the rows change when it runs.
    expect(replay.status, replay.text).toBe(200);
    expect(replay.body.job).toMatchObject({ kind: 'replay', state: 'queued', total: 1, processed: 0 });
    expect(await rowsAsText(ctx.db.pool, 'deliveries', 'app_id = $1', [world.appId])).toEqual(before);
    await runQueuedJobs(ctx.db.url);
    const job = await call('GET', `/v1/apps/${world.appId}/jobs/${replay.body.job.id}`, { key: ctx.adminKey });
    expect(job.body).toMatchObject({ state: 'succeeded', total: 1, processed: 1 });
    const { rows } = await ctx.db.pool.query('SELECT state FROM hookline.deliveries WHERE id = hookline.uuid_of($1)', [
      world.fixtures[1]!.id,
    ]);
    expect(rows).toEqual([{ state: 'pending' }]);
    // The other endpoint's dead delivery was outside the filter.
    expect(
      (
        await ctx.db.pool.query('SELECT state FROM hookline.deliveries WHERE id = hookline.uuid_of($1)', [
          world.fixtures[2]!.id,
        ])
      ).rows,
    ).toEqual([{ state: 'dead' }]);
  });

  it('without a state replays the failed ones (retrying or dead), the same set an endpoint recover replays', async () => {
    const world = await createDeliveryWorld('failed-set');
    const failed = world.fixtures.filter((f) => ['retrying', 'dead'].includes(publicState(f))).map((f) => f.id);
    const untouched = await rowsAsText(
      ctx.db.pool,
      'deliveries',
      `app_id = $1 AND NOT hookline.public_id('dlv', id) = ANY($2)`,
      [world.appId, failed],
    );
    const dryRun = await call('POST', `/v1/apps/${world.appId}/deliveries/replay`, {
      key: ctx.adminKey,
      body: { filter: {}, dryRun: true },
    });
    expect(dryRun.body).toEqual({ matched: failed.length, matchedIsLowerBound: false });
    // recover over every endpoint since before the oldest delivery counts the same rows.
    const since = new Date(Date.now() - 10_000_000).toISOString();
    let recoverable = 0;
    for (const endpointId of [world.first, world.second]) {
      const recover = await call('POST', `/v1/apps/${world.appId}/endpoints/${endpointId}/recover`, {
        key: ctx.adminKey,
        body: { since, dryRun: true },
      });
      expect(recover.status, recover.text).toBe(200);
      recoverable += recover.body.matched;
    }
    expect(recoverable).toBe(failed.length);

    const replay = await call('POST', `/v1/apps/${world.appId}/deliveries/replay`, {
      key: ctx.adminKey,
      body: { filter: {} },
    });
    expect(replay.body.job).toMatchObject({ kind: 'replay', total: failed.length });
    await runQueuedJobs(ctx.db.url);
    const job = await call('GET', `/v1/apps/${world.appId}/jobs/${replay.body.job.id}`, { key: ctx.adminKey });
    expect(job.body).toMatchObject({ state: 'succeeded', processed: failed.length });
    expect(
      (
        await ctx.db.pool.query(
          `SELECT count(*)::int AS n FROM hookline.deliveries WHERE hookline.public_id('dlv', id) = ANY($1) AND state = 'pending'`,
          [failed],
        )
      ).rows[0].n,
    ).toBe(failed.length);
    // Succeeded, waiting, delivering and cancelled ones were not touched.
    expect(
      await rowsAsText(ctx.db.pool, 'deliveries', `app_id = $1 AND NOT hookline.public_id('dlv', id) = ANY($2)`, [
        world.appId,
        failed,
      ]),
    ).toEqual(untouched);
  });

  it.each([
    ['a filter with an unknown state', { filter: { state: 'lost' } }, 'filter.state'],
    ['a dry run that is not a boolean', { filter: {}, dryRun: 'yes' }, 'dryRun'],
    ['no filter', {}, 'filter'],
    ['an id that is not a string', { deliveryIds: [42] }, 'deliveryIds.0'],
  ])('refuses %s with 422 naming the field', async (_label, body, field) => {
    const world = await createDeliveryWorld('selection-field');
    const before = await rowsAsText(ctx.db.pool, 'deliveries', 'app_id = $1', [world.appId]);
    const refused = await call('POST', `/v1/apps/${world.appId}/deliveries/replay`, { key: ctx.adminKey, body });
    expectError(refused, 422, 'validation_failed', field);
    expect(await rowsAsText(ctx.db.pool, 'deliveries', 'app_id = $1', [world.appId])).toEqual(before);
  });

  it.each([
    ['an empty body', {}],
    ['an empty id list', { deliveryIds: [] }],
    ['1001 ids', { deliveryIds: Array.from({ length: 1001 }, (_, i) => `dlv_${i}`) }],
    ['ids and a filter together', { deliveryIds: ['dlv_1'], filter: {} }],
    ['an unknown filter key', { filter: { colour: 'red' } }],
    ['a filter with an unknown state', { filter: { state: 'lost' } }],
  ])('refuses %s with 422', async (_label, body) => {
    const world = await createDeliveryWorld('selection-bad');
    const before = await rowsAsText(ctx.db.pool, 'deliveries', 'app_id = $1', [world.appId]);
    expectError(
      await call('POST', `/v1/apps/${world.appId}/deliveries/replay`, { key: ctx.adminKey, body }),
      422,
      'validation_failed',
    );
    expect(await rowsAsText(ctx.db.pool, 'deliveries', 'app_id = $1', [world.appId])).toEqual(before);
  });
});

describe('POST /apps/{appId}/deliveries/{deliveryId}/cancel', () => {
  it('cancels a pending or in-flight delivery and answers with it', async () => {
    const world = await createDeliveryWorld('cancel');
    for (const fixture of [world.fixtures[4]!, world.fixtures[5]!]) {
      const response = await call('POST', `/v1/apps/${world.appId}/deliveries/${fixture.id}/cancel`, {
        key: ctx.adminKey,
      });
      expect(response.status, response.text).toBe(200);
      expect(response.body).toMatchObject({ id: fixture.id, state: 'cancelled', nextAttemptAt: null });
      const { rows } = await ctx.db.pool.query(
        'SELECT state, lease_owner FROM hookline.deliveries WHERE id = hookline.uuid_of($1)',
        [fixture.id],
      );
      expect(rows).toEqual([{ state: 'cancelled', lease_owner: null }]);
    }
  });

  it('answers 409 for a finished delivery, changing nothing, and 404 for an unknown one', async () => {
    const world = await createDeliveryWorld('cancel-finished');
    for (const fixture of [world.fixtures[0]!, world.fixtures[1]!, world.fixtures[6]!]) {
      const before = await rowsAsText(ctx.db.pool, 'deliveries', 'id = hookline.uuid_of($1)', [fixture.id]);
      const response = await call('POST', `/v1/apps/${world.appId}/deliveries/${fixture.id}/cancel`, {
        key: ctx.adminKey,
      });
      expectError(response, 409, 'delivery_finished');
      expect(response.body.error.message).toContain(fixture.state);
      expect(await rowsAsText(ctx.db.pool, 'deliveries', 'id = hookline.uuid_of($1)', [fixture.id])).toEqual(before);
    }
    for (const unknown of UNKNOWN_DELIVERY_IDS)
      expectError(
        await call('POST', `/v1/apps/${world.appId}/deliveries/${unknown}/cancel`, { key: ctx.adminKey }),
        404,
        'not_found',
      );
  });
});
