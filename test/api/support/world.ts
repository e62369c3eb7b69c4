// A populated app for API tests, built with SQL so the fixtures do not depend on the code under test.
import type { Pool } from '../../../lib/database/pg';
import { createApp, createEndpoint, createEventType } from '../../support/fixtures';
import { fanOutQueued } from '../../support/deliveries';

export interface AppWorld {
  appId: string;
  endpointId: string;
  secret: string;
  messageId: string;
  deliveryId: string;
  attemptId: string;
  /** A queued replay job (hookline.jobs). */
  jobId: string;
}

/** An app with two event types, one endpoint, one message whose delivery is dead after one failed attempt. */
export async function createAppWorld(pool: Pool, name: string): Promise<AppWorld> {
  const appId = await createApp(pool, name);
  await createEventType(pool, appId, 'invoice.paid');
  await createEventType(pool, appId, 'user.created');
  const endpoint = await createEndpoint(pool, appId, `https://example.com/${name}`);
  const { rows } = await pool.query<{ id: string }>(`SELECT hookline.send($1, 'invoice.paid', '{"amount": 1}') AS id`, [
    appId,
  ]);
  const messageId = rows[0]!.id;
  await fanOutQueued(pool);
  // Ids as the API shows them: stored as uuid, public as 'msg_…' / 'dlv_…' (migration 20261208090000_ids_as_uuid).
  const delivery = await pool.query<{ id: string }>(
    `SELECT hookline.public_id('dlv', id) AS id FROM hookline.deliveries WHERE message_id = hookline.uuid_of($1)`,
    [messageId],
  );
  const deliveryId = delivery.rows[0]!.id;
  const attemptId = await insertFailedAttempt(pool, { appId, deliveryId, messageId, endpointId: endpoint.id });
  await pool.query(
    `UPDATE hookline.deliveries SET state = 'dead', attempt_count = 1, last_attempt_at = now(), last_status_code = 500,
            last_error_class = 'http_5xx', claimable_at = NULL WHERE id = hookline.uuid_of($1)`,
    [deliveryId],
  );
  const job = await pool.query<{ id: string }>(
    `INSERT INTO hookline.jobs (app_id, kind, params, total) VALUES ($1, 'replay', '{"filter": {"state": "dead"}}', 1)
     RETURNING id`,
    [appId],
  );
  return {
    appId,
    endpointId: endpoint.id,
    secret: endpoint.secret,
    messageId,
    deliveryId,
    attemptId,
    jobId: job.rows[0]!.id,
  };
}

export async function insertFailedAttempt(
  pool: Pool,
  ids: { appId: string; deliveryId: string; messageId: string; endpointId: string },
  attemptNumber = 1,
): Promise<string> {
  const { rows } = await pool.query<{ id: string }>(
    `INSERT INTO hookline.attempts (id, app_id, delivery_id, message_id, endpoint_id, attempt_number, worker_id, started_at,
            duration_ms, status_code, error_class, error_message, request_headers, response_headers, response_body)
     VALUES (hookline.new_id('atmpt', hookline.uuid_of($2)), $1, hookline.uuid_of($2), hookline.uuid_of($3), $4, $5, 'worker-test', now(), 12.5, 500, 'http_5xx', 'HTTP 500', '{"webhook-id": "x"}',
             '{"content-type": "text/plain"}', 'boom') RETURNING id`,
    [ids.appId, ids.deliveryId, ids.messageId, ids.endpointId, attemptNumber],
  );
  return rows[0]!.id;
}

const TABLES = ['apps', 'event_types', 'endpoints', 'endpoint_secrets', 'messages', 'deliveries', 'attempts', 'jobs'];

/** A fingerprint of every row the API can change (API keys without last_used_at, which auth touches). */
export async function snapshotRows(pool: Pool): Promise<Record<string, string>> {
  const snapshot: Record<string, string> = {};
  for (const table of TABLES) {
    const { rows } = await pool.query<{ digest: string | null }>(
      `SELECT md5(coalesce(string_agg(t::text, '|' ORDER BY t::text), '')) AS digest FROM hookline.${table} t`,
    );
    snapshot[table] = rows[0]!.digest ?? '';
  }
  const keys = await pool.query<{ digest: string }>(
    `SELECT md5(coalesce(string_agg(id || name || coalesce(revoked_at::text, '-'), '|' ORDER BY id), '')) AS digest
       FROM hookline.api_keys`,
  );
  snapshot.api_keys = keys.rows[0]!.digest;
  return snapshot;
}

export interface DeliveryFixture {
  appId: string;
  endpointId: string;
  eventType?: string;
  state?: 'pending' | 'delivering' | 'succeeded' | 'dead' | 'cancelled';
  attemptCount?: number;
  /** Seconds from now; negative is in the past. */
  nextAttemptInSeconds?: number;
  createdSecondsAgo?: number;
  lastStatusCode?: number | null;
  lastErrorClass?: string | null;
}

/** A message with exactly one delivery in the given state, inserted directly (no fan-out); public ids. */
export async function insertDelivery(
  pool: Pool,
  fixture: DeliveryFixture,
): Promise<{ messageId: string; deliveryId: string }> {
  const eventType = fixture.eventType ?? 'invoice.paid';
  const createdAt = `now() - make_interval(secs => ${Number(fixture.createdSecondsAgo ?? 0)})`;
  // As a producer writes it: the id carries the time created_at says (lists that walk go by id).
  const message = await pool.query<{ id: string }>(
    `INSERT INTO hookline.messages (id, app_id, event_type, payload, created_at, written_by)
     SELECT (substr(hookline.id_at('', t), 1, 12) || substr(hookline.new_id(''), 14))::uuid, $1, $2, '{"n": 1}', t, NULL
       FROM (SELECT ${createdAt} AS t) AS at
     RETURNING hookline.public_id('msg', id) AS id`,
    [fixture.appId, eventType],
  );
  const messageId = message.rows[0]!.id;
  const state = fixture.state ?? 'pending';
  const delivery = await pool.query<{ id: string }>(
    `INSERT INTO hookline.deliveries (id, app_id, message_id, endpoint_id, event_type, state, attempt_count, next_attempt_at,
            claimable_at, lease_owner, lease_expires_at, last_attempt_at, last_status_code, last_error_class, created_at,
            updated_at)
     VALUES (hookline.new_uuid(hookline.uuid_of($2)), $1, hookline.uuid_of($2), $3, $4, $5, $6, now() + make_interval(secs => $7),
             CASE WHEN $5 IN ('pending', 'delivering') THEN now() + make_interval(secs => $7) END,
             CASE WHEN $5 = 'delivering' THEN 'worker-test' END,
             CASE WHEN $5 = 'delivering' THEN now() + interval '1 minute' END,
             CASE WHEN $6 > 0 THEN now() END, $8, $9, ${createdAt}, ${createdAt})
     RETURNING hookline.public_id('dlv', id) AS id`,
    [
      fixture.appId,
      messageId,
      fixture.endpointId,
      eventType,
      state,
      fixture.attemptCount ?? 0,
      fixture.nextAttemptInSeconds ?? 0,
      fixture.lastStatusCode ?? null,
      // A dead delivery failed last (the constraint deliveries_dead_check).
      fixture.lastErrorClass ?? (state === 'dead' ? 'http_5xx' : null),
    ],
  );
  return { messageId, deliveryId: delivery.rows[0]!.id };
}

/** The rows of one table as text, to assert that an operation left them alone. */
export async function rowsAsText(pool: Pool, table: string, where = 'true', params: unknown[] = []): Promise<string[]> {
  const { rows } = await pool.query<{ row: string }>(
    `SELECT t::text AS row FROM hookline.${table} t WHERE ${where} ORDER BY t::text`,
    params,
  );
  return rows.map((row) => row.row);
}
