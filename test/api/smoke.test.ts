import { beforeAll, expect, it } from 'vitest';
import { fanOutQueued } from '../support/deliveries';
import { call, setUpApiTest, type ApiTestContext } from './support/api';

let ctx: ApiTestContext;
beforeAll(async () => {
  ctx = await setUpApiTest();
});

it('smoke', async () => {
  const key = ctx.adminKey;
  const app = await call('POST', '/v1/apps', { key, body: { name: 'A' } });
  expect(app.status, app.text).toBe(201);
  const appId = app.body.id;
  expect((await call('POST', `/v1/apps/${appId}/event-types`, { key, body: { name: 'invoice.paid' } })).status).toBe(
    201,
  );
  const ep = await call('POST', `/v1/apps/${appId}/endpoints`, { key, body: { url: 'https://example.com/hook' } });
  expect(ep.status, ep.text).toBe(201);
  const msg = await call('POST', `/v1/apps/${appId}/messages`, {
    key,
    body: { eventType: 'invoice.paid', payload: { a: 1 } },
  });
  expect(msg.status, msg.text).toBe(202);
  await fanOutQueued(ctx.db.pool);
  const list = await call('GET', `/v1/apps/${appId}/deliveries`, { key });
  expect(list.status, list.text).toBe(200);
  expect(list.body.data).toHaveLength(1);
  const one = await call('GET', `/v1/apps/${appId}/deliveries/${list.body.data[0].id}`, { key });
  expect(one.status, one.text).toBe(200);
  const eps = await call('GET', `/v1/apps/${appId}/endpoints`, { key });
  expect(eps.status, eps.text).toBe(200);
  const stats = await call('GET', `/v1/stats`, { key, query: { appId } });
  expect(stats.status, stats.text).toBe(200);
  const doc = await call('GET', `/v1/openapi.json`);
  expect(doc.status, doc.text.slice(0, 500)).toBe(200);
});
