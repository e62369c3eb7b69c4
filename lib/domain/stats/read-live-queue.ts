// The unfinished deliveries now, per app: in the delivery states (waiting, retrying, delivering) and,
// for the pending ones (waiting or retrying), what they wait for. A pending delivery is not "queued
// for a worker" while its endpoint's circuit is open (the worker puts a claimed row back until
// circuit_open_until without spending an attempt), while its endpoint is disabled, or before its
// next_attempt_at: the same checks, in the same order, as a delivery's page
// (lib/domain/deliveries/explain-wait.ts), so the counts and the page agree.
// Counted from the two parts of hookline.unfinished_deliveries (migration
// 20261130090000_fanout_by_transaction), restated below so that each is read the way its plan needs:
// the claim queue by app and endpoint through deliveries_queue_idx, the first attempts being sent from
// the fan-out batch rows. A change to what "unfinished" means changes the view and these together (the
// workers' queue samples read the view; e2e/cockpit.spec.ts checks the chart ends at the cards).
// The count stops at LIVE_COUNT_CAP rows, as the dead count does (read-queue-depth.ts): each row is a
// heap visit, and a backlog is as long as an outage makes it (100,000 rows and ~100,000 buffers a
// call at the benchmark's 10 M deliveries; migration 20261130110000_queue_by_endpoint). Past the cap,
// every number is of the rows read, so a lower bound, and `capped` says so; the workers' once-a-minute
// samples (worker/sql/sample-queue-depth.sql) still count the whole queue for the chart.
import { readPrisma } from '../../database/read-replica';
import { Prisma, type PrismaClient } from '../../generated/prisma/client';

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

/** Unfinished deliveries read per count, at most: about that many heap visits, whatever the queue holds. */
export const LIVE_COUNT_CAP = 10_000;

/** Each app's live queue; with `capped`, the counts are of the first LIVE_COUNT_CAP rows read. */
export interface LiveQueues {
  apps: Map<string, LiveQueue>;
  capped: boolean;
}

interface Row {
  app_id: string;
  rows_read: number;
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
}): Promise<LiveQueues> {
  const rows = await readQueueRows<Row>(await readPrisma(), liveQueueStatement(scope));
  return {
    capped: (rows[0]?.rows_read ?? 0) > LIVE_COUNT_CAP,
    apps: new Map(
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
    ),
  };
}

/** The live queue's statement: at most LIVE_COUNT_CAP + 1 rows read (one more says "there are more"). */
export function liveQueueStatement(scope: { appIds?: string[]; appId?: string; endpointId?: string }) {
  const where = Prisma.sql`
    ${scope.appIds ? Prisma.sql`AND e.app_id = ANY(${scope.appIds})` : Prisma.empty}
    ${scope.appId ? Prisma.sql`AND e.app_id = ${scope.appId}` : Prisma.empty}
    ${scope.endpointId ? Prisma.sql`AND e.id = ${scope.endpointId}` : Prisma.empty}`;
  return Prisma.sql`
    WITH scope_endpoints AS (
      SELECT e.id, e.app_id FROM hookline.endpoints AS e WHERE true ${where}
    ), ${UNFINISHED_CTES}, read AS MATERIALIZED (
      SELECT q.app_id, q.endpoint_id, q.state, q.attempt_count > 0 AS tried, q.next_attempt_at > now() AS later
        FROM (${unfinishedOfScopeEndpoints(LIVE_COUNT_CAP + 1)}) AS q
       LIMIT ${Prisma.raw(String(LIVE_COUNT_CAP + 1))}
    ), per_endpoint AS (
      SELECT app_id, endpoint_id, state, tried, later, count(*) AS n FROM read GROUP BY 1, 2, 3, 4, 5
    ), held AS (
      SELECT q.*, NOT e.enabled AS disabled,
             (e.enabled AND e.circuit_state <> 'closed' AND coalesce(e.circuit_open_until > now(), false)) AS circuit_open
        FROM per_endpoint q JOIN hookline.endpoints e ON e.id = q.endpoint_id
    )
    SELECT app_id,
           (SELECT count(*) FROM read)::int AS rows_read,
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
}

/**
 * The CTEs unfinishedOfScopeEndpoints reads: the first attempts being sent now, under a fan-out batch
 * (hookline.unfinished_deliveries' second and third parts), found from the batch rows (what workers are
 * sending right now, a few dozen) and their messages. Materialized, so the planner cannot start from an app's
 * deliveries instead: through the view, an app's count walked the app's whole history by
 * deliveries_app_id_created_at_idx (dropped since) to find the few being sent (seen in
 * test/api/stats-live-count.test.ts).
 */
export const UNFINISHED_CTES = Prisma.sql`
  batch_messages AS MATERIALIZED (
    SELECT m.id, m.app_id, m.event_type, m.created_at, m.target_endpoint_id, b.lease_owner, b.endpoint_ids
      FROM hookline.fanout_batches AS b
      JOIN hookline.messages AS m
        ON m.written_by >= pg_snapshot_xmin(b.after)
       AND m.written_by <= pg_snapshot_xmax(b.through)
       AND hookline.fanned_out(m.written_by, m.id, b.through, b.through_partial_xid, b.through_partial_id)
       AND NOT hookline.fanned_out(m.written_by, m.id, b.after, b.after_partial_xid, b.after_partial_id)
  ), sending AS MATERIALIZED (
    -- A first attempt has no row until its outcome is written (migration
    -- 20261206090000_first_attempts_written_once): each (message, endpoint) of a batch that has none.
    SELECT bm.app_id, e.id AS endpoint_id, 'delivering' AS state, 0 AS attempt_count, bm.created_at AS next_attempt_at
      FROM batch_messages AS bm
      JOIN hookline.endpoints AS e
        ON e.id = ANY (bm.endpoint_ids) AND e.app_id = bm.app_id
       AND hookline.endpoint_takes(e.id, e.event_types, bm.event_type, bm.target_endpoint_id)
     WHERE (SELECT d.id FROM hookline.deliveries AS d WHERE d.id = hookline.delivery_id(bm.id, e.id)) IS NULL
    UNION ALL
    -- Rows a fan-out wrote leased before that migration, per message (OFFSET 0 keeps the subquery a
    -- loop): joined as sets, an unanalysed batch table priced at 370 rows made the planner scan every
    -- delivery for the 'delivering' ones.
    SELECT d.*
      FROM batch_messages AS bm
     CROSS JOIN LATERAL (
       SELECT d.app_id, d.endpoint_id, d.state, d.attempt_count, d.next_attempt_at
         FROM hookline.deliveries AS d
        WHERE d.message_id = bm.id
          AND d.id >= hookline.delivery_ids_from(bm.id)
          AND d.id < hookline.delivery_ids_before(bm.id)
          AND d.lease_owner = bm.lease_owner
          AND d.claimable_at IS NULL AND d.state = 'delivering'
       OFFSET 0
     ) AS d
  )`;

/**
 * Runs a statement built on unfinishedOfScopeEndpoints with plain index scans off, in a transaction of
 * its own. Plain index scans can stop early at a LIMIT, so the planner priced "walk the claim index in
 * due order, keeping this endpoint's rows" by the endpoint's share of the history, and chose it: behind
 * another endpoint's backlog that walk reads the whole queue to find a quiet endpoint's few rows. A
 * bitmap scan of deliveries_queue_idx reads only the endpoint's index entries (small: ~400 a page),
 * and its heap part still stops at the LIMIT. JIT off as well: priced without plain index scans, the
 * statement passed jit_above_cost on Debian's PostgreSQL 15 (built with LLVM, jit on) and compiled for
 * ~3.7 s to run for milliseconds (the worker's connections turn it off for the same reason).
 */
export async function readQueueRows<Row>(prisma: PrismaClient, statement: Prisma.Sql): Promise<Row[]> {
  const [, rows] = await prisma.$transaction([
    prisma.$queryRaw`SELECT set_config('enable_indexscan', 'off', true), set_config('jit', 'off', true)`,
    prisma.$queryRaw<Row[]>(statement),
  ]);
  return rows;
}

/**
 * The unfinished deliveries (hookline.unfinished_deliveries) of the endpoints of CTE scope_endpoints
 * (id, app_id), with UNFINISHED_CTES beside it: each endpoint's rows of the claim queue through
 * deliveries_queue_idx, at most `perEndpoint` of them, then its first attempts being sent. Driven from
 * the endpoints, so both columns of the index are known for each: given the scope's condition alone,
 * the planner prices an app's share of the queue by its share of the history and read the whole claim
 * queue in due order to find a quiet app's few rows.
 */
export function unfinishedOfScopeEndpoints(perEndpoint: number): Prisma.Sql {
  return Prisma.sql`
    SELECT q.app_id, q.endpoint_id, q.state, q.attempt_count, q.next_attempt_at
      FROM scope_endpoints AS e
     CROSS JOIN LATERAL (
       SELECT d.app_id, d.endpoint_id, d.state, d.attempt_count, d.next_attempt_at
         FROM hookline.deliveries AS d
        WHERE d.app_id = e.app_id AND d.endpoint_id = e.id AND d.claimable_at IS NOT NULL
        LIMIT ${Prisma.raw(String(perEndpoint))}
     ) AS q
    UNION ALL
    SELECT s.app_id, s.endpoint_id, s.state, s.attempt_count, s.next_attempt_at
      FROM sending AS s JOIN scope_endpoints AS e ON e.id = s.endpoint_id AND e.app_id = s.app_id`;
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
