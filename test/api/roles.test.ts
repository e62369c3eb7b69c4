/* eslint-disable @typescript-eslint/no-explicit-any -- walks an untyped JSON document */
// What each role may do, for every operation of the OpenAPI document: a member of each role calls
// each one (ids that exist nowhere, an empty body), and the answer is either 403 forbidden, naming
// the role and the permission, or anything else (200, 404, 422: the request got past the role check).
// The expectations are written out here from the roles' definitions in the README, not read from
// lib/http/permissions.ts, so a wrong row in that table fails this test.
import { beforeAll, describe, expect, it } from 'vitest';
import { OPERATION_PERMISSION, PAGE_OPERATION, pageRefusal, type RestrictedPage } from '../../lib/http/permissions';
import { operations } from '../../lib/contract/operations';
import { ROLES, type Role } from '../../lib/domain/auth/roles';
import { createApp } from '../support/fixtures';
import { appLimitedKey, call, ORIGIN, setUpApiTest, type ApiTestContext } from './support/api';
import { createMember, type TestMember } from './support/members';
import { expectError } from './support/expect-error';

let ctx: ApiTestContext;
let document: any;
const members = {} as Record<Role, TestMember>;

beforeAll(async () => {
  ctx = await setUpApiTest();
  for (const role of ROLES) members[role] = await createMember(ctx.db.pool, { email: `${role}@hookline.test`, role });
  document = (await call('GET', '/v1/openapi.json')).body;
});

// Reads a viewer may not make: the signing secret (it forges webhooks), the operational endpoints
// (their secrets and targets), the member list, and the audit log (who did what; owners and admins).
const SENSITIVE_READS = new Set([
  'getEndpointSecrets',
  'listAuditEvents',
  'listOperationalEndpoints',
  'getOperationalEndpoint',
  'listMembers',
  'listMemberSessions',
  'listInvitations',
]);

// A developer builds integrations: apps' settings, event types, endpoints, messages, portal links and
// replays. Not: creating or deleting apps, API keys, operational endpoints, alert rules, issues, members.
const DEVELOPER_WRITES = new Set([
  'updateApp',
  'createEventType',
  'updateEventType',
  'deleteEventType',
  'createEndpoint',
  'updateEndpoint',
  'deleteEndpoint',
  'enableEndpoint',
  'disableEndpoint',
  'getEndpointSecrets',
  'rotateEndpointSecret',
  'sendTestMessage',
  'recoverEndpoint',
  'backfillEndpoint',
  'createMessage',
  'replayMessage',
  'replayDelivery',
  'replayDeliveries',
  'cancelDelivery',
  'createJob',
  'cancelJob',
  'createPortalSession',
  'revokePortalSession',
]);

const MEMBER_OPERATIONS = new Set([
  'listMembers',
  'updateMember',
  'removeMember',
  'listMemberSessions',
  'revokeMemberSessions',
  'listInvitations',
  'createInvitation',
  'revokeInvitation',
]);

function expectedAllowed(role: Role, operationId: string, method: string): boolean {
  if (operationId === 'getOpenApiDocument') return true;
  if (role === 'owner') return true;
  if (role === 'admin') return !MEMBER_OPERATIONS.has(operationId);
  const isRead = method === 'get' && !SENSITIVE_READS.has(operationId);
  if (role === 'viewer') return isRead;
  return isRead || DEVELOPER_WRITES.has(operationId);
}

function documentOperations(): { operationId: string; method: string; path: string }[] {
  const found: { operationId: string; method: string; path: string }[] = [];
  for (const [path, methods] of Object.entries<any>(document.paths)) {
    for (const [method, operation] of Object.entries<any>(methods)) {
      found.push({ operationId: operation.operationId, method, path });
    }
  }
  return found;
}

// Path parameters name nothing that exists: an allowed call then ends in a 404 (or a 422 for its
// empty body) without changing a row, and the walk can go on with the same members.
const concrete = (path: string) => `/v1${path.replace(/\{[^}]+\}/g, 'nothing_here')}`;

describe('every operation of the OpenAPI document, for every role', () => {
  it('has a row in the permission table, and the document has every v1 row', () => {
    const ids = documentOperations().map((operation) => operation.operationId);
    expect(ids.length).toBeGreaterThan(60);
    for (const id of ids) expect(OPERATION_PERMISSION, id).toHaveProperty(id);
  });

  it.each(ROLES)('%s: allowed exactly what the role allows, 403 naming role and permission otherwise', async (role) => {
    const mismatches: string[] = [];
    for (const { operationId, method, path } of documentOperations()) {
      const response = await call(method.toUpperCase(), concrete(path), {
        cookie: members[role].cookie,
        headers: { origin: ORIGIN },
        ...(method === 'get' ? {} : { body: {} }),
      });
      const forbidden = response.status === 403;
      const allowed = expectedAllowed(role, operationId, method);
      if (allowed === forbidden) {
        mismatches.push(
          `${operationId}: expected ${allowed ? 'allowed' : 'forbidden'}, got ${response.status} ${response.text}`,
        );
        continue;
      }
      if (forbidden) {
        expectError(response, 403, 'forbidden');
        const permission = (OPERATION_PERMISSION as Record<string, string>)[operationId]!;
        expect(response.body.error.message).toContain(`The ${role} role may not ${operationId}`);
        expect(response.body.error.message).toContain(`"${permission}" permission`);
      }
    }
    expect(mismatches).toEqual([]);
  });
});

describe('a forbidden call changes nothing', () => {
  it('a viewer creating an app, an endpoint or an invitation leaves every table as it was', async () => {
    const appId = await createApp(ctx.db.pool, 'viewer-proof');
    const count = async () =>
      (
        await ctx.db.pool.query<{ n: string }>(
          `SELECT (SELECT count(*) FROM hookline.apps) + (SELECT count(*) FROM hookline.endpoints)
                + (SELECT count(*) FROM hookline.invitations) AS n`,
        )
      ).rows[0]!.n;
    const before = await count();
    const viewer = { cookie: members.viewer.cookie, headers: { origin: ORIGIN } };
    expectError(await call('POST', '/v1/apps', { ...viewer, body: { name: 'no' } }), 403, 'forbidden');
    expectError(
      await call('POST', `/v1/apps/${appId}/endpoints`, { ...viewer, body: { url: 'https://example.com/x' } }),
      403,
      'forbidden',
    );
    expectError(
      await call('POST', '/v1/invitations', { ...viewer, body: { email: 'x@example.com', role: 'owner' } }),
      403,
      'forbidden',
    );
    expect(await count()).toBe(before);
  });
});

describe('the operations app through the /apps routes', () => {
  const OPS = 'app_hookline_ops';

  it('is for operations.manage only, and never edits its event types or sends its messages', async () => {
    const created = await call('POST', '/v1/operational-endpoints', {
      key: ctx.adminKey,
      body: { url: 'https://hooks.slack.com/services/T000/B000/SECRET', headers: { authorization: 'Bearer pd' } },
    });
    expect(created.status, created.text).toBe(201);
    const endpoint = `/v1/apps/${OPS}/endpoints/${created.body.id}`;
    const before = async () =>
      (
        await ctx.db.pool.query(
          `SELECT (SELECT json_agg(e ORDER BY id) FROM hookline.endpoints e WHERE app_id = $1) AS endpoints,
                  (SELECT count(*) FROM hookline.event_types WHERE app_id = $1) AS event_types,
                  (SELECT count(*) FROM hookline.messages WHERE app_id = $1) AS messages,
                  (SELECT count(*) FROM hookline.portal_sessions WHERE app_id = $1) AS portal_sessions`,
          [OPS],
        )
      ).rows[0];
    const rows = await before();
    const as = (role: Role) => ({ cookie: members[role].cookie, headers: { origin: ORIGIN } });

    for (const path of [`/v1/apps/${OPS}/endpoints`, endpoint, `/v1/apps/${OPS}/messages`, `/v1/apps/${OPS}`]) {
      const refused = await call('GET', path, as('viewer'));
      expectError(refused, 403, 'forbidden');
      expect(refused.body.error.message).toContain('"operations.manage" permission');
      expect(refused.text).not.toContain('SECRET');
    }
    const developer = as('developer');
    for (const [method, path, body] of [
      ['GET', `${endpoint}/secret`, undefined],
      ['PATCH', endpoint, { url: 'https://attacker.example/hook' }],
      ['DELETE', endpoint, undefined],
      ['POST', `/v1/apps/${OPS}/endpoints`, { url: 'https://attacker.example/all' }],
      ['POST', `/v1/apps/${OPS}/messages`, { eventType: 'endpoint.failing', payload: {} }],
      ['POST', `/v1/apps/${OPS}/portal-sessions`, {}],
      ['DELETE', `/v1/apps/${OPS}/event-types/audit.sensitive_change`, undefined],
    ] as const) {
      const refused = await call(method, path, { ...developer, ...(body ? { body } : {}) });
      expectError(refused, 403, 'forbidden');
      expect(refused.body.error.message, `${method} ${path}`).toContain('"operations.manage" permission');
    }

    // An admin looks after the endpoint there, as the dashboard's endpoint page does ...
    expect((await call('GET', endpoint, { key: ctx.adminKey })).status).toBe(200);
    expect((await call('GET', `${endpoint}/secret`, { key: ctx.adminKey })).status).toBe(200);
    // ... but what /operational-endpoints keeps consistent, and Hookline's own event types, stay out of reach.
    for (const [method, path, body] of [
      ['DELETE', `/v1/apps/${OPS}/event-types/audit.sensitive_change`, undefined],
      ['PATCH', `/v1/apps/${OPS}/event-types/audit.sensitive_change`, { description: 'x' }],
      ['POST', `/v1/apps/${OPS}/event-types`, { name: 'made.up' }],
      ['POST', `/v1/apps/${OPS}/endpoints`, { url: 'https://example.com/unscoped' }],
      ['POST', `/v1/apps/${OPS}/messages`, { eventType: 'endpoint.failing', payload: {} }],
      ['POST', `/v1/apps/${OPS}/portal-sessions`, {}],
    ] as const) {
      expectError(await call(method, path, { key: ctx.adminKey, body }), 403, 'forbidden');
    }
    expect(await before()).toEqual(rows);
    // With audit.sensitive_change still there, a deployment-wide key can be created (it emits one).
    const key = await call('POST', '/v1/api-keys', { key: ctx.adminKey, body: { name: 'after the walk' } });
    expect(key.status, key.text).toBe(201);
  });

  it('is listed in GET /apps only to whoever may open it', async () => {
    const listed = async (who: { key?: string; cookie?: string; headers?: Record<string, string> }) => {
      const response = await call('GET', '/v1/apps?limit=250', who);
      expect(response.status, response.text).toBe(200);
      return (response.body.data as { id: string }[]).some((app) => app.id === OPS);
    };
    for (const role of ['viewer', 'developer'] as const) {
      expect(await listed({ cookie: members[role].cookie, headers: { origin: ORIGIN } }), role).toBe(false);
    }
    expect(await listed({ key: ctx.adminKey })).toBe(true);
  });

  it("shows its endpoints' URLs in issues and the overview's worst endpoints to operations.manage alone", async () => {
    const created = await call('POST', '/v1/operational-endpoints', {
      key: ctx.adminKey,
      body: { url: 'https://hooks.slack.com/services/T111/B111/SECRETPATH' },
    });
    expect(created.status, created.text).toBe(201);
    const endpointId = created.body.id as string;
    // It fails: an operational event (its data and summary carry the endpoint's URL) and an issue.
    await ctx.db.pool.query(
      `SELECT hookline.emit_operational_event($1, 'endpoint.failing', '{}'::jsonb, endpoint_id => $2,
                                              issue_class => 'http_5xx')`,
      [OPS, endpointId],
    );
    const { rows } = await ctx.db.pool.query<{ id: string }>('SELECT id FROM hookline.issues WHERE endpoint_id = $1', [
      endpointId,
    ]);
    const issueId = rows[0]!.id;
    await ctx.db.pool.query(
      `SELECT hookline.add_to_rollups(0::smallint, ARRAY[now()], ARRAY[$1], ARRAY[$2], ARRAY[12.5::float8],
                                      ARRAY[500], ARRAY['http_5xx'])`,
      [OPS, endpointId],
    );
    const urlsSeenBy = async (who: { key?: string; cookie?: string; headers?: Record<string, string> }) => {
      const list = await call('GET', '/v1/issues', who);
      const one = await call('GET', `/v1/issues/${issueId}`, who);
      const stats = await call('GET', '/v1/stats', who);
      const events = await call('GET', `/v1/operational-events?appId=${OPS}`, who);
      for (const response of [list, one, stats, events]) expect(response.status, response.text).toBe(200);
      return {
        list: (list.body.data as { id: string; endpointUrl: string | null }[]).find((i) => i.id === issueId)
          ?.endpointUrl,
        one: one.body.endpointUrl,
        worst: (stats.body.worstEndpoints as { endpointId: string; url: string }[]).find(
          (e) => e.endpointId === endpointId,
        )?.url,
        event: (one.body.events as { data: { endpoint_url?: string } }[])[0]?.data.endpoint_url,
        listedEvent: (events.body.data as { endpointId: string | null; data: { endpoint_url?: string } }[]).find(
          (event) => event.endpointId === endpointId,
        )?.data.endpoint_url,
        leaked: [list, one, stats, events].some((response) => response.text.includes('SECRETPATH')),
      };
    };
    const origin = 'https://hooks.slack.com/…';
    for (const role of ['viewer', 'developer'] as const) {
      expect(await urlsSeenBy({ cookie: members[role].cookie, headers: { origin: ORIGIN } }), role).toEqual({
        list: origin,
        one: origin,
        worst: origin,
        event: origin,
        listedEvent: origin,
        leaked: false,
      });
    }
    const full = 'https://hooks.slack.com/services/T111/B111/SECRETPATH';
    expect(await urlsSeenBy({ key: ctx.adminKey })).toEqual({
      list: full,
      one: full,
      worst: full,
      event: full,
      listedEvent: full,
      leaked: true,
    });
  });
});

describe('API keys', () => {
  it('act as admins: operational writes yes, members no', async () => {
    expect((await call('GET', '/v1/apps', { key: ctx.adminKey })).status).toBe(200);
    const refused = await call('GET', '/v1/members', { key: ctx.adminKey });
    expectError(refused, 403, 'forbidden');
    expect(refused.body.error.message).toContain('The admin role may not listMembers');
  });

  it("cannot use the account routes, which are a member's own", async () => {
    expectError(await call('GET', '/auth/sessions', { key: ctx.adminKey }), 403, 'forbidden');
  });
});

describe('a role held to some apps', () => {
  it('sees and changes its apps only; the others do not exist for it', async () => {
    const mine = await createApp(ctx.db.pool, 'mine');
    const also = await createApp(ctx.db.pool, 'also-mine');
    const theirs = await createApp(ctx.db.pool, 'theirs');
    const dev = await createMember(ctx.db.pool, {
      email: 'scoped@hookline.test',
      role: 'developer',
      appIds: [mine, also],
    });
    const as = { cookie: dev.cookie, headers: { origin: ORIGIN } };

    const apps = await call('GET', '/v1/apps', { ...as, query: { limit: 250 } });
    expect(apps.body.data.map((app: { id: string }) => app.id).sort()).toEqual([mine, also].sort());
    const created = await call('POST', `/v1/apps/${mine}/event-types`, { ...as, body: { name: 'order.placed' } });
    expect(created.status, created.text).toBe(201);
    expectError(await call('GET', `/v1/apps/${theirs}`, as), 404, 'not_found');
    expectError(
      await call('POST', `/v1/apps/${theirs}/event-types`, { ...as, body: { name: 'order.placed' } }),
      404,
      'not_found',
    );
    // Across apps it sees all of its own (test/api/app-scoped-member.test.ts), or names one of them.
    expect((await call('GET', '/v1/stats', as)).status).toBe(200);
    expect((await call('GET', '/v1/stats', { ...as, query: { appId: also } })).status).toBe(200);
    expectError(await call('GET', '/v1/stats', { ...as, query: { appId: theirs } }), 404, 'not_found');
    // Deployment-wide operations are not for it, whatever its role.
    expectError(await call('GET', '/v1/api-keys', as), 403, 'key_not_allowed');
  });

  it('refuses a restricted page (and leaves it out of the menu) exactly when the API refuses the operation that loads it', async () => {
    const held = await createApp(ctx.db.pool, 'page-held');
    for (const role of ROLES) {
      for (const appIds of [[], [held]]) {
        const member = await createMember(ctx.db.pool, {
          email: `page-${role}-${appIds.length}@hookline.test`,
          role,
          appIds,
        });
        for (const page of Object.keys(PAGE_OPERATION) as RestrictedPage[]) {
          // The page's operation on the held app, with an empty body: past the checks it answers 200 or 422.
          const operation = operations[PAGE_OPERATION[page]];
          const answer = await call(operation.method, `/v1${operation.path.replace('{appId}', held)}`, {
            cookie: member.cookie,
            headers: { origin: ORIGIN },
            ...(operation.method === 'GET' ? {} : { body: {} }),
          });
          const what = `${role}${appIds.length ? ' held to one app' : ''} on ${page}: ${answer.status} ${answer.text}`;
          expect(answer.status === 403, what).toBe(pageRefusal({ role, appIds }, page) !== null);
        }
      }
    }
  });

  it('held to one app, it reads across apps as that app, as an app-limited key does', async () => {
    const only = await createApp(ctx.db.pool, 'only');
    const viewer = await createMember(ctx.db.pool, { email: 'one-app@hookline.test', role: 'viewer', appIds: [only] });
    const stats = await call('GET', '/v1/stats', { cookie: viewer.cookie });
    expect(stats.status, stats.text).toBe(200);
    const key = await appLimitedKey(only);
    expect((await call('GET', '/v1/stats', { key })).status).toBe(200);
  });
});
