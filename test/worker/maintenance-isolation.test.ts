// The worker's once-a-minute maintenance (worker/maintenance.ts) against a real PostgreSQL whose time
// partitions cannot be maintained (an overflow detached by hand that holds rows, which maintenance
// refuses to guess about): the chores after that step still run. Sealing plaintext endpoint secrets
// stands for them here.
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runMaintenance } from '../../worker/maintenance';
import { WorkerMetrics } from '../../worker/metrics';
import { createTestDatabase, type TestDatabase } from '../support/database';
import { createApp, createEndpoint } from '../support/fixtures';
import { testLogger } from '../support/worker';

let db: TestDatabase;

beforeAll(async () => {
  process.env.HOOKLINE_ENCRYPTION_KEY = randomBytes(32).toString('base64');
  db = await createTestDatabase();
});

afterAll(() => {
  delete process.env.HOOKLINE_ENCRYPTION_KEY;
});

describe('maintenance with time partitions it cannot maintain', () => {
  it('still runs the chores after that step', async () => {
    const appId = await createApp(db.pool, 'Tleilax');
    await createEndpoint(db.pool, appId, 'https://example.com/sealed-anyway');
    await db.pool.query('ALTER TABLE hookline.messages DETACH PARTITION hookline.messages_overflow');
    await db.pool.query(
      `INSERT INTO hookline.messages_overflow (app_id, event_type, payload) VALUES ($1, 'face.dancer', '{}')`,
      [appId],
    );
    const errors: string[] = [];
    const log = { ...testLogger(), error: (message: string) => void errors.push(message) };
    log.child = () => log;
    await runMaintenance({ pool: db.pool, metrics: new WorkerMetrics(), retention: null, log });

    expect(errors).toEqual(['time partitions could not be maintained; the other chores go on']);
    const { rows } = await db.pool.query<{ secret: string }>('SELECT secret FROM hookline.endpoint_secrets');
    expect(rows.map((row) => row.secret.startsWith('hlenc:'))).toEqual([true]);
  });
});
