// The audit log (issue 24, item 4): every kind of change writes exactly one row, in the change's own
// transaction, naming who made it (API key, signed-in admin, portal session) and from where; a change
// that fails writes none; GET /api/v1/audit-events pages through them and keeps an app-limited key to
// its app; a key for every app raises the operational event audit.sensitive_change; the worker's
// retention removes rows older than HOOKLINE_AUDIT_RETENTION.
import { beforeAll, describe, expect, it } from 'vitest';
import { createApiKey } from '../../lib/domain/api-keys/create-api-key';
import { ensureAdminUser } from '../../lib/domain/auth/ensure-admin-user';
import { resetRateLimits } from '../../lib/http/rate-limit';
import { resetApiSettings } from '../../lib/runtime/api-settings';
import { REMOTE_ADDRESS_HEADER } from '../../lib/http/remote-address';
import { changedFields } from '../../lib/domain/audit/record-audit-event';
import { applyRetention } from '../../worker/maintenance';
import { appLimitedKey, call, ORIGIN, setUpApiTest, type ApiTestContext } from './support/api';
import { portalCall, portalToken } from './support/portal';
import { createAppWorld, type AppWorld } from './support/world';
import { createMember } from './support/members';

let ctx: ApiTestContext;
let w: AppWorld;
let key: string;
let keyId: string;

interface AuditRow {
  action: string;
  resource_type: string;
  resource_id: string;
  app_id: string | null;
  actor_type: string;
  actor_id: string | null;
  actor_label: string | null;
  changes: { before: Record<string, unknown> | null; after: Record<string, unknown> | null };
  remote_address: string | null;
}

async function auditRows(): Promise<AuditRow[]> {
  const { rows } = await ctx.db.pool.query<AuditRow>('SELECT * FROM hookline.audit_events ORDER BY created_at, id');
  return rows;
}

/** Runs `change` and returns the audit rows it added. */
async function rowsAddedBy(change: () => Promise<unknown>): Promise<AuditRow[]> {
  const before = (await auditRows()).length;
  await change();
  return (await auditRows()).slice(before);
}

beforeAll(async () => {
  ctx = await setUpApiTest();
  w = await createAppWorld(ctx.db.pool, 'audit');
  const created = await createApiKey({ name: 'auditor', appId: null });
  key = created.key;
  keyId = created.apiKey.id;
  await ctx.db.pool.query(
    `INSERT INTO hookline.issues (id, app_id, subject_id, endpoint_id, error_class, title)
     VALUES ('iss_audit', $1, $2, $2, 'http_5xx', 'failing')`,
    [w.appId, w.endpointId],
  );
});

describe('every kind of change writes one row, by the API key that made it', () => {
  // [what, method, path, body, action, resource type]; ids filled from the world as the table runs.
  const ids: Record<string, string> = {};
  const path = (template: string) =>
    template
      .replace('{app}', w.appId)
      .replace('{ep}', w.endpointId)
      .replace('{dlv}', w.deliveryId)
      .replace('{msg}', w.messageId)
      .replace('{job}', w.jobId)
      .replace(/\{(\w+)\}/g, (_, name: string) => ids[name]!);
  const cases: [string, string, string, unknown, string, string, ((body: { id?: string }) => void)?][] = [
    ['create an app', 'POST', '/v1/apps', { name: 'second' }, 'app.created', 'app', (b) => (ids.app2 = b.id!)],
    ['rename an app', 'PATCH', '/v1/apps/{app2}', { name: 'renamed' }, 'app.updated', 'app'],
    ['create an event type', 'POST', '/v1/apps/{app}/event-types', { name: 'a.b' }, 'event_type.created', 'event_type'],
    [
      'change an event type',
      'PATCH',
      '/v1/apps/{app}/event-types/a.b',
      { description: 'x' },
      'event_type.updated',
      'event_type',
    ],
    ['delete an event type', 'DELETE', '/v1/apps/{app}/event-types/a.b', undefined, 'event_type.deleted', 'event_type'],
    [
      'create an endpoint',
      'POST',
      '/v1/apps/{app}/endpoints',
      { url: 'https://example.com/a' },
      'endpoint.created',
      'endpoint',
      (b) => (ids.ep2 = b.id!),
    ],
    [
      'change an endpoint',
      'PATCH',
      '/v1/apps/{app}/endpoints/{ep2}',
      { description: 'new' },
      'endpoint.updated',
      'endpoint',
    ],
    [
      'disable an endpoint',
      'POST',
      '/v1/apps/{app}/endpoints/{ep2}/disable',
      { reason: 'maintenance' },
      'endpoint.disabled',
      'endpoint',
    ],
    ['enable an endpoint', 'POST', '/v1/apps/{app}/endpoints/{ep2}/enable', undefined, 'endpoint.enabled', 'endpoint'],
    [
      'rotate a secret',
      'POST',
      '/v1/apps/{app}/endpoints/{ep2}/rotate-secret',
      {},
      'endpoint.secret_rotated',
      'endpoint',
    ],
    [
      'recover an endpoint',
      'POST',
      '/v1/apps/{app}/endpoints/{ep}/recover',
      { since: '2000-01-01T00:00:00Z' },
      'recover.started',
      'job',
    ],
    [
      'backfill an endpoint',
      'POST',
      '/v1/apps/{app}/endpoints/{ep2}/backfill',
      { since: '2000-01-01T00:00:00Z' },
      'backfill.started',
      'job',
    ],
    ['replay by filter', 'POST', '/v1/apps/{app}/deliveries/replay', { filter: {} }, 'replay.started', 'job'],
    ['cancel a job', 'POST', '/v1/apps/{app}/jobs/{job}/cancel', undefined, 'job.cancelled', 'job'],
    ['replay a delivery', 'POST', '/v1/apps/{app}/deliveries/{dlv}/replay', undefined, 'replay.done', 'delivery'],
    [
      'cancel a delivery',
      'POST',
      '/v1/apps/{app}/deliveries/{dlv}/cancel',
      undefined,
      'delivery.cancelled',
      'delivery',
    ],
    ['replay a message', 'POST', '/v1/apps/{app}/messages/{msg}/replay', undefined, 'replay.done', 'message'],
    [
      'create an app-limited key',
      'POST',
      '/v1/api-keys',
      { name: 'k', appId: '{app}' },
      'api_key.created',
      'api_key',
      (b) => (ids.key = (b as { apiKey: { id: string } }).apiKey.id),
    ],
    ['revoke a key', 'DELETE', '/v1/api-keys/{key}', undefined, 'api_key.revoked', 'api_key'],
    [
      'create a portal session',
      'POST',
      '/v1/apps/{app}/portal-sessions',
      {},
      'portal_session.created',
      'portal_session',
      (b) => (ids.psess = b.id!),
    ],
    [
      'revoke a portal session',
      'DELETE',
      '/v1/apps/{app}/portal-sessions/{psess}',
      undefined,
      'portal_session.revoked',
      'portal_session',
    ],
    [
      'create an alert rule',
      'POST',
      '/v1/apps/{app}/alert-rules',
      { kind: 'dead_per_hour_above', threshold: 5 },
      'alert_rule.created',
      'alert_rule',
      (b) => (ids.rule = b.id!),
    ],
    [
      'change an alert rule',
      'PATCH',
      '/v1/apps/{app}/alert-rules/{rule}',
      { threshold: 9 },
      'alert_rule.updated',
      'alert_rule',
    ],
    [
      'delete an alert rule',
      'DELETE',
      '/v1/apps/{app}/alert-rules/{rule}',
      undefined,
      'alert_rule.deleted',
      'alert_rule',
    ],
    ['acknowledge an issue', 'POST', '/v1/issues/iss_audit/acknowledge', undefined, 'issue.acknowledged', 'issue'],
    ['mute an issue', 'POST', '/v1/issues/iss_audit/mute', { minutes: 60 }, 'issue.muted', 'issue'],
    [
      'create an operational endpoint',
      'POST',
      '/v1/operational-endpoints',
      { url: 'https://example.com/ops' },
      'operational_endpoint.created',
      'operational_endpoint',
      (b) => (ids.ops = b.id!),
    ],
    [
      'scope an operational endpoint',
      'PATCH',
      '/v1/operational-endpoints/{ops}',
      { scopeAppId: '{app}' },
      'operational_endpoint.updated',
      'operational_endpoint',
    ],
    [
      'delete an operational endpoint',
      'DELETE',
      '/v1/operational-endpoints/{ops}',
      undefined,
      'endpoint.deleted',
      'endpoint',
    ],
    ['delete an endpoint', 'DELETE', '/v1/apps/{app}/endpoints/{ep2}', undefined, 'endpoint.deleted', 'endpoint'],
    ['delete an app', 'DELETE', '/v1/apps/{app2}', undefined, 'app.deleted', 'app'],
  ];
  it.each(cases)('%s', async (_what, method, template, body, action, resourceType, keep) => {
    const filled = body === undefined ? undefined : JSON.parse(path(JSON.stringify(body)));
    let response: Awaited<ReturnType<typeof call>> | undefined;
    const added = await rowsAddedBy(async () => {
      response = await call(method, path(template), { key, body: filled });
    });
    expect(response!.status, response!.text).toBeLessThan(300);
    keep?.(response!.body);
    expect(added.map((row) => [row.action, row.resource_type])).toEqual([[action, resourceType]]);
    expect(added[0]).toMatchObject({ actor_type: 'api_key', actor_id: keyId });
    expect(JSON.stringify(added[0]!.changes)).not.toMatch(/whsec_|hl_[A-Za-z0-9_-]{20}/);
  });

  it('records before and after of the changed fields only', async () => {
    const [row] = (await auditRows()).filter((r) => r.action === 'endpoint.updated');
    expect(row!.changes).toEqual({ before: { description: '' }, after: { description: 'new' } });
    const [disabled] = (await auditRows()).filter((r) => r.action === 'endpoint.disabled');
    expect(disabled!.changes.after).toMatchObject({ enabled: false, disabledReason: 'maintenance' });
  });
});

describe('who and from where', () => {
  it('a signed-in admin is recorded by user id and email, with the address start.ts puts in the request', async () => {
    await ensureAdminUser({ email: 'admin@hookline.test', password: 'correct horse battery staple' });
    await resetRateLimits();
    const signIn = await call('POST', '/auth/sign-in', {
      body: { email: 'admin@hookline.test', password: 'correct horse battery staple' },
    });
    const cookie = (signIn.headers.get('set-cookie') ?? '').split(';')[0]!;
    const { rows } = await ctx.db.pool.query<{ id: string }>(
      `SELECT id FROM hookline.admin_users WHERE email = 'admin@hookline.test'`,
    );
    const added = await rowsAddedBy(() =>
      call('PATCH', `/v1/apps/${w.appId}`, {
        cookie,
        body: { name: 'by admin' },
        headers: { origin: ORIGIN, [REMOTE_ADDRESS_HEADER]: '203.0.113.7' },
      }),
    );
    expect(added).toMatchObject([
      {
        action: 'app.updated',
        actor_type: 'admin',
        actor_id: rows[0]!.id,
        actor_label: 'admin@hookline.test',
        remote_address: '203.0.113.7',
      },
    ]);
  });

  it('X-Forwarded-For counts only behind a trusted proxy, and then only the entry the proxy added', async () => {
    const update = (name: string) =>
      rowsAddedBy(() =>
        call('PATCH', `/v1/apps/${w.appId}`, {
          key,
          body: { name },
          headers: { 'x-forwarded-for': '6.6.6.6, 198.51.100.9', [REMOTE_ADDRESS_HEADER]: '10.0.0.2' },
        }),
      );
    expect((await update('untrusted'))[0]!.remote_address).toBe('10.0.0.2');
    process.env.HOOKLINE_TRUST_PROXY = 'true';
    resetApiSettings();
    try {
      expect((await update('trusted'))[0]!.remote_address).toBe('198.51.100.9');
    } finally {
      delete process.env.HOOKLINE_TRUST_PROXY;
      resetApiSettings();
    }
  });

  it('a portal session is recorded by its id', async () => {
    const token = await portalToken(w.appId);
    const { rows } = await ctx.db.pool.query<{ id: string }>(
      'SELECT id FROM hookline.portal_sessions WHERE app_id = $1 ORDER BY created_at DESC LIMIT 1',
      [w.appId],
    );
    const added = await rowsAddedBy(() =>
      portalCall('POST', `/v1/apps/${w.appId}/endpoints/${w.endpointId}/disable`, { token, body: {} }),
    );
    expect(added).toMatchObject([{ action: 'endpoint.disabled', actor_type: 'portal', actor_id: rows[0]!.id }]);
  });
});

describe('a failed change writes no row', () => {
  it('refused before the transaction: invalid, unknown or finished resources', async () => {
    const added = await rowsAddedBy(async () => {
      expect(
        (await call('PATCH', `/v1/apps/${w.appId}/endpoints/${w.endpointId}`, { key, body: { url: 'ftp://x' } }))
          .status,
      ).toBe(422);
      expect((await call('POST', `/v1/apps/${w.appId}/endpoints/ep_nope/disable`, { key, body: {} })).status).toBe(404);
      expect(
        (await call('POST', `/v1/apps/${w.appId}/event-types`, { key, body: { name: 'invoice.paid' } })).status,
      ).toBe(409);
    });
    expect(added).toEqual([]);
  });

  it('failing inside the transaction after the row was written: neither the change nor the row stays', async () => {
    // A trigger that fails the audit insert of one action stands for any failure late in the
    // transaction; the endpoint must keep its description, and no row may be left.
    await ctx.db.pool.query(`
      CREATE FUNCTION hookline.test_fail_late() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN IF NEW.action = 'endpoint.updated' THEN RAISE EXCEPTION 'late failure'; END IF; RETURN NEW; END $$;
      CREATE TRIGGER test_fail_late AFTER INSERT ON hookline.audit_events FOR EACH ROW
        EXECUTE FUNCTION hookline.test_fail_late();`);
    try {
      const added = await rowsAddedBy(async () => {
        const response = await call('PATCH', `/v1/apps/${w.appId}/endpoints/${w.endpointId}`, {
          key,
          body: { description: 'must not stay' },
        });
        expect(response.status).toBe(500);
      });
      expect(added).toEqual([]);
      const { rows } = await ctx.db.pool.query('SELECT description FROM hookline.endpoints WHERE id = $1', [
        w.endpointId,
      ]);
      expect(rows[0].description).not.toBe('must not stay');
    } finally {
      await ctx.db.pool.query(
        `DROP TRIGGER test_fail_late ON hookline.audit_events; DROP FUNCTION hookline.test_fail_late();`,
      );
    }
  });

  it('rows are append-only', async () => {
    await expect(ctx.db.pool.query(`UPDATE hookline.audit_events SET action = 'x'`)).rejects.toThrow(/append-only/);
  });
});

describe('GET /api/v1/audit-events', () => {
  it('pages newest first with a cursor, every row once', async () => {
    const total = (await auditRows()).length;
    const seen: string[] = [];
    let cursor: string | undefined;
    do {
      const page = await call('GET', '/v1/audit-events', { key, query: { limit: 7, cursor } });
      expect(page.status, page.text).toBe(200);
      seen.push(...page.body.data.map((row: { id: string }) => row.id));
      cursor = page.body.nextCursor ?? undefined;
    } while (cursor);
    expect(seen).toHaveLength(total);
    expect(new Set(seen).size).toBe(total);
  });

  it('filters by action (a family with a trailing dot), resource and actor', async () => {
    const family = await call('GET', '/v1/audit-events', { key, query: { action: 'alert_rule.', limit: 100 } });
    expect(family.body.data.map((row: { action: string }) => row.action).sort()).toEqual([
      'alert_rule.created',
      'alert_rule.deleted',
      'alert_rule.updated',
    ]);
    const byResource = await call('GET', '/v1/audit-events', { key, query: { resourceId: 'iss_audit' } });
    expect(byResource.body.data).toHaveLength(2);
    const byActor = await call('GET', '/v1/audit-events', { key, query: { actorId: keyId, limit: 100 } });
    expect(byActor.body.data.length).toBeGreaterThan(20);
    expect(byActor.body.data.every((row: { actor: { id: string } }) => row.actor.id === keyId)).toBe(true);
  });

  it('an app-limited key sees its own app only', async () => {
    const limited = await appLimitedKey(w.appId);
    const page = await call('GET', '/v1/audit-events', { key: limited, query: { limit: 100 } });
    expect(page.status).toBe(200);
    expect(page.body.data.length).toBeGreaterThan(0);
    expect(page.body.data.every((row: { appId: string }) => row.appId === w.appId)).toBe(true);
    expect((await call('GET', '/v1/audit-events', { key: limited, query: { appId: 'app_other' } })).status).toBe(404);
  });
});

describe('sensitive changes', () => {
  it('a key for every app raises audit.sensitive_change; an app-limited key does not', async () => {
    const count = async () =>
      (
        await ctx.db.pool.query(
          `SELECT count(*)::int AS n FROM hookline.operational_events WHERE type = 'audit.sensitive_change'`,
        )
      ).rows[0].n as number;
    // A deployment-wide operational endpoint hears of it; one scoped to an app does not.
    const everywhere = await call('POST', '/v1/operational-endpoints', {
      key,
      body: { url: 'https://example.com/all' },
    });
    const scoped = await call('POST', '/v1/operational-endpoints', {
      key,
      body: { url: 'https://example.com/scoped', scopeAppId: w.appId },
    });
    const before = await count();
    await call('POST', '/v1/api-keys', { key, body: { name: 'limited', appId: w.appId } });
    expect(await count()).toBe(before);
    const created = await call('POST', '/v1/api-keys', { key, body: { name: 'everything' } });
    expect(created.status).toBe(201);
    const { rows } = await ctx.db.pool.query(
      `SELECT data, notified FROM hookline.operational_events WHERE type = 'audit.sensitive_change' ORDER BY created_at DESC LIMIT 1`,
    );
    expect(await count()).toBe(before + 1);
    expect(rows[0].data).toMatchObject({
      action: 'api_key.created',
      resource_id: created.body.apiKey.id,
      actor_id: keyId,
      summary: 'audit.sensitive_change for every app',
    });
    const sent = await ctx.db.pool.query<{ target_endpoint_id: string }>(
      `SELECT target_endpoint_id FROM hookline.messages WHERE event_type = 'audit.sensitive_change'`,
    );
    expect(sent.rows.map((row) => row.target_endpoint_id)).toEqual([everywhere.body.id]);
    expect(rows[0].notified).toBe(true);
    expect(scoped.status).toBe(201);
  });
});

describe('the operational event log', () => {
  it('lists audit.sensitive_change only to those who may read the audit log', async () => {
    await ctx.db.pool.query(`SELECT hookline.emit_operational_event($1, 'endpoint.failing', '{}'::jsonb)`, [w.appId]);
    const created = await call('POST', '/v1/api-keys', { key, body: { name: 'for the event log' } });
    expect(created.status, created.text).toBe(201);
    const types = async (as: { key?: string; cookie?: string }) => {
      const listed = await call('GET', '/v1/operational-events', { ...as, query: { limit: '250' } });
      expect(listed.status, listed.text).toBe(200);
      return listed.body.data.map((event: { type: string }) => event.type) as string[];
    };
    expect(await types({ key })).toContain('audit.sensitive_change');
    for (const role of ['developer', 'viewer'] as const) {
      const member = await createMember(ctx.db.pool, { email: `event-log-${role}@hookline.test`, role });
      const listed = await types({ cookie: member.cookie });
      expect(listed, role).not.toContain('audit.sensitive_change');
      // The log itself is still theirs to read.
      expect(listed.length, role).toBeGreaterThan(0);
    }
  });
});

describe('changedFields', () => {
  it.each([
    ['only what differs', { a: 1, b: 2 }, { a: 1, b: 3 }, { before: { b: 2 }, after: { b: 3 } }],
    ['never a secret', null, { secret: 'whsec_x', keyHash: 'h', name: 'n' }, { before: null, after: { name: 'n' } }],
    [
      'header names, not values',
      { headers: { Authorization: 'a' } },
      { headers: { Authorization: 'b' } },
      { before: { headers: { Authorization: '(hidden)' } }, after: { headers: { Authorization: '(hidden)' } } },
    ],
    [
      'not the fields the row itself holds',
      { id: 'a', updatedAt: 1, n: 1 },
      { id: 'a', updatedAt: 2, n: 2 },
      { before: { n: 1 }, after: { n: 2 } },
    ],
  ])('%s', (_what, before, after, expected) => {
    expect(changedFields(before, after)).toEqual(expected);
  });
});

describe('retention', () => {
  it("the worker's retention deletes audit rows older than HOOKLINE_AUDIT_RETENTION and keeps the rest", async () => {
    // Old rows, as a year of history would leave them (inserted: rows are never updated).
    await ctx.db.pool.query(
      `INSERT INTO hookline.audit_events (created_at, actor_type, action, resource_type, resource_id)
       SELECT now() - interval '400 days', 'system', 'app.created', 'app', 'app_old_' || g FROM generate_series(1, 3) AS g`,
    );
    const recent = (await auditRows()).length - 3;
    const result = await applyRetention(ctx.db.pool, {
      retentionMs: 30 * 86_400_000,
      statsRetentionMs: 90 * 86_400_000,
      auditRetentionMs: 365 * 86_400_000,
    });
    expect(result?.auditEvents).toBe(3);
    const left = await auditRows();
    expect(left).toHaveLength(recent);
    expect(left.some((row) => row.resource_id.startsWith('app_old_'))).toBe(false);
  });
});
