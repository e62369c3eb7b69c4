// The unfinished deliveries now, per app: in the delivery states (waiting, retrying, delivering) and,
// for the pending ones (waiting or retrying), what they wait for. A pending delivery is not "queued
// for a worker" while its endpoint's circuit is open (the worker puts a claimed row back until
// circuit_open_until without spending an attempt), while its endpoint is disabled, or before its
// next_attempt_at: the same checks, in the same order, as a delivery's page
// (lib/domain/deliveries/explain-wait.ts), so the counts and the page agree.
// Counted from hookline.unfinished_deliveries (the claim index's rows and the first attempts being
// sent), grouped per endpoint before the join, so the cost follows the live queue, not the history.
import { readPrisma } from '../../database/read-replica';
import { Prisma } from '../../generated/prisma/client';

export interface LiveQueue {
  waiting: number;
  retrying: number;
  delivering: number;
  /** The waiting and retrying split by what holds them; the four add up to waiting + retrying. */
  waitingFor: {
    /** Due now: sent as soon as a worker has a free slot. */
    worker: number;
    /** Their endpoint's circuit is open: they wait for its probe to succeed. */
    circuit: number;
    /** Their endpoint is disabled: they wait for an operator to enable it. */
    endpointEnabled: number;
    /** Scheduled for later: a retry's backoff (or a Retry-After) has not passed yet. */
    retryTime: number;
  };
}

export const EMPTY_LIVE_QUEUE: LiveQueue = {
  waiting: 0,
  retrying: 0,
  delivering: 0,
  waitingFor: { worker: 0, circuit: 0, endpointEnabled: 0, retryTime: 0 },
};

interface Row {
  app_id: string;
  waiting: number;
  retrying: number;
  delivering: number;
  for_worker: number;
  for_circuit: number;
  for_endpoint_enabled: number;
  for_retry_time: number;
}

/** The live queue of each app in scope (apps without unfinished deliveries are missing from the map). */
export async function readLiveQueue(scope: {
  appIds?: string[];
  appId?: string;
  endpointId?: string;
}): Promise<Map<string, LiveQueue>> {
  const where = Prisma.sql`
    ${scope.appIds ? Prisma.sql`AND d.app_id = ANY(${scope.appIds})` : Prisma.empty}
    ${scope.appId ? Prisma.sql`AND d.app_id = ${scope.appId}` : Prisma.empty}
    ${scope.endpointId ? Prisma.sql`AND d.endpoint_id = ${scope.endpointId}` : Prisma.empty}`;
  const rows = await (await readPrisma()).$queryRaw<Row[]>`
    WITH per_endpoint AS (
      SELECT d.app_id, d.endpoint_id, d.state, d.attempt_count > 0 AS tried, d.next_attempt_at > now() AS later,
             count(*) AS n
        FROM hookline.unfinished_deliveries d
       WHERE true ${where}
       GROUP BY 1, 2, 3, 4, 5
    ), held AS (
      SELECT q.*, NOT e.enabled AS disabled,
             (e.enabled AND e.circuit_state <> 'closed' AND coalesce(e.circuit_open_until > now(), false)) AS circuit_open
        FROM per_endpoint q JOIN hookline.endpoints e ON e.id = q.endpoint_id
    )
    SELECT app_id,
           coalesce(sum(n) FILTER (WHERE state = 'pending' AND NOT tried), 0)::float8 AS waiting,
           coalesce(sum(n) FILTER (WHERE state = 'pending' AND tried), 0)::float8 AS retrying,
           coalesce(sum(n) FILTER (WHERE state = 'delivering'), 0)::float8 AS delivering,
           coalesce(sum(n) FILTER (WHERE state = 'pending' AND NOT disabled AND NOT circuit_open AND NOT later), 0)::float8
             AS for_worker,
           coalesce(sum(n) FILTER (WHERE state = 'pending' AND circuit_open), 0)::float8 AS for_circuit,
           coalesce(sum(n) FILTER (WHERE state = 'pending' AND disabled), 0)::float8 AS for_endpoint_enabled,
           coalesce(sum(n) FILTER (WHERE state = 'pending' AND NOT disabled AND NOT circuit_open AND later), 0)::float8
             AS for_retry_time
      FROM held
     GROUP BY app_id`;
  return new Map(
    rows.map((row) => [
      row.app_id,
      {
        waiting: row.waiting,
        retrying: row.retrying,
        delivering: row.delivering,
        waitingFor: {
          worker: row.for_worker,
          circuit: row.for_circuit,
          endpointEnabled: row.for_endpoint_enabled,
          retryTime: row.for_retry_time,
        },
      },
    ]),
  );
}

/** The live queues of several apps added up. */
export function sumLiveQueues(queues: Iterable<LiveQueue>): LiveQueue {
  const total = structuredClone(EMPTY_LIVE_QUEUE);
  for (const queue of queues) {
    total.waiting += queue.waiting;
    total.retrying += queue.retrying;
    total.delivering += queue.delivering;
    for (const key of Object.keys(total.waitingFor) as (keyof LiveQueue['waitingFor'])[])
      total.waitingFor[key] += queue.waitingFor[key];
  }
  return total;
}
