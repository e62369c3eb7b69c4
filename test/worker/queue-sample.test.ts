// The once-a-minute queue sample splits the queue as the dashboard's cards do (lib/domain/deliveries/
// delivery-states.ts): never tried ('pending', shown as waiting) and tried at least once
// ('scheduled', shown as retrying) whether or not the retry is due yet, so the chart's earlier points
// and its last, live one count the same things.
import { beforeAll, describe, expect, it } from 'vitest';
import { sampleQueueDepth } from '../../worker/maintenance';
import { createTestDatabase, type TestDatabase } from '../support/database';
import { createApp, createEndpoint, createEventType } from '../support/fixtures';

let db: TestDatabase;
let appId: string;

beforeAll(async () => {
  db = await createTestDatabase();
  appId = await createApp(db.pool, 'Ecaz');
  await createEventType(db.pool, appId, 'wood.carved');
});

describe('queue depth sample', () => {
  it('counts a retry as retrying whether its time has come or not', async () => {
    const endpoint = await createEndpoint(db.pool, appId, 'https://example.com/ecaz');
    const { rows } = await db.pool.query<{ id: string }>(
      `INSERT INTO hookline.messages (app_id, event_type, payload, written_by) VALUES ($1, 'wood.carved', '{}', NULL) RETURNING id`,
      [appId],
    );
    await db.pool.query(
      `INSERT INTO hookline.deliveries (id, app_id, message_id, endpoint_id, event_type, state, attempt_count, next_attempt_at,
                                        claimable_at, last_error_class)
       VALUES (hookline.new_uuid($2::uuid), $1, $2, $3, 'wood.carved', 'pending', 0, now(), now(), NULL),
              (hookline.new_uuid($2::uuid), $1, $2, $3, 'wood.carved', 'pending', 2, now() - interval '1 second', now() - interval '1 second', 'timeout'),
              (hookline.new_uuid($2::uuid), $1, $2, $3, 'wood.carved', 'pending', 1, now() + interval '1 hour', now() + interval '1 hour', 'timeout'),
              (hookline.new_uuid($2::uuid), $1, $2, $3, 'wood.carved', 'dead', 8, now(), NULL, 'http_5xx')`,
      [appId, rows[0]!.id, endpoint.id],
    );
    const sampled = await sampleQueueDepth(db.pool);
    expect(Object.fromEntries((sampled ?? []).map((row) => [row.state, Number(row.count)]))).toEqual({
      pending: 1,
      scheduled: 2,
      dead: 1,
    });
  });
});
