import type { Prisma } from '../../generated/prisma/client';

/** The worker_id of an attempt row written from its delivery row when a replay reset it (see below). */
export const FROM_DELIVERY_ROW = 'delivery-row';

/**
 * Before a replay resets succeeded deliveries to pending, writes each one's success as an attempt row
 * of its own, from what the delivery row recorded (number, time, status, duration). Without it, a
 * success kept on its delivery row alone (HOOKLINE_KEEP_SUCCESSFUL_ATTEMPTS off, the default:
 * success-attempt.ts) would be overwritten by the replay's attempt, and the delivery's page would show
 * attempt #2 alone while counting 2. Headers are not stored: the delivery's page rebuilds them as it
 * does for a success on its row (worker_id FROM_DELIVERY_ROW says so); the response was never kept.
 * A success that already has its row (HOOKLINE_KEEP_SUCCESSFUL_ATTEMPTS on) gets no second one.
 * `ids`: the deliveries' stored ids (uuid), as their rows give them. Runs in the replay's
 * transaction, before its UPDATE; the rows are locked so that a concurrent replay of the same delivery
 * waits and then finds the row written. The job replay (worker/sql/job-replay-batch.sql) does the same
 * in its statement.
 */
export async function keepReplayedSuccesses(tx: Prisma.TransactionClient, appId: string, ids: string[]) {
  if (ids.length === 0) return 0;
  return tx.$executeRaw`
    WITH succeeded AS (
      SELECT d.* FROM hookline.deliveries d
       WHERE d.app_id = ${appId} AND d.id = ANY(${ids}::uuid[]) AND d.state = 'succeeded' AND d.last_attempt_at IS NOT NULL
         FOR UPDATE
    )
    INSERT INTO hookline.attempts
           (id, app_id, delivery_id, message_id, endpoint_id, attempt_number, worker_id, started_at, duration_ms,
            status_code, request_headers)
    SELECT hookline.new_id('atmpt', s.id), s.app_id, s.id, s.message_id, s.endpoint_id, s.attempt_count, ${FROM_DELIVERY_ROW}, s.last_attempt_at,
           coalesce(s.last_duration_ms, 0), s.last_status_code, '{}'::jsonb
      FROM succeeded s
     WHERE NOT EXISTS (SELECT 1 FROM hookline.attempts a
                        WHERE a.delivery_id = s.id AND a.attempt_number = s.attempt_count)`;
}
