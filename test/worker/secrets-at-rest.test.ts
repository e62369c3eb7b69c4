// Secrets at rest (issue 24, item 6) on a real database and worker: a database holding plaintext
// secrets (as before encryption existed) is sealed, every secret is then encrypted and the worker's
// signatures still verify with the original secrets; a key change rewraps every row to the new key
// while both keys are set, and after it the new key alone opens them.
import { randomBytes } from 'node:crypto';
import { Webhook } from 'standardwebhooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sealEndpointSecrets } from '../../lib/database/seal-endpoint-secrets';
import { decryptSecret, encryptionKeyFrom, getEncryptionKeys, keyIdOf } from '../../lib/runtime/secret-box';
import { sendEvent, waitForDelivery } from '../support/deliveries';
import { createTestDatabase, type TestDatabase } from '../support/database';
import { createApp, createEndpoint, createEventType } from '../support/fixtures';
import { startReceiver, type Receiver } from '../support/receiver';
import { startTestWorker, stopTestWorkers } from '../support/worker';

const KEY_A = randomBytes(32).toString('base64');
const KEY_B = randomBytes(32).toString('base64');

let db: TestDatabase;
let appId: string;
let receiver: Receiver;
let endpoints: { id: string; secret: string }[];

async function storedSecrets(): Promise<string[]> {
  const { rows } = await db.pool.query<{ secret: string }>('SELECT secret FROM hookline.endpoint_secrets ORDER BY id');
  return rows.map((row) => row.secret);
}

async function deliverAndVerify(endpoint: { id: string; secret: string }, path: string): Promise<void> {
  const messageId = await sendEvent(db.pool, appId, `sealed.${path}`, { path });
  await waitForDelivery(db.pool, messageId, (row) => row.state === 'succeeded');
  const request = receiver.requests.find((candidate) => candidate.path === `/${path}`)!;
  expect(new Webhook(endpoint.secret).verify(request.body, request.headers)).toMatchObject({ data: { path } });
}

beforeAll(async () => {
  process.env.HOOKLINE_ENCRYPTION_KEY = KEY_A;
  delete process.env.HOOKLINE_ENCRYPTION_KEY_PREVIOUS;
  db = await createTestDatabase();
  appId = await createApp(db.pool);
  receiver = await startReceiver();
  // Plaintext rows, written with SQL as every release before this one stored them.
  endpoints = [];
  for (const path of ['one', 'two', 'three']) {
    await createEventType(db.pool, appId, `sealed.${path}`);
    endpoints.push(await createEndpoint(db.pool, appId, `${receiver.url}/${path}`, { eventTypes: [`sealed.${path}`] }));
  }
});

afterAll(async () => {
  await stopTestWorkers();
  await receiver.close();
  delete process.env.HOOKLINE_ENCRYPTION_KEY;
  delete process.env.HOOKLINE_ENCRYPTION_KEY_PREVIOUS;
});

describe('sealing a database that holds plaintext secrets', () => {
  it('encrypts every row with the current key; each still opens to its secret', async () => {
    expect((await storedSecrets()).every((secret) => secret.startsWith('whsec_'))).toBe(true);
    const result = await sealEndpointSecrets(db.pool);
    expect(result).toEqual({ encrypted: 3, rewrapped: 0, unknownKey: 0 });
    const stored = await storedSecrets();
    expect(stored.every((secret) => keyIdOf(secret) === encryptionKeyFrom(KEY_A).id)).toBe(true);
    expect(stored.map((secret) => decryptSecret(secret)).sort()).toEqual(endpoints.map((e) => e.secret).sort());
    // A second run has nothing to do and changes no row.
    expect(await sealEndpointSecrets(db.pool)).toEqual({ encrypted: 0, rewrapped: 0, unknownKey: 0 });
    expect(await storedSecrets()).toEqual(stored);
  });

  it('the worker signs with the decrypted secrets: a receiver verifies with the original one', async () => {
    await startTestWorker(db.url);
    await deliverAndVerify(endpoints[0]!, 'one');
    await stopTestWorkers();
  });
});

describe('changing the key', () => {
  it('with both keys set, rewraps every row to the new key; then the new key alone opens them', async () => {
    process.env.HOOKLINE_ENCRYPTION_KEY = KEY_B;
    process.env.HOOKLINE_ENCRYPTION_KEY_PREVIOUS = KEY_A;
    // A worker started during the change signs with rows of either key.
    await startTestWorker(db.url);
    await deliverAndVerify(endpoints[1]!, 'two');
    await stopTestWorkers();

    expect(await sealEndpointSecrets(db.pool)).toEqual({ encrypted: 0, rewrapped: 3, unknownKey: 0 });
    delete process.env.HOOKLINE_ENCRYPTION_KEY_PREVIOUS;
    const onlyB = getEncryptionKeys();
    expect(onlyB.previous).toBeNull();
    const stored = await storedSecrets();
    expect(stored.every((secret) => keyIdOf(secret) === encryptionKeyFrom(KEY_B).id)).toBe(true);
    await startTestWorker(db.url);
    await deliverAndVerify(endpoints[2]!, 'three');
  });

  it('a process without the key that wrapped a row leaves the row alone and counts it', async () => {
    const before = await storedSecrets();
    process.env.HOOKLINE_ENCRYPTION_KEY = randomBytes(32).toString('base64');
    try {
      expect(await sealEndpointSecrets(db.pool)).toEqual({ encrypted: 0, rewrapped: 0, unknownKey: 3 });
      expect(await storedSecrets()).toEqual(before);
    } finally {
      process.env.HOOKLINE_ENCRYPTION_KEY = KEY_B;
    }
  });
});
