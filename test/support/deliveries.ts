// Reading and waiting on deliveries and attempts in worker tests, with plain SQL.
import { fanOutOnce } from '../../worker/fan-out';
import type { Pool } from '../../lib/database/pg';
import { waitUntil } from './receiver';

export interface DeliveryRow {
  id: string;
  app_id: string;
  message_id: string;
  endpoint_id: string;
  state: string;
  attempt_count: number;
  lease_owner: string | null;
  lease_expires_at: Date | null;
  last_status_code: number | null;
  last_error_class: string | null;
  next_attempt_at: Date;
  updated_at: Date;
}

export interface AttemptRow {
  id: string;
  delivery_id: string;
  attempt_number: number;
  worker_id: string;
  status_code: number | null;
  error_class: string | null;
  error_message: string | null;
  started_at: Date;
  duration_ms: number;
  request_headers: Record<string, string>;
  response_headers: Record<string, string> | null;
  response_body: string | null;
  response_truncated: boolean;
}

/** Sends one event with hookline.send and returns the message id. */
export async function sendEvent(
  pool: { query: Pool['query'] } | import('pg').PoolClient,
  appId: string,
  eventType: string,
  payload: unknown = {},
): Promise<string> {
  const { rows } = await pool.query<{ id: string }>('SELECT hookline.send($1, $2, $3::jsonb) AS id', [
    appId,
    eventType,
    JSON.stringify(payload),
  ]);
  return rows[0]!.id;
}

/**
 * The columns of a hookline table with its message and delivery ids public ('msg_' or 'dlv_' and 32
 * hex digits), as the API and webhook-id headers show them and as tests compare them: stored as uuid
 * since migration 20261208090000_ids_as_uuid. A database migrated only so far (a migration test's)
 * still stores them as text, the public ids themselves, and gets them as they are.
 */
async function publicColumns(pool: Pool, table: 'deliveries' | 'attempts'): Promise<string> {
  const { rows } = await pool.query<{ columns: string }>(
    `SELECT string_agg(CASE WHEN a.atttypid = 'uuid'::regtype
                            THEN format('hookline.public_id(%L, t.%I) AS %I',
                                        CASE WHEN a.attname = 'message_id' THEN 'msg' ELSE 'dlv' END, a.attname, a.attname)
                            ELSE format('t.%I', a.attname) END, ', ' ORDER BY a.attnum) AS columns
       FROM pg_attribute AS a
      WHERE a.attrelid = $1::regclass AND a.attnum > 0 AND NOT a.attisdropped`,
    [`hookline.${table}`],
  );
  return rows[0]!.columns;
}

/** Deliveries matching `where`, which reads their ids public (publicColumns) and gets them so. */
export async function deliveriesOf(pool: Pool, where: string, params: unknown[] = []): Promise<DeliveryRow[]> {
  const { rows } = await pool.query<DeliveryRow>(
    `SELECT * FROM (SELECT ${await publicColumns(pool, 'deliveries')} FROM hookline.deliveries AS t) AS d
      WHERE ${where} ORDER BY created_at, id`,
    params,
  );
  return rows;
}

/** The attempts of a delivery (its public id), with their delivery's and message's ids public. */
export async function attemptsOf(pool: Pool, deliveryId: string): Promise<AttemptRow[]> {
  const { rows } = await pool.query<AttemptRow>(
    `SELECT * FROM (SELECT ${await publicColumns(pool, 'attempts')} FROM hookline.attempts AS t) AS a
      WHERE delivery_id = $1 ORDER BY attempt_number`,
    [deliveryId],
  );
  return rows;
}

/** Waits until the message's (single) delivery satisfies `done`, and returns it. */
export function waitForDelivery(
  pool: Pool,
  messageId: string,
  done: (row: DeliveryRow) => boolean,
  timeoutMs = 10_000,
): Promise<DeliveryRow> {
  return waitUntil(
    async () => {
      const [row] = await deliveriesOf(pool, 'message_id = $1', [messageId]);
      return row && done(row) ? row : null;
    },
    { timeoutMs, what: `the delivery of ${messageId}` },
  );
}

/** Waits until every one of these messages has a succeeded delivery to the endpoint. */
export function waitUntilSucceeded(
  pool: Pool,
  endpointId: string,
  messageIds: string[],
  what: string,
): Promise<boolean> {
  return waitUntil(
    async () => {
      const ids = new Set(
        (await deliveriesOf(pool, `endpoint_id = $1 AND state = 'succeeded'`, [endpointId])).map(
          (row) => row.message_id,
        ),
      );
      return messageIds.every((id) => ids.has(id));
    },
    { what },
  );
}

/**
 * Fans out every committed message the way a worker does (worker/sql/fan-out-messages.sql), leasing
 * nothing: the deliveries are left 'pending' for a worker. For tests that look at deliveries right
 * after hookline.send without running a worker. Until a fan-out that held the cursor finds nothing.
 */
export async function fanOutQueued(pool: Pool): Promise<number> {
  let created = 0;
  for (;;) {
    const rows = await fanOutOnce(pool, {
      workerId: 'test-fan-out',
      messages: 1000,
      room: 0,
      leaseSeconds: 60,
    });
    created += rows[0]?.deliveries_created ?? 0;
    if ((rows[0]?.messages_taken ?? 0) === 0 && !rows[0]?.cursor_busy) return created;
  }
}

/**
 * Messages committed and not yet fanned out (not fanned out by the fan-out's cursor, its transaction
 * taken in part included: hookline.fanned_out, prisma/functions/fanout-snapshot.sql); only
 * `messageId`'s when given.
 */
export async function waitingForFanOut(pool: Pool, messageId?: string): Promise<number> {
  const { rows } = await pool.query<{ n: number }>(
    `SELECT count(*)::int AS n FROM hookline.messages AS m, hookline.fanout_cursor AS c
      WHERE m.written_by IS NOT NULL
        AND NOT hookline.fanned_out(m.written_by, m.id, c.fanned_out_through, c.partial_xid, c.partial_through_id)
        ${messageId === undefined ? '' : 'AND m.id = hookline.uuid_of($1)'}`,
    messageId === undefined ? [] : [messageId],
  );
  return rows[0]!.n;
}

/** Marks every committed message as fanned out without fanning it out: what a test left is no later test's work. */
export async function skipFanOut(pool: Pool): Promise<void> {
  await pool.query(
    'UPDATE hookline.fanout_cursor SET fanned_out_through = pg_current_snapshot(), partial_xid = NULL, partial_through_id = NULL',
  );
}
