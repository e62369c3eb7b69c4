// The typed client in examples/typed-client: its types are generated from the OpenAPI document (and
// must be current), it compiles (npm run typecheck covers examples/), and it works against the API.
import { readFileSync } from 'node:fs';
import createClient from 'openapi-fetch';
import { beforeAll, describe, expect, it } from 'vitest';
import type { paths } from '../../examples/typed-client/hookline-api';
import { listFailedDeliveries } from '../../examples/typed-client/list-failed-deliveries';
import { replayFailedAsJob } from '../../examples/typed-client/replay-failed-as-job';
import { API_TYPES_FILE, generateApiTypes } from '../../scripts/generate-api-types';
import { createApp, createEndpoint } from '../support/fixtures';
import { waitUntil } from '../support/receiver';
import { handle, ORIGIN, setUpApiTest, type ApiTestContext } from './support/api';
import { runQueuedJobs } from './support/jobs';
import { insertDelivery } from './support/world';

let ctx: ApiTestContext;

beforeAll(async () => {
  ctx = await setUpApiTest();
});

describe('the typed client generated from the OpenAPI document', () => {
  it('is generated from the current document (run npm run generate:api-types when this fails)', async () => {
    expect(readFileSync(API_TYPES_FILE, 'utf8')).toBe(await generateApiTypes());
  });

  it('lists the failed deliveries of an app through the real routes, page by page', async () => {
    const appId = await createApp(ctx.db.pool, 'typed client');
    const endpointId = (await createEndpoint(ctx.db.pool, appId, 'https://example.com/typed')).id;
    const failed: string[] = [];
    for (let i = 0; i < 105; i++) {
      const { deliveryId } = await insertDelivery(ctx.db.pool, { appId, endpointId, state: 'dead', attemptCount: 8 });
      failed.push(deliveryId);
    }
    const retrying = await insertDelivery(ctx.db.pool, { appId, endpointId, state: 'pending', attemptCount: 2 });
    failed.push(retrying.deliveryId);
    await insertDelivery(ctx.db.pool, { appId, endpointId, state: 'succeeded', attemptCount: 1 });
    await insertDelivery(ctx.db.pool, { appId, endpointId, state: 'pending' });

    const deliveries = await listFailedDeliveries({ baseUrl: ORIGIN, apiKey: ctx.adminKey, appId, fetch: handle });
    expect(deliveries.map((delivery) => delivery.id).sort()).toEqual(failed.sort());
    expect(new Set(deliveries.map((delivery) => delivery.state))).toEqual(new Set(['dead', 'retrying']));
  });

  it('replays the failed deliveries as a background job and follows it to the end', async () => {
    const appId = await createApp(ctx.db.pool, 'typed client job');
    const endpointId = (await createEndpoint(ctx.db.pool, appId, 'https://example.com/typed-job')).id;
    for (let i = 0; i < 3; i++)
      await insertDelivery(ctx.db.pool, { appId, endpointId, state: 'dead', attemptCount: 8 });
    await insertDelivery(ctx.db.pool, { appId, endpointId, state: 'succeeded', attemptCount: 1 });
    const done = replayFailedAsJob({ baseUrl: ORIGIN, apiKey: ctx.adminKey, appId, pollMs: 50, fetch: handle });
    // The workers' job runner, as a worker process runs it.
    await waitUntil(
      async () => (await ctx.db.pool.query('SELECT 1 FROM hookline.jobs WHERE app_id = $1', [appId])).rowCount,
    );
    await runQueuedJobs(ctx.db.url);
    expect(await done).toMatchObject({ kind: 'replay', state: 'succeeded', total: 3, processed: 3 });
  });

  it('turns an API error into the typed error body', async () => {
    await expect(
      listFailedDeliveries({ baseUrl: ORIGIN, apiKey: 'hl_not_a_key', appId: 'app_x', fetch: handle }),
    ).rejects.toThrow(/^unauthorized: /);
  });
});

// Never called: the compiler checks these, which is the point of a typed client.
export function wrongCallsDoNotCompile() {
  const client = createClient<paths>({ baseUrl: `${ORIGIN}/api/v1` });
  // @ts-expect-error a misspelled state is not in the API's enum
  void client.GET('/apps/{appId}/deliveries', { params: { path: { appId: 'a' }, query: { state: 'faild' } } });
  // @ts-expect-error the path needs its appId
  void client.GET('/apps/{appId}/deliveries', { params: { query: {} } });
}
