// REST for operational events: operational endpoints (deployment keys only), the event log, issues
// (acknowledge, resolve, reopen; app-limited keys see their own app's) and alert rules per app, and
// the event payloads in the OpenAPI document's webhooks.
/* eslint-disable @typescript-eslint/no-explicit-any -- response bodies are untyped JSON */
import { beforeAll, describe, expect, it } from 'vitest';
import { countRows, createApp } from '../support/fixtures';
import { appLimitedKey, call, setUpApiTest, type ApiTestContext } from './support/api';
import { expectError } from './support/expect-error';

let ctx: ApiTestContext;
let appA: string;
let appB: string;
let keyA: string;
let keyB: string;

beforeAll(async () => {
  ctx = await setUpApiTest();
  appA = await createApp(ctx.db.pool, 'Acme');
  appB = await createApp(ctx.db.pool, 'Other');
  keyA = await appLimitedKey(appA);
  keyB = await appLimitedKey(appB);
});

const SLACK = '{"text": "{{type}} on {{data.endpoint_url}} ({{data.last_error_class}})"}';

async function emit(appId: string, type: string, subject: string, errorClass: string) {
  const { rows } = await ctx.db.pool.query<{ id: string }>(
    `SELECT hookline.emit_operational_event($1, $2, '{}'::jsonb, issue_subject => $3, issue_class => $4,
            issue_title => 'Test issue') AS id`,
    [appId, type, subject, errorClass],
  );
  return rows[0]!.id;
}

describe('/operational-endpoints', () => {
  it('creates a scoped, templated subscription in the operations app and returns its secret once', async () => {
    const created = await call('POST', '/v1/operational-endpoints', {
      key: ctx.adminKey,
      body: {
        url: 'https://hooks.slack.com/services/T000/B000/XXXX',
        description: 'Acme on-call',
        eventTypes: ['endpoint.failing', 'delivery.dead'],
        scopeAppId: appA,
        payloadTemplate: SLACK,
      },
    });
    expect(created.status, created.text).toBe(201);
    expect(created.body).toMatchObject({
      appId: 'app_hookline_ops',
      scopeAppId: appA,
      payloadTemplate: SLACK,
      eventTypes: ['endpoint.failing', 'delivery.dead'],
    });
    expect(created.body.secret).toMatch(/^whsec_/);
    const id = created.body.id as string;

    // Not one of the customer app's endpoints.
    const customers = await call('GET', `/v1/apps/${appA}/endpoints`, { key: ctx.adminKey });
    expect(customers.body.data.map((endpoint: any) => endpoint.id)).not.toContain(id);

    const listed = await call('GET', '/v1/operational-endpoints', { key: ctx.adminKey });
    expect(listed.body.data.map((endpoint: any) => endpoint.id)).toContain(id);
    expect(listed.body.data[0]).not.toHaveProperty('secret');

    const changed = await call('PATCH', `/v1/operational-endpoints/${id}`, {
      key: ctx.adminKey,
      body: { scopeAppId: null, payloadTemplate: null, description: 'everyone' },
    });
    expect(changed.status, changed.text).toBe(200);
    expect(changed.body).toMatchObject({ scopeAppId: null, payloadTemplate: null, description: 'everyone' });

    expect((await call('DELETE', `/v1/operational-endpoints/${id}`, { key: ctx.adminKey })).status).toBe(204);
    expectError(await call('GET', `/v1/operational-endpoints/${id}`, { key: ctx.adminKey }), 404, 'not_found');
    expect(await countRows(ctx.db.pool, 'operational_endpoints', 'endpoint_id = $1', [id])).toBe(0);
  });

  it('refuses a template that is not JSON once filled in, an unknown scope app or event type, by field', async () => {
    const post = (body: Record<string, unknown>) =>
      call('POST', '/v1/operational-endpoints', {
        key: ctx.adminKey,
        body: { url: 'https://example.com/ops', ...body },
      });
    expectError(await post({ payloadTemplate: '{"text": {{type}}}' }), 422, 'validation_failed', 'payloadTemplate');
    expectError(await post({ payloadTemplate: 'not json' }), 422, 'validation_failed', 'payloadTemplate');
    expectError(await post({ scopeAppId: 'app_nope' }), 422, 'validation_failed', 'scopeAppId');
    expectError(await post({ eventTypes: ['invoice.paid'] }), 422, 'validation_failed', 'eventTypes.0');
    expectError(await post({ url: 'ftp://example.com' }), 422, 'validation_failed', 'url');
    // Nothing half-created.
    expect(
      await countRows(ctx.db.pool, 'endpoints', "app_id = 'app_hookline_ops' AND url = 'https://example.com/ops'"),
    ).toBe(0);
  });

  it('is for deployment-wide keys only', async () => {
    expectError(await call('GET', '/v1/operational-endpoints', { key: keyA }), 403, 'key_not_allowed');
    expectError(
      await call('POST', '/v1/operational-endpoints', { key: keyA, body: { url: 'https://example.com/x' } }),
      403,
      'key_not_allowed',
    );
  });
});

describe('/issues', () => {
  it('acknowledges, resolves and reopens; app-limited keys see only their app', async () => {
    await emit(appA, 'endpoint.failing', 'ep_issue_a', 'http_5xx');
    await emit(appB, 'endpoint.failing', 'ep_issue_b', 'timeout');
    const all = await call('GET', '/v1/issues', { key: ctx.adminKey, query: { status: 'open' } });
    expect(all.status, all.text).toBe(200);
    const issueA = all.body.data.find((issue: any) => issue.appId === appA);
    expect(issueA).toMatchObject({ status: 'open', errorClass: 'http_5xx', eventCount: 1, title: 'Test issue' });
    expect(all.body.data.some((issue: any) => issue.appId === appB)).toBe(true);

    const ownOnly = await call('GET', '/v1/issues', { key: keyA });
    expect(ownOnly.body.data.every((issue: any) => issue.appId === appA)).toBe(true);
    expectError(await call('GET', `/v1/issues/${issueA.id}`, { key: keyB }), 404, 'not_found');
    expectError(await call('POST', `/v1/issues/${issueA.id}/resolve`, { key: keyB }), 404, 'not_found');
    expectError(await call('GET', '/v1/issues', { key: keyB, query: { appId: appA } }), 404, 'not_found');

    const acknowledged = await call('POST', `/v1/issues/${issueA.id}/acknowledge`, { key: keyA });
    expect(acknowledged.status, acknowledged.text).toBe(200);
    expect(acknowledged.body.status).toBe('acknowledged');
    expect((await call('GET', '/v1/issues/counts', { key: keyA })).body).toEqual({
      open: 0,
      acknowledged: 1,
      resolved: 0,
    });

    const resolved = await call('POST', `/v1/issues/${issueA.id}/resolve`, { key: ctx.adminKey });
    expect(resolved.body).toMatchObject({ status: 'resolved' });
    expect(resolved.body.resolvedAt).not.toBeNull();
    expectError(
      await call('POST', `/v1/issues/${issueA.id}/acknowledge`, { key: ctx.adminKey }),
      409,
      'issue_resolved',
    );

    // It happens again: the same issue, open, counted.
    await emit(appA, 'endpoint.failing', 'ep_issue_a', 'http_5xx');
    // Deliveries it affected, newest detected first, by the public ids the API shows everywhere (stored
    // as uuid: migration 20261208090000_ids_as_uuid).
    const affected = [`dlv_${'1'.repeat(32)}`, `dlv_${'2'.repeat(32)}`];
    await ctx.db.pool.query(
      `INSERT INTO hookline.issue_deliveries (issue_id, delivery_id, app_id, detected_at)
       SELECT $1, hookline.uuid_of(a.id), $2, now() - make_interval(secs => a.n)
         FROM unnest($3::text[]) WITH ORDINALITY AS a (id, n)`,
      [issueA.id, appA, affected],
    );
    const detail = await call('GET', `/v1/issues/${issueA.id}`, { key: keyA });
    expect(detail.body).toMatchObject({ status: 'open', eventCount: 2, reopenedCount: 1, resolvedAt: null });
    expect(detail.body.deliveryIds).toEqual(affected);
    // Newest first; the operator's resolve is an event of its own (issue.resolved).
    expect(detail.body.events.map((event: any) => event.type)).toEqual([
      'endpoint.failing',
      'issue.resolved',
      'endpoint.failing',
    ]);
    expect((await call('GET', '/v1/issues/counts', { key: keyA })).body.open).toBe(1);

    const events = await call('GET', '/v1/operational-events', { key: keyB });
    expect(events.body.data.length).toBeGreaterThan(0);
    expect(events.body.data.every((event: any) => event.appId === appB)).toBe(true);
  });

  it('reopens by hand, mutes for a while and unmutes, names the endpoint URL, and tells operators of each change', async () => {
    const { rows } = await ctx.db.pool.query<{ id: string }>(
      "INSERT INTO hookline.endpoints (app_id, url) VALUES ($1, 'https://acme.example/orders') RETURNING id",
      [appA],
    );
    const endpointId = rows[0]!.id;
    await ctx.db.pool.query(
      `SELECT hookline.emit_operational_event($1, 'endpoint.failing', '{}'::jsonb, endpoint_id => $2, issue_class => 'timeout')`,
      [appA, endpointId],
    );
    const listed = await call('GET', '/v1/issues', { key: keyA, query: { status: 'open' } });
    const issue = listed.body.data.find((row: any) => row.endpointId === endpointId);
    expect(issue).toMatchObject({ endpointUrl: 'https://acme.example/orders', mutedUntil: null });
    const sent = async () =>
      (
        await ctx.db.pool.query<{ type: string; notified: boolean }>(
          'SELECT type, notified FROM hookline.operational_events WHERE issue_id = $1 ORDER BY created_at, id',
          [issue.id],
        )
      ).rows;

    // Resolved by an operator: sent at once as issue.resolved (the trigger was sent), and the
    // endpoint's failing state ends, so that failing again reopens it.
    await ctx.db.pool.query('UPDATE hookline.endpoints SET alert_failing_since = now() WHERE id = $1', [endpointId]);
    expect((await call('POST', `/v1/issues/${issue.id}/resolve`, { key: keyA })).body.status).toBe('resolved');
    const { rows: endpoint } = await ctx.db.pool.query(
      'SELECT alert_failing_since FROM hookline.endpoints WHERE id = $1',
      [endpointId],
    );
    expect(endpoint[0].alert_failing_since).toBeNull();

    const reopened = await call('POST', `/v1/issues/${issue.id}/reopen`, { key: keyA });
    expect(reopened.status).toBe(200);
    expect(reopened.body).toMatchObject({ status: 'open', resolvedAt: null, reopenedCount: 1 });
    // Reopening an open issue changes nothing and tells nobody.
    expect((await call('POST', `/v1/issues/${issue.id}/reopen`, { key: keyA })).body.reopenedCount).toBe(1);
    expectError(await call('POST', `/v1/issues/${issue.id}/reopen`, { key: keyB }), 404, 'not_found');

    const before = Date.now();
    const muted = await call('POST', `/v1/issues/${issue.id}/mute`, { key: keyA, body: { minutes: 90 } });
    expect(muted.status).toBe(200);
    const until = new Date(muted.body.mutedUntil).getTime();
    expect(until - before).toBeGreaterThanOrEqual(90 * 60_000 - 1000);
    expect(until - before).toBeLessThan(90 * 60_000 + 5000);
    expectError(
      await call('POST', `/v1/issues/${issue.id}/mute`, { key: keyA, body: { minutes: 0 } }),
      422,
      'validation_failed',
      'minutes',
    );
    // Muted: a resolve is recorded, not sent.
    await call('POST', `/v1/issues/${issue.id}/resolve`, { key: keyA });
    expect((await call('POST', `/v1/issues/${issue.id}/unmute`, { key: keyA })).body.mutedUntil).toBeNull();

    expect(await sent()).toEqual([
      { type: 'endpoint.failing', notified: true },
      { type: 'issue.resolved', notified: true },
      { type: 'issue.reopened', notified: true },
      { type: 'issue.resolved', notified: false },
    ]);
  });

  it('pages through the open issues without skipping one when the cursor row is acknowledged meanwhile', async () => {
    const paged = await createApp(ctx.db.pool, 'Paged');
    const key = await appLimitedKey(paged);
    for (const subject of ['ep_paged_1', 'ep_paged_2', 'ep_paged_3']) {
      await emit(paged, 'endpoint.failing', subject, 'timeout');
    }
    const seen: string[] = [];
    let cursor: string | undefined;
    do {
      const page = await call('GET', '/v1/issues', {
        key,
        query: { status: 'open', limit: '1', ...(cursor ? { cursor } : {}) },
      });
      expect(page.status, page.text).toBe(200);
      seen.push(...page.body.data.map((issue: any) => issue.id as string));
      cursor = page.body.nextCursor ?? undefined;
      // The row the cursor names leaves the filter before the next page is asked for.
      const acknowledged = await call('POST', `/v1/issues/${seen.at(-1)}/acknowledge`, { key });
      expect(acknowledged.status, acknowledged.text).toBe(200);
    } while (cursor);
    const { rows } = await ctx.db.pool.query<{ id: string }>(
      'SELECT id FROM hookline.issues WHERE app_id = $1 ORDER BY last_seen_at DESC, id DESC',
      [paged],
    );
    expect(seen).toEqual(rows.map((row) => row.id));
  });

  it('answers 404 for an unknown issue and 400 for an unknown status filter', async () => {
    expectError(await call('GET', '/v1/issues/iss_nope', { key: ctx.adminKey }), 404, 'not_found');
    expectError(
      await call('GET', '/v1/issues', { key: ctx.adminKey, query: { status: 'closed' } }),
      400,
      'invalid_query',
      'status',
    );
  });
});

describe('/apps/{appId}/alert-rules', () => {
  it('creates, lists, changes and deletes rules, validating thresholds by field', async () => {
    const base = `/v1/apps/${appA}/alert-rules`;
    expectError(
      await call('POST', base, { key: keyA, body: { kind: 'success_rate_below', threshold: 150 } }),
      422,
      'validation_failed',
      'threshold',
    );
    expectError(
      await call('POST', base, { key: keyA, body: { kind: 'latency_above', threshold: 1 } }),
      422,
      'validation_failed',
      'kind',
    );
    const created = await call('POST', base, {
      key: keyA,
      body: { kind: 'success_rate_below', threshold: 95, windowMinutes: 10, description: 'checkout' },
    });
    expect(created.status, created.text).toBe(201);
    expect(created.body).toMatchObject({
      appId: appA,
      kind: 'success_rate_below',
      threshold: 95,
      windowMinutes: 10,
      firing: false,
    });
    const listed = await call('GET', base, { key: keyA });
    expect(listed.body.data.map((rule: any) => rule.id)).toEqual([created.body.id]);
    const changed = await call('PATCH', `${base}/${created.body.id}`, { key: keyA, body: { enabled: false } });
    expect(changed.body.enabled).toBe(false);
    expectError(await call('GET', base, { key: keyB }), 404, 'not_found');
    expectError(
      await call('DELETE', `/v1/apps/${appB}/alert-rules/${created.body.id}`, { key: ctx.adminKey }),
      404,
      'not_found',
    );
    expect((await call('DELETE', `${base}/${created.body.id}`, { key: keyA })).status).toBe(204);
  });
});

describe('the OpenAPI document', () => {
  it('documents every operational event type as a webhook with a named payload schema', async () => {
    const document = (await call('GET', '/v1/openapi.json')).body;
    const types = Object.keys(document.webhooks);
    expect(types).toContain('endpoint.circuit_opened');
    expect(types).toContain('job.finished');
    expect(types).toHaveLength(14);
    expect(types).toContain('issue.resolved');
    expect(types).toContain('audit.sensitive_change');
    const body = document.webhooks['endpoint.failing'].post.requestBody.content['application/json'].schema;
    expect(body).toEqual({ $ref: '#/components/schemas/EndpointFailingEvent' });
    const schema = document.components.schemas.EndpointFailingEvent;
    expect(schema.properties.type.const).toBe('endpoint.failing');
    expect(schema.properties.data.properties).toHaveProperty('endpoint_url');
    expect(document.components.schemas.DeliveryDeadEvent.properties.data.properties).toHaveProperty('delivery_ids');
  });
});

describe('DELETE /apps/{appId}', () => {
  it("removes the app's issues, events and alert rules, keeps subscriptions scoped to it, and keeps the operations app", async () => {
    const doomed = await createApp(ctx.db.pool, 'Doomed');
    await emit(doomed, 'endpoint.failing', 'ep_doomed', 'timeout');
    await call('POST', `/v1/apps/${doomed}/alert-rules`, {
      key: ctx.adminKey,
      body: { kind: 'dead_per_hour_above', threshold: 1 },
    });
    const scoped = await call('POST', '/v1/operational-endpoints', {
      key: ctx.adminKey,
      body: { url: 'https://example.com/doomed', scopeAppId: doomed },
    });
    expect((await call('DELETE', `/v1/apps/${doomed}`, { key: ctx.adminKey })).status).toBe(204);
    for (const table of ['issues', 'operational_events', 'alert_rules']) {
      expect(await countRows(ctx.db.pool, table, 'app_id = $1', [doomed]), table).toBe(0);
    }
    // Still scoped to the deleted app (so it receives nothing), never widened to every app.
    expect(
      (await call('GET', `/v1/operational-endpoints/${scoped.body.id}`, { key: ctx.adminKey })).body.scopeAppId,
    ).toBe(doomed);

    expectError(await call('DELETE', '/v1/apps/app_hookline_ops', { key: ctx.adminKey }), 409, 'operations_app');
    expect(await countRows(ctx.db.pool, 'event_types', "app_id = 'app_hookline_ops'")).toBe(14);
  });
});
