// For every operation with an id in its path: another app's id, or an app-limited key of another app,
// answers 404 and changes no row.
import { beforeAll, describe, expect, it } from 'vitest';
import { operations } from '../../lib/contract/operations';
import type { AnyOperation } from '../../lib/contract/operation';
import { appLimitedKey, call, setUpApiTest, type ApiTestContext } from './support/api';
import { createAppWorld, snapshotRows, type AppWorld } from './support/world';

let ctx: ApiTestContext;
let a: AppWorld;
let b: AppWorld;
let keyOfB: string;

// A body each operation would accept, so that only the app check can refuse it.
const VALID_BODIES: Record<string, unknown> = {
  updateApp: { name: 'renamed' },
  createEventType: { name: 'brand.new' },
  updateEventType: { description: 'changed' },
  createEndpoint: { url: 'https://example.com/new' },
  updateEndpoint: { description: 'changed' },
  disableEndpoint: { reason: 'test' },
  rotateEndpointSecret: { gracePeriodSeconds: 0 },
  sendTestMessage: {},
  recoverEndpoint: { since: '2000-01-01T00:00:00Z' },
  createMessage: { eventType: 'invoice.paid', payload: { a: 1 } },
  replayDeliveries: { filter: {} },
  createJob: { kind: 'replay', filter: {} },
  backfillEndpoint: { since: '2000-01-01T00:00:00Z' },
};

function pathFor(operation: AnyOperation, app: string, owner: AppWorld): string {
  return `/v1${operation.path
    .replace('{appId}', app)
    .replace('{endpointId}', owner.endpointId)
    .replace('{messageId}', owner.messageId)
    .replace('{deliveryId}', owner.deliveryId)
    .replace('{jobId}', owner.jobId)
    .replace('{eventTypeName}', 'invoice.paid')}`;
}

const scoped = (Object.values(operations) as AnyOperation[]).filter((operation) => operation.path.includes('{appId}'));

beforeAll(async () => {
  ctx = await setUpApiTest();
  a = await createAppWorld(ctx.db.pool, 'a');
  b = await createAppWorld(ctx.db.pool, 'b');
  keyOfB = await appLimitedKey(b.appId);
  // Both keys have been used once, so last_used_at does not move during the test.
  await call('GET', '/v1/apps', { key: keyOfB });
  await call('GET', '/v1/apps', { key: ctx.adminKey });
});

describe('app isolation', () => {
  it('covers every operation under /apps/{appId}', () => {
    expect(scoped.length).toBeGreaterThanOrEqual(28);
  });

  for (const operation of scoped) {
    const body = VALID_BODIES[operation.operationId];
    it(`${operation.method} ${operation.path}: an app-limited key of another app gets 404 and changes nothing`, async () => {
      const before = await snapshotRows(ctx.db.pool);
      const response = await call(operation.method, pathFor(operation, a.appId, a), { key: keyOfB, body });
      expect(response.status, response.text).toBe(404);
      expect(response.body.error.code).toBe('not_found');
      expect(await snapshotRows(ctx.db.pool)).toEqual(before);
    });

    if (/\{(endpointId|messageId|deliveryId|eventTypeName|jobId)\}/.test(operation.path)) {
      it(`${operation.method} ${operation.path}: ids of app A under app B's path get 404 and change nothing`, async () => {
        const before = await snapshotRows(ctx.db.pool);
        // Event types are addressed by name, which both apps share; delete B's so only A has one.
        const path = operation.path.includes('{eventTypeName}')
          ? pathFor(operation, b.appId, a).replace('invoice.paid', 'only.in.a')
          : pathFor(operation, b.appId, a);
        if (operation.path.includes('{eventTypeName}')) {
          await ctx.db.pool.query(
            `INSERT INTO hookline.event_types (app_id, name) VALUES ($1, 'only.in.a') ON CONFLICT DO NOTHING`,
            [a.appId],
          );
        }
        const snapshot = operation.path.includes('{eventTypeName}') ? await snapshotRows(ctx.db.pool) : before;
        const response = await call(operation.method, path, { key: ctx.adminKey, body });
        expect(response.status, response.text).toBe(404);
        expect(await snapshotRows(ctx.db.pool)).toEqual(snapshot);
      });
    }
  }

  it('a selection replay naming deliveries of another app replays nothing', async () => {
    const before = await snapshotRows(ctx.db.pool);
    const response = await call('POST', `/v1/apps/${b.appId}/deliveries/replay`, {
      key: ctx.adminKey,
      body: { deliveryIds: [a.deliveryId] },
    });
    expect(response.status).toBe(200);
    expect(response.body).toEqual({ replayed: 0 });
    expect(await snapshotRows(ctx.db.pool)).toEqual(before);
  });

  it("stats of another app, or of another app's endpoint, are a 404 for an app-limited key", async () => {
    expect((await call('GET', '/v1/stats', { key: keyOfB, query: { appId: a.appId } })).status).toBe(404);
    expect((await call('GET', '/v1/stats', { key: keyOfB, query: { endpointId: a.endpointId } })).status).toBe(404);
    expect((await call('GET', '/v1/stats', { key: keyOfB })).status).toBe(200);
  });

  it('an app-limited key lists only its own app and cannot manage keys or create apps', async () => {
    const apps = await call('GET', '/v1/apps', { key: keyOfB });
    expect(apps.body.data.map((app: { id: string }) => app.id)).toEqual([b.appId]);
    expect((await call('GET', '/v1/api-keys', { key: keyOfB })).status).toBe(403);
    expect((await call('POST', '/v1/apps', { key: keyOfB, body: { name: 'x' } })).body.error.code).toBe(
      'key_not_allowed',
    );
    const before = await snapshotRows(ctx.db.pool);
    expect((await call('DELETE', `/v1/apps/${b.appId}`, { key: keyOfB })).status).toBe(403);
    expect(await snapshotRows(ctx.db.pool)).toEqual(before);
  });
});
