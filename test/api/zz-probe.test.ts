import { beforeAll, expect, it } from 'vitest';
import { call, setUpApiTest, type ApiTestContext } from './support/api';
import { createAppWorld } from './support/world';

let ctx: ApiTestContext;
beforeAll(async () => { ctx = await setUpApiTest(); });

it('probe', async () => {
  const key = ctx.adminKey;
  const w = await createAppWorld(ctx.db.pool, 'p');
  const show = async (label: string, r: Promise<{ status: number; text: string }>) => { const x = await r; console.log(label, x.status, x.text.slice(0, 300)); };
  await show('year0', call('GET', `/v1/apps/${w.appId}/messages`, { key, query: { from: '0000-01-01T00:00:00Z' } }));
  await show('year0 dl', call('GET', `/v1/apps/${w.appId}/deliveries`, { key, query: { to: '0000-01-01T00:00:00Z' } }));
  await show('stats year0', call('GET', `/v1/stats`, { key, query: { from: '0000-01-01T00:00:00Z', to: '0000-01-02T00:00:00Z', bucketSeconds: 3600 } }));
  await show('stats 9999', call('GET', `/v1/stats`, { key, query: { from: '9999-12-31T00:00:00Z', to: '9999-12-31T23:00:00Z' } }));
  await show('recover year0', call('POST', `/v1/apps/${w.appId}/endpoints/${w.endpointId}/recover`, { key, body: { since: '0000-01-01T00:00:00Z' } }));
  await show('feb31', call('GET', `/v1/apps/${w.appId}/messages`, { key, query: { from: '2024-02-31T00:00:00Z' } }));
  // cursor row deleted
  for (let i = 0; i < 5; i++) await call('POST', `/v1/apps/${w.appId}/event-types`, { key, body: { name: `t${i}` } });
  const p1 = await call('GET', `/v1/apps/${w.appId}/event-types`, { key, query: { limit: 2 } });
  console.log(p1.body.data.map((x: {name: string}) => x.name), p1.body.nextCursor);
  await call('DELETE', `/v1/apps/${w.appId}/event-types/${p1.body.data[1].name}`, { key });
  const p2 = await call('GET', `/v1/apps/${w.appId}/event-types`, { key, query: { limit: 2, cursor: p1.body.nextCursor } });
  console.log('after delete', p2.status, p2.text.slice(0, 300));
  await show('hdr crlf name', call('POST', `/v1/apps/${w.appId}/endpoints`, { key, body: { url: 'https://example.com', headers: { 'X-A\r\nB': 'x' } } }));
  await show('hdr host', call('POST', `/v1/apps/${w.appId}/endpoints`, { key, body: { url: 'https://example.com', headers: { 'HOST': 'x' } } }));
  await show('hdr proto', call('POST', `/v1/apps/${w.appId}/endpoints`, { key, rawBody: '{"url":"https://example.com","headers":{"__proto__":"x"}}', headers: {'content-type': 'application/json'} }));
  await show('hdr value crlf', call('POST', `/v1/apps/${w.appId}/endpoints`, { key, body: { url: 'https://example.com', headers: { 'X-A': 'a\r\nb' } } }));
  await show('ftp', call('POST', `/v1/apps/${w.appId}/endpoints`, { key, body: { url: 'ftp://example.com' } }));
  await show('javascript', call('POST', `/v1/apps/${w.appId}/endpoints`, { key, body: { url: 'javascript:alert(1)' } }));
  await show('bad evtype', call('POST', `/v1/apps/${w.appId}/messages`, { key, body: { eventType: 'nope', payload: {} } }));
  await show('cursor unknown', call('GET', `/v1/apps/${w.appId}/messages`, { key, query: { cursor: Buffer.from('{"id":"msg_x"}').toString('base64url') } }));
  await show('big', call('POST', `/v1/apps/${w.appId}/messages`, { key, body: { eventType: 'invoice.paid', payload: { s: 'x'.repeat(1_048_576) } } }));
  await show('statusCode', call('GET', `/v1/apps/${w.appId}/deliveries`, { key, query: { statusCode: '5e2' } }));
});
