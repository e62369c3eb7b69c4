// `npm run demo`: a demo app whose endpoints point at the local demo receiver, and a producer that
// records a few events per second through the SQL way in (hookline.send), the way an application's
// trigger would. Some deliveries fail and retry, one endpoint refuses connections, so every part of
// the dashboard has data within a minute.
import { createServer } from 'node:net';
import { encryptSecret } from '../../lib/runtime/secret-box';
import { createPool, type Pool } from '../../lib/database/pg';
import { generateSecret } from '../../lib/domain/webhooks/sign';
import { startDemoReceiver, type DemoReceiver } from './demo-receiver';

const DEMO_APP_NAME = 'Acme (demo)';
const EVENT_TYPES = [
  ['invoice.paid', 'An invoice was paid in full.'],
  ['customer.created', 'A customer signed up.'],
  ['order.shipped', 'An order left the warehouse.'],
  ['subscription.cancelled', 'A subscription was cancelled.'],
] as const;

interface DemoEndpoint {
  description: string;
  path: string;
  eventTypes: string[];
}

const ENDPOINTS: DemoEndpoint[] = [
  {
    description: 'Billing service (healthy)',
    path: '/billing',
    eventTypes: ['invoice.paid', 'subscription.cancelled'],
  },
  { description: 'CRM sync (flaky: 500s and 429s)', path: '/crm', eventTypes: ['customer.created', 'order.shipped'] },
  { description: 'Analytics (slow, sometimes times out)', path: '/analytics', eventTypes: [] },
];
// A port nothing listens on, so this endpoint shows connect_refused and a growing retry queue.
const REFUSING_ENDPOINT = { description: 'Legacy ERP (down: connection refused)', eventTypes: ['order.shipped'] };

export interface Demo {
  appId: string;
  receiver: DemoReceiver;
  stop(): Promise<void>;
}

export async function startDemo(databaseUrl: string, options: { eventsPerSecond?: number } = {}): Promise<Demo> {
  const receiver = await startDemoReceiver();
  const pool = createPool(databaseUrl, { max: 2 });
  const appId = await seedDemoApp(pool, receiver.url, await closedPort());
  const eventsPerSecond = options.eventsPerSecond ?? 8;
  let sequence = 0;
  const timer = setInterval(() => {
    const batch = Array.from({ length: Math.max(1, Math.round(eventsPerSecond * 0.5 * (0.5 + Math.random()))) }, () =>
      demoEvent(++sequence),
    );
    void pool
      .query(
        `SELECT hookline.send($1, e.type, e.payload)
           FROM jsonb_to_recordset($2::jsonb) AS e(type text, payload jsonb)`,
        [appId, JSON.stringify(batch)],
      )
      .catch(() => {}); // the database is shutting down; the next tick tries again
  }, 500);
  return {
    appId,
    receiver,
    async stop() {
      clearInterval(timer);
      await pool.end().catch(() => {});
      await receiver.close();
    },
  };
}

async function seedDemoApp(pool: Pool, receiverUrl: string, refusingPort: number): Promise<string> {
  const existing = await pool.query<{ id: string }>(
    'SELECT id FROM hookline.apps WHERE name = $1 ORDER BY created_at LIMIT 1',
    [DEMO_APP_NAME],
  );
  const appId =
    existing.rows[0]?.id ??
    (await pool.query<{ id: string }>('INSERT INTO hookline.apps (name) VALUES ($1) RETURNING id', [DEMO_APP_NAME]))
      .rows[0]!.id;
  for (const [name, description] of EVENT_TYPES) {
    await pool.query(
      `INSERT INTO hookline.event_types (app_id, name, description) VALUES ($1, $2, $3)
       ON CONFLICT (app_id, name) DO NOTHING`,
      [appId, name, description],
    );
  }
  const targets = [
    ...ENDPOINTS.map((endpoint) => ({ ...endpoint, url: `${receiverUrl}${endpoint.path}` })),
    { ...REFUSING_ENDPOINT, url: `http://127.0.0.1:${refusingPort}/erp` },
  ];
  // The receiver gets a new port on every run: endpoints are matched by description and re-pointed.
  for (const target of targets) {
    const updated = await pool.query('UPDATE hookline.endpoints SET url = $3 WHERE app_id = $1 AND description = $2', [
      appId,
      target.description,
      target.url,
    ]);
    if (updated.rowCount) continue;
    const { rows } = await pool.query<{ id: string }>(
      `INSERT INTO hookline.endpoints (app_id, url, description, event_types) VALUES ($1, $2, $3, $4) RETURNING id`,
      [appId, target.url, target.description, target.eventTypes],
    );
    await pool.query('INSERT INTO hookline.endpoint_secrets (app_id, endpoint_id, secret) VALUES ($1, $2, $3)', [
      appId,
      rows[0]!.id,
      encryptSecret(generateSecret()),
    ]);
  }
  return appId;
}

function demoEvent(sequence: number): { type: string; payload: unknown } {
  const [type] = EVENT_TYPES[sequence % EVENT_TYPES.length]!;
  const customer = `cus_${(1000 + (sequence % 97)).toString(36)}`;
  switch (type) {
    case 'invoice.paid':
      return {
        type,
        payload: {
          invoiceId: `in_${sequence}`,
          customer,
          amountCents: 1000 + ((sequence * 37) % 9000),
          currency: 'EUR',
        },
      };
    case 'customer.created':
      return {
        type,
        payload: { customer, email: `${customer}@example.com`, plan: sequence % 3 ? 'team' : 'enterprise' },
      };
    case 'order.shipped':
      return { type, payload: { orderId: `ord_${sequence}`, customer, carrier: 'DHL', items: (sequence % 4) + 1 } };
    default:
      return { type, payload: { subscriptionId: `sub_${sequence % 50}`, customer, reason: 'too_expensive' } };
  }
}

function closedPort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const address = probe.address();
      probe.close(() => resolve(typeof address === 'object' && address ? address.port : 1));
    });
  });
}
