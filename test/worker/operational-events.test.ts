// Operational events end to end through the real engine: an endpoint's transitions (trigger on
// hookline.endpoints), dead deliveries and alert rules (the operations pass) become messages of the
// operations app that the normal fan-out/claim/deliver path sends, signed (Standard Webhooks) with the
// operational endpoint's own secret, to loopback receivers: one deployment-wide with the envelope, one
// Slack-style with a payload template, and one scoped to another app that must get nothing.
import { createHmac } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fanOutQueued, sendEvent } from '../support/deliveries';
import type { TestDatabase } from '../support/database';
import { call, setUpApiTest } from '../api/support/api';
import { countRows, createApp, createEndpoint, createEventType } from '../support/fixtures';
import { answer, startReceiver, waitUntil, type ReceivedRequest, type Receiver } from '../support/receiver';
import { startTestWorker, stopTestWorkers } from '../support/worker';
import { runOperationsPass } from '../../worker/operations/run-operations-pass';
import { configureAlerts } from '../../worker/operations/configure-alerts';

const OPS = 'app_hookline_ops';
let db: TestDatabase;
let adminKey: string;
let appA: string;
let appB: string;
const receivers: Receiver[] = [];
let envelope: { receiver: Receiver; secret: string };
let slack: { receiver: Receiver; secret: string };
let otherApp: { receiver: Receiver; secret: string };

async function receiver(): Promise<Receiver> {
  const started = await startReceiver(answer(200));
  receivers.push(started);
  return started;
}

async function operationalEndpoint(scopeAppId: string | null, template: string | null) {
  const target = await receiver();
  const endpoint = await createEndpoint(db.pool, OPS, target.url);
  await db.pool.query(
    'INSERT INTO hookline.operational_endpoints (endpoint_id, scope_app_id, payload_template) VALUES ($1, $2, $3)',
    [endpoint.id, scopeAppId, template],
  );
  return { receiver: target, secret: endpoint.secret };
}

// Checked with node:crypto directly, not with lib/domain/webhooks/sign.ts: the receiver's point of view.
function verify(request: ReceivedRequest, secret: string): boolean {
  const key = Buffer.from(secret.slice('whsec_'.length), 'base64');
  const expected = createHmac('sha256', key)
    .update(`${request.headers['webhook-id']}.${request.headers['webhook-timestamp']}.${request.body}`)
    .digest('base64');
  return (request.headers['webhook-signature'] ?? '').split(' ').includes(`v1,${expected}`);
}

function bodies(target: Receiver): { type?: string; text?: string; data?: Record<string, unknown> }[] {
  return target.requests.map((request) => JSON.parse(request.body) as { type?: string; text?: string });
}

const typesOf = (target: Receiver) => bodies(target).map((body) => body.type);

beforeAll(async () => {
  // The API's test setup: a database of its own, and the REST routes for reading deliveries back.
  const api = await setUpApiTest();
  db = api.db;
  adminKey = api.adminKey;
  // Every change of an issue sent at once (no minimum interval), recovery as soon as a success comes
  // and the pass runs: what is tested here is what is sent and how; test/worker/alert-flapping.test.ts
  // tests the hysteresis and the grouping in time.
  await configureAlerts(db.pool, {
    failingAfterFailures: 3,
    failingAfterMs: 3_600_000,
    recoveredAfterMs: 0,
    minIntervalMs: 0,
    reminderIntervalMs: 0,
    autoResolve: true,
    publicUrl: 'https://hookline.example.com',
  });
  appA = await createApp(db.pool, 'Acme');
  appB = await createApp(db.pool, 'Other');
  envelope = await operationalEndpoint(null, null);
  slack = await operationalEndpoint(
    appA,
    '{"text": ":rotating_light: {{type}} on {{data.endpoint_url}} ({{data.last_error_class}}) app {{data.app_name}}"}',
  );
  otherApp = await operationalEndpoint(appB, null);
  await startTestWorker(db.url, {
    retrySchedule: [0, 30, 30, 30, 30, 30],
    circuit: { failureThreshold: 5, openBaseMs: 200, openMaxMs: 400 },
    maintenanceIntervalMs: 0,
  });
});

afterAll(async () => {
  await stopTestWorkers();
  for (const target of receivers.splice(0)) await target.close();
});

describe('endpoint transitions', () => {
  it('sends failing, records circuit_opened on its issue, then sends circuit_closed and recovered; signed, templated, scoped', async () => {
    const customer = await receiver();
    customer.respond(answer(500));
    await createEventType(db.pool, appA, 'order.paid');
    const endpoint = await createEndpoint(db.pool, appA, customer.url, { eventTypes: ['order.paid'] });
    await sendEvent(db.pool, appA, 'order.paid', { n: 1 });

    const recorded = async () =>
      (
        await db.pool.query<{ type: string; notified: boolean }>(
          'SELECT type, notified FROM hookline.operational_events WHERE endpoint_id = $1 ORDER BY created_at',
          [endpoint.id],
        )
      ).rows;
    await waitUntil(async () => (await recorded()).some((event) => event.type === 'endpoint.circuit_opened'), {
      what: 'circuit_opened',
    });
    customer.respond(answer(200));
    await waitUntil(() => typesOf(envelope.receiver).includes('endpoint.circuit_closed'), {
      what: 'circuit_closed',
    });
    // Recovery is the operations pass's (HOOKLINE_ALERT_RECOVERED_AFTER without a failure; 0 here).
    await waitUntil(
      async () => (await runOperationsPass(db.pool))!.endpointsRecovered.includes(endpoint.id) || undefined,
      { what: 'recovered' },
    );
    await waitUntil(() => typesOf(envelope.receiver).includes('endpoint.recovered'), { what: 'recovered sent' });

    // In the order they happened: failing at 3 in a row; the circuit at 5 is recorded on the same
    // issue, not sent (the operators were told it is open); then the circuit closes and it recovers.
    expect(await recorded()).toEqual([
      { type: 'endpoint.failing', notified: true },
      { type: 'endpoint.circuit_opened', notified: false },
      { type: 'endpoint.circuit_closed', notified: true },
      { type: 'endpoint.recovered', notified: true },
    ]);
    expect(
      typesOf(envelope.receiver).filter((type) => type?.startsWith('endpoint.') && type !== 'endpoint.disabled'),
    ).toEqual(['endpoint.failing', 'endpoint.circuit_closed', 'endpoint.recovered']);
    const failing = bodies(envelope.receiver).find((body) => body.type === 'endpoint.failing')!;
    expect(failing.data).toMatchObject({
      app_id: appA,
      app_name: 'Acme',
      endpoint_id: endpoint.id,
      endpoint_url: customer.url,
      last_error_class: 'http_5xx',
      consecutive_failures: 3,
    });
    expect(failing.data!.issue_id).toMatch(/^iss_/);
    for (const request of envelope.receiver.requests) {
      expect(verify(request, envelope.secret)).toBe(true);
      expect(request.headers['webhook-id']).toMatch(/^msg_/);
    }

    // The Slack-style endpoint got the same events as its template's JSON, signed over those bytes.
    await waitUntil(() => slack.receiver.requests.length >= envelope.receiver.requests.length, { what: 'slack' });
    const texts = bodies(slack.receiver);
    expect(texts[0]).toEqual({
      text: `:rotating_light: endpoint.failing on ${customer.url} (http_5xx) app Acme`,
    });
    expect(Object.keys(texts[0]!)).toEqual(['text']);
    for (const request of slack.receiver.requests) expect(verify(request, slack.secret)).toBe(true);
    // The dashboard's "request" of that delivery is the bytes sent (copy as curl must verify too).
    const slackMessage = slack.receiver.requests[0]!.headers['webhook-id'];
    const { rows: slackDelivery } = await db.pool.query<{ id: string }>(
      `SELECT hookline.public_id('dlv', id) AS id FROM hookline.deliveries WHERE message_id = hookline.uuid_of($1)`,
      [slackMessage],
    );
    const detail = await call('GET', `/v1/apps/${OPS}/deliveries/${slackDelivery[0]!.id}`, { key: adminKey });
    expect(detail.body.request.body).toBe(slack.receiver.requests[0]!.body);
    // Scoped to another app: nothing about this one.
    expect(otherApp.receiver.requests).toHaveLength(0);

    // One issue for (endpoint, http_5xx), counted once per event, resolved by the recovery.
    const { rows: issues } = await db.pool.query(
      "SELECT * FROM hookline.issues WHERE subject_id = $1 AND error_class = 'http_5xx'",
      [endpoint.id],
    );
    expect(issues).toHaveLength(1);
    expect(issues[0]).toMatchObject({ status: 'resolved', app_id: appA, endpoint_id: endpoint.id });
    expect(issues[0].event_count).toBeGreaterThanOrEqual(2);

    // The operations app's messages are ordinary messages, targeted at one operational endpoint each.
    expect(await countRows(db.pool, 'messages', 'app_id = $1 AND target_endpoint_id IS NULL', [OPS])).toBe(0);
  });

  it('reports a disabled endpoint (410 Gone) and an operator enabling it again', async () => {
    const gone = await receiver();
    gone.respond(answer(410));
    await createEventType(db.pool, appB, 'user.created');
    const endpoint = await createEndpoint(db.pool, appB, gone.url);
    await sendEvent(db.pool, appB, 'user.created', {});
    await waitUntil(() => typesOf(otherApp.receiver).includes('endpoint.disabled'), { what: 'endpoint.disabled' });
    const disabled = bodies(otherApp.receiver).find((body) => body.type === 'endpoint.disabled')!;
    expect(String(disabled.data!.reason)).toContain('410 Gone');
    expect(disabled.data!.endpoint_id).toBe(endpoint.id);
    for (const request of otherApp.receiver.requests) expect(verify(request, otherApp.secret)).toBe(true);

    await db.pool.query('UPDATE hookline.endpoints SET enabled = true, disabled_reason = NULL WHERE id = $1', [
      endpoint.id,
    ]);
    await waitUntil(() => typesOf(otherApp.receiver).includes('endpoint.enabled'), { what: 'endpoint.enabled' });
    // App A's Slack subscription heard nothing of app B.
    expect(bodies(slack.receiver).some((body) => body.text?.includes(gone.url))).toBe(false);
  });
});

describe('the operations pass', () => {
  it('reports new dead deliveries once per endpoint and error class, and reopens a resolved issue', async () => {
    // What the tests above left dead (the 410) is reported by this pass, not the one measured below.
    await runOperationsPass(db.pool);
    const down = await receiver();
    down.respond(answer(503));
    await createEventType(db.pool, appA, 'dead.test');
    const endpoint = await createEndpoint(db.pool, appA, down.url, { eventTypes: ['dead.test'] });
    for (let i = 0; i < 3; i++) await sendEvent(db.pool, appA, 'dead.test', { i });
    await waitUntil(
      async () => (await countRows(db.pool, 'deliveries', "endpoint_id = $1 AND state = 'dead'", [endpoint.id])) === 3,
      { what: 'three dead deliveries' },
    );

    const first = await runOperationsPass(db.pool);
    expect(first).toMatchObject({ deadEvents: 1, deadDeliveries: 3 });
    // Overlapping look-back: the same deliveries are not reported again.
    expect(await runOperationsPass(db.pool)).toMatchObject({ deadEvents: 0, deadDeliveries: 0 });

    // Recorded on the endpoint's issue, which endpoint.failing opened and told: not sent again.
    const { rows: dead } = await db.pool.query<{ data: Record<string, unknown>; notified: boolean }>(
      "SELECT data, notified FROM hookline.operational_events WHERE type = 'delivery.dead' AND endpoint_id = $1",
      [endpoint.id],
    );
    expect(dead).toHaveLength(1);
    expect(dead[0]!.notified).toBe(false);
    expect(
      bodies(envelope.receiver)
        .filter((body) => body.data?.endpoint_id === endpoint.id)
        .map((body) => body.type),
    ).toEqual(['endpoint.failing']);
    expect(dead[0]!.data).toMatchObject({ endpoint_id: endpoint.id, error_class: 'http_5xx', count: 3 });
    expect(dead[0]!.data!.delivery_ids).toHaveLength(3);
    // Public ids, as the API shows them: the event's data leaves the database as it is.
    const { rows: linked } = await db.pool.query<{ id: string }>(
      `SELECT hookline.public_id('dlv', delivery_id) AS id FROM hookline.issue_deliveries
        WHERE delivery_id IN (SELECT id FROM hookline.deliveries WHERE endpoint_id = $1)`,
      [endpoint.id],
    );
    expect([...(dead[0]!.data!.delivery_ids as string[])].sort()).toEqual(linked.map((row) => row.id).sort());

    const issue = await db.pool.query(
      "SELECT * FROM hookline.issues WHERE subject_id = $1 AND error_class = 'http_5xx'",
      [endpoint.id],
    );
    expect(issue.rows[0]).toMatchObject({ affected_deliveries: 3 });
    // Counted into the issue endpoint.failing opened, which keeps its title: a count of dead
    // deliveries does not rename the heading an operator reads.
    expect(issue.rows[0].title).toMatch(/^(Failing|Circuit opened)/);
    expect(await countRows(db.pool, 'issue_deliveries', 'issue_id = $1', [issue.rows[0].id])).toBe(3);

    // Resolved by an operator, then it happens again: the same issue reopens.
    await db.pool.query("UPDATE hookline.issues SET status = 'resolved', resolved_at = now() WHERE id = $1", [
      issue.rows[0].id,
    ]);
    await sendEvent(db.pool, appA, 'dead.test', { again: true });
    await waitUntil(
      async () => (await countRows(db.pool, 'deliveries', "endpoint_id = $1 AND state = 'dead'", [endpoint.id])) === 4,
      { what: 'a fourth dead delivery' },
    );
    expect(await runOperationsPass(db.pool)).toMatchObject({ deadEvents: 1, deadDeliveries: 1 });
    const reopened = await db.pool.query('SELECT * FROM hookline.issues WHERE id = $1', [issue.rows[0].id]);
    expect(reopened.rows[0]).toMatchObject({
      status: 'open',
      reopened_count: 1,
      affected_deliveries: 4,
      resolved_at: null,
      // Reopened by dead deliveries: the title says what reopened it.
      title: 'Deliveries dead (http_5xx)',
    });
  });

  it('fires an alert rule once while its condition holds and resolves it when it clears', async () => {
    const appC = await createApp(db.pool, 'Alerting');
    const flaky = await receiver();
    flaky.respond(answer(500));
    await createEventType(db.pool, appC, 'alert.test');
    const endpoint = await createEndpoint(db.pool, appC, flaky.url);
    const { rows } = await db.pool.query<{ id: string }>(
      `INSERT INTO hookline.alert_rules (app_id, kind, threshold, window_minutes)
       VALUES ($1, 'success_rate_below', 50, 5) RETURNING id`,
      [appC],
    );
    const ruleId = rows[0]!.id;
    // No traffic yet: no evidence, nothing fires.
    expect((await runOperationsPass(db.pool))!.alertsFired).toEqual([]);

    await sendEvent(db.pool, appC, 'alert.test', {});
    await waitUntil(
      async () => (await countRows(db.pool, 'deliveries', "endpoint_id = $1 AND state = 'dead'", [endpoint.id])) === 1,
      { what: 'a dead delivery' },
    );
    expect((await runOperationsPass(db.pool))!.alertsFired).toEqual([ruleId]);
    expect((await runOperationsPass(db.pool))!.alertsFired).toEqual([]);
    const issue = await db.pool.query("SELECT * FROM hookline.issues WHERE subject_id = $1 AND error_class = 'alert'", [
      ruleId,
    ]);
    expect(issue.rows[0]).toMatchObject({ status: 'open', alert_rule_id: ruleId, app_id: appC });

    flaky.respond(answer(200));
    for (let i = 0; i < 20; i++) await sendEvent(db.pool, appC, 'alert.test', { i });
    await waitUntil(
      async () =>
        (await countRows(db.pool, 'deliveries', "endpoint_id = $1 AND state = 'succeeded'", [endpoint.id])) === 20,
      { what: 'twenty successes' },
    );
    const cleared = await runOperationsPass(db.pool);
    expect(cleared).toMatchObject({ alertsFired: [], alertsResolved: [ruleId] });
    const resolved = await db.pool.query('SELECT status FROM hookline.issues WHERE id = $1', [issue.rows[0].id]);
    expect(resolved.rows[0].status).toBe('resolved');

    await waitUntil(() => typesOf(envelope.receiver).includes('alert.resolved'), { what: 'alert.resolved' });
    const fired = bodies(envelope.receiver).find((body) => body.type === 'alert.fired')!;
    expect(fired.data).toMatchObject({ alert_rule_id: ruleId, kind: 'success_rate_below', threshold: 50, value: 0 });
  });

  it('lets another component emit job.finished, and refuses an unknown type by name', async () => {
    await db.pool.query(
      `SELECT hookline.emit_operational_event($1, 'job.finished', '{"job_id": "job_1", "kind": "bulk_replay", "total": 10}')`,
      [appB],
    );
    await waitUntil(() => typesOf(otherApp.receiver).includes('job.finished'), { what: 'job.finished' });
    expect(bodies(otherApp.receiver).find((body) => body.type === 'job.finished')!.data).toMatchObject({
      job_id: 'job_1',
      total: 10,
      app_id: appB,
    });
    await expect(db.pool.query(`SELECT hookline.emit_operational_event($1, 'job.exploded')`, [appB])).rejects.toThrow(
      /unknown operational event type 'job.exploded'/,
    );
  });
  it('deletes events and delivery links older than the retention period, and only those', async () => {
    const { rows } = await db.pool.query<{ id: string }>(
      `SELECT hookline.emit_operational_event($1, 'job.finished', '{"job_id": "job_old", "kind": "bulk_replay"}') AS id`,
      [appB],
    );
    await db.pool.query(
      "UPDATE hookline.operational_events SET created_at = now() - interval '31 days' WHERE id = $1",
      [rows[0]!.id],
    );
    await db.pool.query(
      "INSERT INTO hookline.issue_deliveries (issue_id, delivery_id, app_id, detected_at) VALUES ('iss_old', hookline.new_uuid(), $1, now() - interval '31 days')",
      [appB],
    );
    const before = await countRows(db.pool, 'operational_events');
    const links = await countRows(db.pool, 'issue_deliveries');
    await runOperationsPass(db.pool, { retentionMs: 30 * 86_400_000 });
    expect(await countRows(db.pool, 'operational_events', 'id = $1', [rows[0]!.id])).toBe(0);
    expect(await countRows(db.pool, 'operational_events')).toBe(before - 1);
    expect(await countRows(db.pool, 'issue_deliveries')).toBe(links - 1);
  });
});

describe('alert rules on the queue and on dead deliveries', () => {
  it('fires oldest_waiting_above for a delivery due and unsent too long, and dead_per_hour_above', async () => {
    // No worker from here on: a due delivery stays unsent.
    await stopTestWorkers();
    const appD = await createApp(db.pool, 'Backlogged');
    await createEventType(db.pool, appD, 'queue.test');
    await createEndpoint(db.pool, appD, 'http://127.0.0.1:9/unused');
    await sendEvent(db.pool, appD, 'queue.test', {});
    await fanOutQueued(db.pool);
    const { rows: rules } = await db.pool.query<{ id: string; kind: string }>(
      `INSERT INTO hookline.alert_rules (app_id, kind, threshold) VALUES ($1, 'oldest_waiting_above', 300),
              ($2, 'dead_per_hour_above', 3) RETURNING id, kind`,
      [appD, appA],
    );
    const waiting = rules.find((rule) => rule.kind === 'oldest_waiting_above')!.id;
    const dead = rules.find((rule) => rule.kind === 'dead_per_hour_above')!.id;

    // Due for a minute: under the threshold.
    await db.pool.query("UPDATE hookline.deliveries SET claimable_at = now() - interval '1 minute' WHERE app_id = $1", [
      appD,
    ]);
    // App A had 4 dead deliveries counted in the last hour (the test above): more than 3.
    expect((await runOperationsPass(db.pool))!.alertsFired).toEqual([dead]);

    await db.pool.query(
      "UPDATE hookline.deliveries SET claimable_at = now() - interval '10 minutes' WHERE app_id = $1",
      [appD],
    );
    const fired = await runOperationsPass(db.pool);
    expect(fired!.alertsFired).toEqual([waiting]);
    const { rows } = await db.pool.query<{ firing: boolean; last_value: number }>(
      'SELECT firing, last_value FROM hookline.alert_rules WHERE id = $1',
      [waiting],
    );
    expect(rows[0]!.firing).toBe(true);
    expect(rows[0]!.last_value).toBeGreaterThan(590);

    // Sent (here: cancelled) at last: the rule clears, its issue is resolved.
    await db.pool.query("UPDATE hookline.deliveries SET state = 'cancelled', claimable_at = NULL WHERE app_id = $1", [
      appD,
    ]);
    expect((await runOperationsPass(db.pool))!.alertsResolved).toEqual([waiting]);
    const issue = await db.pool.query(
      "SELECT status FROM hookline.issues WHERE subject_id = $1 AND error_class = 'alert'",
      [waiting],
    );
    expect(issue.rows[0].status).toBe('resolved');
  });
});
