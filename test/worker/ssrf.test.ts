// SSRF through the real worker: a name resolving to a blocked address, IP literals in every notation
// and redirects are refused with ZERO connections reaching a canary listener on loopback. Private and
// metadata addresses are never contacted: the policy refuses them before any socket exists (the
// preamble forbids sending a packet there, so their proof is the error and the absence of a connect).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Resolver } from '../../worker/resolve-and-pin';
import { attemptsOf, sendEvent, waitForDelivery, type AttemptRow } from '../support/deliveries';
import { createTestDatabase, type TestDatabase } from '../support/database';
import { createApp, createEndpoint, createEventType } from '../support/fixtures';
import { answer, startReceiver, startTcpListener, type Receiver, type TcpListener } from '../support/receiver';
import { startTestWorker, stopTestWorkers } from '../support/worker';

let db: TestDatabase;
let appId: string;
let canary: TcpListener;
const resolved: string[] = [];

// The injected DNS: names a test points at blocked addresses, recorded so a test can tell that a
// literal never went through DNS.
const resolver: Resolver = (hostname) => {
  resolved.push(hostname);
  const table: Record<string, string[]> = {
    'canary.test': ['127.0.0.1'],
    'metadata.test': ['169.254.169.254'],
    'intranet.test': ['10.1.2.3'],
    // A rebinding-style answer: one allowed address and one that is not.
    'mixed.test': ['127.0.0.1', '169.254.169.254'],
    'ula.test': ['fd12:3456:789a::1'],
  };
  const addresses = table[hostname];
  return addresses
    ? Promise.resolve(addresses)
    : Promise.reject(Object.assign(new Error(`getaddrinfo ENOTFOUND ${hostname}`), { code: 'ENOTFOUND' }));
};

beforeAll(async () => {
  db = await createTestDatabase();
  appId = await createApp(db.pool);
  // Accepts and immediately closes: any connection at all is a failure of the policy.
  canary = await startTcpListener((socket) => socket.destroy());
});

afterAll(async () => {
  await stopTestWorkers();
  await canary.close();
});

let counter = 0;
async function attemptAgainst(url: string): Promise<AttemptRow> {
  const eventType = `ssrf.${++counter}`;
  await createEventType(db.pool, appId, eventType);
  await createEndpoint(db.pool, appId, url, { eventTypes: [eventType] });
  const messageId = await sendEvent(db.pool, appId, eventType);
  const delivery = await waitForDelivery(
    db.pool,
    messageId,
    (row) => row.state === 'dead' || row.state === 'succeeded',
  );
  return (await attemptsOf(db.pool, delivery.id))[0]!;
}

describe('with the default policy (no loopback, no private networks)', () => {
  beforeAll(async () => {
    await startTestWorker(db.url, {
      retrySchedule: [0],
      addressPolicy: { allowLoopback: false, allowPrivate: false },
      resolve: resolver,
    });
  });
  afterAll(() => stopTestWorkers());

  it('refuses a name that resolves to loopback: blocked_address, and the canary saw nothing', async () => {
    const attempt = await attemptAgainst(`http://canary.test:${canary.port}/hook`);
    expect(attempt).toMatchObject({ error_class: 'blocked_address', status_code: null });
    expect(attempt.error_message).toMatch(/canary\.test.*loopback/);
    expect(canary.connections).toBe(0);
  });

  it.each([
    ['decimal', '2130706433'],
    ['hex', '0x7f000001'],
    ['octal', '017700000001'],
    ['short', '127.1'],
    ['mixed radix', '0x7f.0.0.01'],
    ['IPv4-mapped IPv6', '[::ffff:127.0.0.1]'],
    ['IPv4-mapped IPv6 in hex', '[::ffff:7f00:1]'],
    ['trailing dot', '127.0.0.1.'],
  ])('refuses a loopback literal in %s notation (%s) without DNS or a connection', async (_label, host) => {
    const before = resolved.length;
    const attempt = await attemptAgainst(`http://${host}:${canary.port}/`);
    expect(attempt.error_class).toBe('blocked_address');
    expect(canary.connections).toBe(0);
    expect(resolved.length).toBe(before);
  });

  it.each([
    ['cloud metadata by name', 'http://metadata.test/latest/meta-data/', /cloud-metadata/],
    ['cloud metadata literal', 'http://169.254.169.254/latest/meta-data/', /cloud-metadata/],
    ['a private network by name', 'http://intranet.test/', /private/],
    ['a private literal', 'http://192.168.0.10/', /private/],
    ['an IPv6 unique-local name', 'http://ula.test/', /ipv6-ula/],
  ])('refuses %s before connecting', async (_label, url, reason) => {
    const attempt = await attemptAgainst(url);
    expect(attempt).toMatchObject({ error_class: 'blocked_address', status_code: null });
    expect(attempt.error_message).toMatch(reason);
    expect(attempt.duration_ms).toBeLessThan(500);
  });
});

describe('with HOOKLINE_ALLOW_LOOPBACK', () => {
  let receiver: Receiver;
  beforeAll(async () => {
    receiver = await startReceiver(answer(200, 'ok'));
    await startTestWorker(db.url, {
      retrySchedule: [0],
      addressPolicy: { allowLoopback: true, allowPrivate: false },
      resolve: resolver,
      // The control reads its success back from the attempts table like the refusals.
      keepSuccessfulAttempts: true,
    });
  });
  afterAll(async () => {
    await stopTestWorkers();
    await receiver.close();
  });

  it('delivers to a name that resolves to loopback (the control for the tests above)', async () => {
    const attempt = await attemptAgainst(`http://canary.test:${receiver.port}/`);
    expect(attempt).toMatchObject({ error_class: null, status_code: 200 });
  });

  it('refuses a name whose answers include any blocked address', async () => {
    const attempt = await attemptAgainst(`http://mixed.test:${canary.port}/`);
    expect(attempt.error_class).toBe('blocked_address');
    expect(canary.connections).toBe(0);
  });

  it('still refuses 0.0.0.0, which Linux would route to this host', async () => {
    const attempt = await attemptAgainst(`http://0.0.0.0:${canary.port}/`);
    expect(attempt.error_class).toBe('blocked_address');
    expect(canary.connections).toBe(0);
  });

  it('still refuses private networks', async () => {
    expect((await attemptAgainst('http://10.0.0.1/')).error_class).toBe('blocked_address');
  });

  it.each([
    ['a cloud metadata address', () => 'http://169.254.169.254/latest/meta-data/iam/'],
    ['the canary', () => `http://canary.test:${canary.port}/`],
  ])('does not follow a redirect to %s', async (_label, location) => {
    const redirecting = await startReceiver(answer(307, '', { location: location() }));
    const attempt = await attemptAgainst(redirecting.url);
    await redirecting.close();
    expect(attempt).toMatchObject({ error_class: 'http_3xx', status_code: 307 });
    expect(redirecting.requests).toHaveLength(1);
    expect(canary.connections).toBe(0);
  });
});
