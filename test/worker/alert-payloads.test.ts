// Issue 23, items 2 and 3: the Slack and PagerDuty presets' bodies against the receivers' documented
// shapes. PagerDuty Events API v2: routing_key, event_action trigger|acknowledge|resolve, dedup_key
// (at most 255 characters; a resolve must carry the trigger's), and for a trigger a payload with
// summary (at most 1024), source and severity critical|error|warning|info; links are {href, text}.
// Slack incoming webhooks: text (the notification's fallback when there are blocks) and blocks, here
// one section whose text object is mrkdwn (at most 3000 characters). Each body also reads as a person
// would: no empty "()", no siren on good news, a link to the dashboard page of the issue.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createTestDatabase, type TestDatabase } from '../support/database';
import { sendEvent } from '../support/deliveries';
import { createApp, createEndpoint, createEventType } from '../support/fixtures';
import { answer, startReceiver, waitUntil, type Receiver } from '../support/receiver';
import { startTestWorker, stopTestWorkers } from '../support/worker';
import { configureAlerts } from '../../worker/operations/configure-alerts';
import { runOperationsPass } from '../../worker/operations/run-operations-pass';
import { PAGERDUTY_PRESET, SLACK_PRESET } from '../../lib/domain/operational-events/payload-presets';

const OPS = 'app_hookline_ops';
const PUBLIC_URL = 'https://hookline.example.com';

const pagerDutyEvent = z.discriminatedUnion('event_action', [
  z.strictObject({
    routing_key: z.string().min(1),
    event_action: z.literal('trigger'),
    dedup_key: z.string().min(1).max(255),
    payload: z.object({
      summary: z.string().min(1).max(1024),
      source: z.string().min(1),
      severity: z.enum(['critical', 'error', 'warning', 'info']),
      timestamp: z.iso.datetime({ offset: true }).optional(),
      component: z.string().optional(),
      group: z.string().optional(),
      class: z.string().optional(),
    }),
    client: z.string().optional(),
    client_url: z.url().optional(),
    links: z.array(z.strictObject({ href: z.url(), text: z.string() })).optional(),
  }),
  z.object({
    routing_key: z.string().min(1),
    event_action: z.enum(['resolve', 'acknowledge']),
    dedup_key: z.string().min(1).max(255),
  }),
]);

const slackMessage = z.strictObject({
  text: z.string().min(1),
  blocks: z
    .array(
      z.strictObject({
        type: z.literal('section'),
        text: z.strictObject({ type: z.enum(['mrkdwn', 'plain_text']), text: z.string().min(1).max(3000) }),
      }),
    )
    .max(50),
});

let db: TestDatabase;
let app: string;
const receivers: Receiver[] = [];

async function opsEndpoint(template: string): Promise<{ id: string; receiver: Receiver }> {
  const receiver = await startReceiver(answer(202));
  receivers.push(receiver);
  const endpoint = await createEndpoint(db.pool, OPS, receiver.url);
  await db.pool.query(
    'INSERT INTO hookline.operational_endpoints (endpoint_id, scope_app_id, payload_template) VALUES ($1, $2, $3)',
    [endpoint.id, app, template],
  );
  return { id: endpoint.id, receiver };
}

/** The bodies an operational endpoint was sent, read from the messages the emission wrote. */
async function bodiesFor(endpointId: string): Promise<{ type: string; body: Record<string, unknown> }[]> {
  const { rows } = await db.pool.query<{ event_type: string; payload: Record<string, unknown> }>(
    'SELECT event_type, payload FROM hookline.messages WHERE target_endpoint_id = $1 ORDER BY created_at, id',
    [endpointId],
  );
  return rows.map((row) => ({ type: row.event_type, body: row.payload }));
}

beforeAll(async () => {
  db = await createTestDatabase();
  await configureAlerts(db.pool, {
    failingAfterFailures: 3,
    failingAfterMs: 3_600_000,
    recoveredAfterMs: 0,
    minIntervalMs: 0,
    reminderIntervalMs: 0,
    autoResolve: true,
    publicUrl: PUBLIC_URL,
  });
  app = await createApp(db.pool, 'Acme');
});

afterAll(async () => {
  await stopTestWorkers();
  for (const receiver of receivers.splice(0)) await receiver.close();
});

describe('the presets, for every kind of event', () => {
  it('render bodies of the documented shapes, resolving with the trigger’s dedup key', async () => {
    const slack = await opsEndpoint(SLACK_PRESET);
    const pagerDuty = await opsEndpoint(PAGERDUTY_PRESET);
    const endpoint = await createEndpoint(db.pool, app, 'https://acme.example/hooks');
    const health = { consecutive_failures: 5, last_error_class: 'http_5xx', circuit_state: 'closed' };
    const emit = (type: string, data: object, extra = '') =>
      db.pool.query(`SELECT hookline.emit_operational_event($1, $2, $3::jsonb, endpoint_id => $4${extra})`, [
        app,
        type,
        JSON.stringify(data),
        type.startsWith('endpoint.') ? endpoint.id : null,
      ]);
    const alert = {
      alert_rule_id: 'alrt_1',
      kind: 'success_rate_below',
      threshold: 95,
      window_minutes: 5,
      value: 81.25,
      condition: 'success rate below 95 % over 5 min',
    };
    await emit('endpoint.failing', health, ", issue_class => 'http_5xx'");
    await emit(
      'endpoint.recovered',
      { ...health, consecutive_failures: 0 },
      ", issue_class => 'http_5xx', resolves_issue => true",
    );
    await db.pool.query(
      `SELECT hookline.emit_operational_event($1, 'alert.fired', $2::jsonb, issue_class => 'alert', issue_subject => 'alrt_1')`,
      [app, JSON.stringify(alert)],
    );
    await db.pool.query(
      `SELECT hookline.emit_operational_event($1, 'alert.resolved', $2::jsonb, issue_class => 'alert', issue_subject => 'alrt_1', resolves_issue => true)`,
      [app, JSON.stringify({ ...alert, value: 99.5 })],
    );
    await emit('job.finished', { job_id: 'job_1', kind: 'replay', state: 'succeeded', total: 10, processed: 10 });

    const { rows: issues } = await db.pool.query<{ id: string; subject_id: string }>(
      'SELECT id, subject_id FROM hookline.issues WHERE app_id = $1',
      [app],
    );
    const endpointIssue = issues.find((issue) => issue.subject_id === endpoint.id)!.id;
    const alertIssue = issues.find((issue) => issue.subject_id === 'alrt_1')!.id;

    const pd = await bodiesFor(pagerDuty.id);
    expect(pd.map((event) => event.type)).toEqual([
      'endpoint.failing',
      'endpoint.recovered',
      'alert.fired',
      'alert.resolved',
      'job.finished',
    ]);
    for (const { body } of pd) expect(pagerDutyEvent.safeParse(body).error).toBeUndefined();
    expect(pd.map(({ body }) => [body.event_action, body.dedup_key])).toEqual([
      ['trigger', endpointIssue],
      ['resolve', endpointIssue],
      ['trigger', alertIssue],
      ['resolve', alertIssue],
      ['trigger', expect.stringMatching(/^opev_/)],
    ]);
    const fired = pd[2]!.body as { payload: { summary: string }; links: { href: string }[]; client_url: string };
    expect(fired.payload.summary).toBe('Alert for Acme: success rate below 95 % over 5 min, now 81.3 %');
    expect(fired.client_url).toBe(`${PUBLIC_URL}/issues/${alertIssue}`);
    expect(fired.links[0]!.href).toBe(`${PUBLIC_URL}/issues/${alertIssue}`);

    const texts = (await bodiesFor(slack.id)).map(({ body }) => {
      expect(slackMessage.safeParse(body).error).toBeUndefined();
      return body as z.infer<typeof slackMessage>;
    });
    expect(texts.map((body) => body.text)).toEqual([
      ':rotating_light: Endpoint failing for Acme: https://acme.example/hooks, 5 attempts in a row failed (http_5xx)',
      ':white_check_mark: Endpoint recovered for Acme: https://acme.example/hooks',
      ':rotating_light: Alert for Acme: success rate below 95 % over 5 min, now 81.3 %',
      ':white_check_mark: Alert resolved for Acme: success rate below 95 % over 5 min, now 99.5 %',
      ':information_source: Job replay succeeded for Acme: 10 of 10',
    ]);
    for (const body of texts) expect(body.text).not.toMatch(/\(\s*\)/);
    expect(texts[0]!.blocks[0]!.text.text).toContain(`<${PUBLIC_URL}/issues/${endpointIssue}|Open in Hookline>`);
    expect(texts[4]!.blocks[0]!.text.text).toContain(`<${PUBLIC_URL}/apps/${app}/jobs|Open in Hookline>`);
  });
});

describe('end to end through local receivers', () => {
  it('an outage triggers PagerDuty and its recovery resolves the same alert; Slack hears both, once each', async () => {
    const other = await createApp(db.pool, 'Globex');
    app = other;
    const slack = await opsEndpoint(SLACK_PRESET);
    const pagerDuty = await opsEndpoint(PAGERDUTY_PRESET);
    await createEventType(db.pool, other, 'order.paid');
    const customer = await startReceiver(answer(500));
    receivers.push(customer);
    const endpoint = await createEndpoint(db.pool, other, customer.url);
    await startTestWorker(db.url, {
      retrySchedule: [0, 20, 20, 20],
      circuit: { failureThreshold: 1000, openBaseMs: 100, openMaxMs: 200 },
      maintenanceIntervalMs: 0,
    });
    await sendEvent(db.pool, other, 'order.paid', {});
    await waitUntil(() => pagerDuty.receiver.requests.length >= 1, { what: 'the trigger' });
    customer.respond(answer(200));
    await sendEvent(db.pool, other, 'order.paid', {});
    await waitUntil(
      async () => (await runOperationsPass(db.pool))!.endpointsRecovered.includes(endpoint.id) || undefined,
      {
        what: 'recovered',
      },
    );
    await waitUntil(() => pagerDuty.receiver.requests.length >= 2 && slack.receiver.requests.length >= 2, {
      what: 'the resolve',
    });

    const { rows } = await db.pool.query<{ id: string }>('SELECT id FROM hookline.issues WHERE endpoint_id = $1', [
      endpoint.id,
    ]);
    const sent = pagerDuty.receiver.requests.map((request) => pagerDutyEvent.parse(JSON.parse(request.body)));
    expect(sent.map((event) => [event.event_action, event.dedup_key])).toEqual([
      ['trigger', rows[0]!.id],
      ['resolve', rows[0]!.id],
    ]);
    const texts = slack.receiver.requests.map((request) => slackMessage.parse(JSON.parse(request.body)).text);
    expect(texts).toEqual([
      `:rotating_light: Endpoint failing for Globex: ${customer.url}, 3 attempts in a row failed (http_5xx)`,
      `:white_check_mark: Endpoint recovered for Globex: ${customer.url}`,
    ]);
  });
});
