// A member held to several apps, on the dashboard's cross-app pages (overview, issues, the operational
// event log, the audit log): every list and sum covers all of its apps, filtered in the database, and
// never a third app's rows; it is not told to name one app (the 400 these answered before).
import { beforeAll, describe, expect, it } from 'vitest';
import { insertRollup } from '../support/rollups';
import { call, ORIGIN, setUpApiTest, type ApiTestContext } from './support/api';
import { createMember, type TestMember } from './support/members';
import { createAppWorld, type AppWorld } from './support/world';
import { expectError } from './support/expect-error';

let ctx: ApiTestContext;
let mine: AppWorld;
let also: AppWorld;
let theirs: AppWorld;
let developer: TestMember;
let admin: TestMember;
const issueOf: Record<string, string> = {};

const as = (member: TestMember) => ({ cookie: member.cookie, headers: { origin: ORIGIN } });
const ids = (rows: { appId: string }[]) => [...new Set(rows.map((row) => row.appId))].sort();

beforeAll(async () => {
  ctx = await setUpApiTest();
  mine = await createAppWorld(ctx.db.pool, 'mine');
  also = await createAppWorld(ctx.db.pool, 'also');
  theirs = await createAppWorld(ctx.db.pool, 'theirs');
  // Failed attempts 1, 2 and 4 in the last minutes, so each app's share of a sum shows.
  const minute = new Date(Date.now() - 5 * 60_000);
  // The worker samples every app at once: one sampled_at for all three.
  const sampledAt = new Date(Date.now() - 20 * 60_000);
  for (const [world, attempts] of [
    [mine, 1],
    [also, 2],
    [theirs, 4],
  ] as const) {
    await insertRollup(ctx.db.pool, {
      minute,
      appId: world.appId,
      endpointId: world.endpointId,
      outcome: 'failed',
      errorClass: `class_${attempts}`,
      statusCode: 500 + attempts,
      attempts,
      latencyBuckets: [attempts, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0],
    });
    const issue = await ctx.db.pool.query<{ id: string }>(
      `INSERT INTO hookline.issues (app_id, subject_id, endpoint_id, error_class, title)
       VALUES ($1, $2, $2, 'http_5xx', 'failing') RETURNING id`,
      [world.appId, world.endpointId],
    );
    issueOf[world.appId] = issue.rows[0]!.id;
    await ctx.db.pool.query(
      `INSERT INTO hookline.operational_events (app_id, type, endpoint_id, issue_id, data)
       VALUES ($1, 'endpoint.failing', $2, $3, '{}')`,
      [world.appId, world.endpointId, issue.rows[0]!.id],
    );
    await ctx.db.pool.query(
      `INSERT INTO hookline.audit_events (app_id, actor_type, action, resource_type, resource_id)
       VALUES ($1, 'system', 'endpoint.updated', 'endpoint', $2)`,
      [world.appId, world.endpointId],
    );
    await ctx.db.pool.query(
      `INSERT INTO hookline.queue_depth_samples (sampled_at, app_id, state, count) VALUES ($1, $2, 'dead', $3)`,
      [sampledAt, world.appId, attempts],
    );
  }
  const held = [mine.appId, also.appId];
  developer = await createMember(ctx.db.pool, { email: 'two-apps-dev@hookline.test', role: 'developer', appIds: held });
  admin = await createMember(ctx.db.pool, { email: 'two-apps-admin@hookline.test', role: 'admin', appIds: held });
});

describe('a member held to two apps, across apps', () => {
  it('the overview sums both of its apps and nothing of the third', async () => {
    const stats = await call('GET', '/v1/stats', as(developer));
    expect(stats.status, stats.text).toBe(200);
    expect(stats.body.totals.attempts).toBe(3);
    expect(stats.body.totals.failed).toBe(3);
    expect(stats.body.errorClasses.map((row: { errorClass: string }) => row.errorClass).sort()).toEqual([
      'class_1',
      'class_2',
    ]);
    // One dead delivery in each world.
    expect(stats.body.queue.dead).toBe(2);
    expect(ids(stats.body.worstEndpoints)).toEqual([mine.appId, also.appId].sort());
    const sampled = stats.body.series.filter((point: { dead: number | null }) => point.dead !== null && point.dead > 0);
    expect(sampled.map((point: { dead: number }) => point.dead)).toContain(3);
    expect(sampled.every((point: { dead: number }) => point.dead <= 3)).toBe(true);

    const one = await call('GET', '/v1/stats', { ...as(developer), query: { appId: also.appId } });
    expect(one.body.totals.attempts).toBe(2);
    expectError(await call('GET', '/v1/stats', { ...as(developer), query: { appId: theirs.appId } }), 404, 'not_found');
    // An endpoint of the third app is not found either.
    expectError(
      await call('GET', '/v1/stats', { ...as(developer), query: { endpointId: theirs.endpointId } }),
      404,
      'not_found',
    );
  });

  it('the issues list, its counts and each issue: its apps only', async () => {
    const list = await call('GET', '/v1/issues', { ...as(developer), query: { limit: 100 } });
    expect(list.status, list.text).toBe(200);
    expect(ids(list.body.data)).toEqual([mine.appId, also.appId].sort());
    const counts = await call('GET', '/v1/issues/counts', as(developer));
    expect(counts.status, counts.text).toBe(200);
    expect(counts.body).toEqual({ open: 2, acknowledged: 0, resolved: 0 });
    expect((await call('GET', `/v1/issues/${issueOf[also.appId]}`, as(developer))).status).toBe(200);
    expectError(await call('GET', `/v1/issues/${issueOf[theirs.appId]}`, as(developer)), 404, 'not_found');
  });

  it("acts on the issues of its apps, and the third app's stay as they were", async () => {
    const acknowledged = await call('POST', `/v1/issues/${issueOf[also.appId]}/acknowledge`, {
      ...as(admin),
      body: {},
    });
    expect(acknowledged.status, acknowledged.text).toBe(200);
    const muted = await call('POST', `/v1/issues/${issueOf[mine.appId]}/mute`, { ...as(admin), body: { minutes: 5 } });
    expect(muted.status, muted.text).toBe(200);
    expectError(
      await call('POST', `/v1/issues/${issueOf[theirs.appId]}/resolve`, { ...as(admin), body: {} }),
      404,
      'not_found',
    );
    expectError(
      await call('POST', `/v1/issues/${issueOf[theirs.appId]}/mute`, { ...as(admin), body: { minutes: 5 } }),
      404,
      'not_found',
    );
    const { rows } = await ctx.db.pool.query(`SELECT status, muted_until FROM hookline.issues WHERE id = $1`, [
      issueOf[theirs.appId],
    ]);
    expect(rows).toEqual([{ status: 'open', muted_until: null }]);
  });

  it('the operational event log: its apps only', async () => {
    const events = await call('GET', '/v1/operational-events', { ...as(developer), query: { limit: 100 } });
    expect(events.status, events.text).toBe(200);
    expect(ids(events.body.data)).toEqual([mine.appId, also.appId].sort());
  });

  it('the audit log: its apps only', async () => {
    const audit = await call('GET', '/v1/audit-events', { ...as(admin), query: { limit: 100 } });
    expect(audit.status, audit.text).toBe(200);
    expect(audit.body.data.length).toBeGreaterThanOrEqual(2);
    expect(ids(audit.body.data)).toEqual([mine.appId, also.appId].sort());
    expectError(
      await call('GET', '/v1/audit-events', { ...as(admin), query: { appId: theirs.appId } }),
      404,
      'not_found',
    );
  });
});
