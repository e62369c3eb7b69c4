// The worker's hand-written statements, one per file in worker/sql, each with its why-comment and a
// `-- Parameters:` line naming its $1..$n. Here each gets a TypeScript type for its parameters (an
// object, not a positional array: the flush has 21) and for its rows. The names are written twice, in
// the SQL file for its reader and here for the compiler; loading checks they agree, in order, and that
// the statement uses exactly $1..$n, so a parameter added on one side only fails at start, not as a
// value bound to the wrong placeholder.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { QueryConfig, QueryResult, QueryResultRow } from 'pg';
import type { Pool, PoolClient } from '../lib/database/pg';
import type { FlushOutcome } from './flush';
import type { EndpointRow } from './endpoint-cache';
import type { TakenJob } from './jobs/job-runner';
import type { TakenRow } from './take-deliveries';

/** Where a statement runs: a pool, a checked-out client, or the `query` of an advisory-lock block. */
export type Runs = Pool | PoolClient | Pool['query'];

export interface Statement<P, R extends QueryResultRow> {
  /** The file's name in worker/sql, without `.sql`. */
  readonly file: string;
  readonly text: string;
  /** The parameters' names in placeholder order: names[0] is $1. */
  readonly names: readonly (keyof P & string)[];
  /** The values in placeholder order, for EXPLAIN in tests and for callers with a QueryConfig of their own. */
  values(params: P): unknown[];
  run(on: Runs, params: P): Promise<QueryResult<R>>;
}

interface StatementOptions {
  /**
   * A statement the worker runs many times a second (claims, fan-outs, flushes, renewals) goes as a
   * named statement: each connection parses it once instead of on every call. Whether its plan is kept
   * too is the connection's choice (worker/worker-connections.ts): the recording connection plans the
   * flush once; the others plan every call afresh, with the tables as they are. Sent as text, parsing
   * and planning were ~25 % of PostgreSQL's CPU in a 20k drain on PostgreSQL 15 (pg_stat_statements
   * with track_planning: the flush's planning 0.69 ms a call). Only for statements with parameters:
   * one without keeps its first plan whatever the connection says. Needs session-level connections, as
   * the worker's LISTEN and advisory lock already do.
   */
  prepared?: boolean;
}

/** Every key of P named once: a parameter left out of `names` is a type error. */
type AllNamed<P, N extends readonly (keyof P)[]> = [Exclude<keyof P, N[number]>] extends [never] ? N : never;

const load = (file: string) => readFileSync(join(import.meta.dirname, 'sql', `${file}.sql`), 'utf8');

/** Checks the file's `-- Parameters:` line and its placeholders against `names`; throws naming the file. */
export function checkParameters(file: string, text: string, names: readonly string[]): void {
  // One line, or wrapped onto lines that start "--   $".
  const declared = /^-- Parameters: (.*(?:\n--\s+\$.*)*)$/m.exec(text)?.[1]?.replace(/\n--\s+/g, ' ');
  const listed = declared === undefined || declared === 'none.' ? [] : declared.replace(/\.$/, '').split(', ');
  const expected = names.map((name, i) => `$${i + 1} ${name}`);
  if (declared === undefined || listed.join(', ') !== expected.join(', ')) {
    throw new Error(
      `worker/sql/${file}.sql: its "-- Parameters:" line must read "${expected.join(', ') || 'none.'}"` +
        ` (worker/statements.ts names them), got "${declared ?? '(no such line)'}"`,
    );
  }
  const body = text.replace(/--.*$/gm, '');
  const used = new Set([...body.matchAll(/\$(\d+)/g)].map((match) => Number(match[1])));
  const expectedUsed = names.map((_, i) => i + 1);
  if (used.size !== names.length || expectedUsed.some((n) => !used.has(n))) {
    throw new Error(
      `worker/sql/${file}.sql uses placeholders ${
        [...used]
          .sort((a, b) => a - b)
          .map((n) => `$${n}`)
          .join(', ') || 'none'
      }` + ` but names ${names.length} parameters`,
    );
  }
}

function statement<P, R extends QueryResultRow = QueryResultRow>() {
  return <const N extends readonly (keyof P & string)[]>(
    file: string,
    names: AllNamed<P, N>,
    options: StatementOptions = {},
  ): Statement<P, R> => {
    const text = load(file);
    checkParameters(file, text, names);
    const values = (params: P) => names.map((name) => params[name]);
    const config = (params: P): QueryConfig =>
      options.prepared ? { name: `hookline.${file}`, text, values: values(params) } : { text, values: values(params) };
    return {
      file,
      text,
      names,
      values,
      run: (on, params) =>
        (typeof on === 'function' ? on<R>(config(params)) : (on as Pool).query<R>(config(params))) as Promise<
          QueryResult<R>
        >,
    };
  };
}

type None = Record<never, never>;

/** One row per delivery a claim or fan-out leased; the fan-out adds its counts (null ids when none). */
export type FanOutRow = (TakenRow | { [K in keyof TakenRow]: null }) & {
  messages_taken: number;
  deliveries_created: number;
  /** The fan-out batch the leased deliveries run under (bigint, as text); null when none was leased. */
  batch_id: string | null;
  /** New messages waited, but another fan-out held the cursor: this one took nothing; try again soon. */
  cursor_busy: boolean;
  /** The cursor to pass next time (worker/fan-out.ts): the one this fan-out moved, or the current one. */
  cursor_through: string;
  cursor_partial_xid: string | null;
  cursor_partial_through_id: string | null;
  /** The cursor passed was not the current one: nothing was taken; try again at once with the new one. */
  cursor_moved: boolean;
};

/** The fan-out cursor as a worker last saw it (hookline.fanout_cursor, as text); nulls: none seen yet. */
export interface FanOutCursor {
  cursorThrough: string | null;
  cursorPartialXid: string | null;
  cursorPartialThroughId: string | null;
}

export interface FanOutParams extends FanOutCursor {
  workerId: string;
  messages: number;
  room: number;
  leaseSeconds: number;
}

/**
 * The rows a statement writes for first attempts (worker/leases.ts: they have none until their outcome),
 * parallel to its deliveries, null for a delivery whose row exists: the fan-out batch whose row holds
 * the lease, and the row's columns.
 */
export interface UnwrittenColumns {
  batchIds: (string | null)[];
  appIds: (string | null)[];
  endpointIds: (string | null)[];
  messageIds: (string | null)[];
  eventTypes: (string | null)[];
  createdAts: (Date | null)[];
}

/** Their parameters' names, in the order the statements that take them number them. */
const UNWRITTEN_COLUMNS = ['batchIds', 'appIds', 'endpointIds', 'messageIds', 'eventTypes', 'createdAts'] as const;

export interface RecordResultsParams extends UnwrittenColumns {
  workerId: string;
  deliveryIds: string[];
  states: string[];
  nextAttemptAts: (Date | null)[];
  startedAts: Date[];
  durationsMs: number[];
  statusCodes: (number | null)[];
  errorClasses: (string | null)[];
  errorMessages: (string | null)[];
  requestHeaders: (string | null)[];
  responseHeaders: (string | null)[];
  responseBodies: (string | null)[];
  responsesTruncated: boolean[];
  circuitFailureThreshold: number;
  circuitOpenBaseMs: number;
  circuitOpenMaxMs: number;
  autoDisableAfterMs: number | null;
  keepSuccessfulAttempts: boolean;
  settledBatchIds: string[];
  rollupShard: number;
  /** Each result's attempts recorded before it: the fence names the attempt, not only the worker. */
  attemptCounts: number[];
}

export const statements = {
  claimDeliveries: statement<
    {
      workerId: string;
      limit: number;
      leaseSeconds: number;
      /** Deliveries this worker is still sending or recording: never claimed again by it. */
      stillOursIds: string[];
    },
    TakenRow
  >()('claim-deliveries', ['workerId', 'limit', 'leaseSeconds', 'stillOursIds'], { prepared: true }),
  fanOutMessages: statement<FanOutParams, FanOutRow>()(
    'fan-out-messages',
    ['workerId', 'messages', 'room', 'leaseSeconds', 'cursorThrough', 'cursorPartialXid', 'cursorPartialThroughId'],
    { prepared: true },
  ),
  deleteOrphanDeliveries: statement<{ workerId: string; deliveryIds: string[] }>()('delete-orphan-deliveries', [
    'workerId',
    'deliveryIds',
  ]),
  recordResults: statement<RecordResultsParams, FlushOutcome>()(
    'record-results',
    [
      'workerId',
      'deliveryIds',
      'states',
      'nextAttemptAts',
      'startedAts',
      'durationsMs',
      'statusCodes',
      'errorClasses',
      'errorMessages',
      'requestHeaders',
      'responseHeaders',
      'responseBodies',
      'responsesTruncated',
      'circuitFailureThreshold',
      'circuitOpenBaseMs',
      'circuitOpenMaxMs',
      'autoDisableAfterMs',
      'keepSuccessfulAttempts',
      'settledBatchIds',
      'rollupShard',
      'attemptCounts',
      ...UNWRITTEN_COLUMNS,
    ],
    { prepared: true },
  ),
  unrecordedResults: statement<
    { deliveryIds: string[] },
    { taken_over: number; given_back: number; already_finished: number; gone: number }
  >()('unrecorded-results', ['deliveryIds']),
  releaseDeliveries: statement<
    {
      workerId: string;
      deliveryIds: string[];
      dueAts: Date[];
      settledBatchIds: string[];
    } & UnwrittenColumns,
    { released: number }
  >()('release-deliveries', ['workerId', 'deliveryIds', 'dueAts', 'settledBatchIds', ...UNWRITTEN_COLUMNS]),
  renewLeases: statement<
    { workerId: string; deliveryIds: string[]; leaseSeconds: number; batchIds: string[] },
    /** A delivery renewed (id), or a fan-out batch (batch_id, bigint as text). */
    { id: string | null; batch_id: string | null }
  >()('renew-leases', ['workerId', 'deliveryIds', 'leaseSeconds', 'batchIds'], { prepared: true }),
  releaseStrayLeases: statement<{
    workerId: string;
    heldDeliveryIds: string[];
    heldBatchIds: string[];
    leaseSeconds: number;
  }>()('release-stray-leases', ['workerId', 'heldDeliveryIds', 'heldBatchIds', 'leaseSeconds']),
  releaseExpiredBatchLeases: statement<None, { batches: number; deliveries: number }>()(
    'release-expired-batch-leases',
    [],
  ),
  takeCircuitProbe: statement<{ endpointId: string; probeMs: number }>()('take-circuit-probe', [
    'endpointId',
    'probeMs',
  ]),
  takeEndpointTokens: statement<
    { endpointIds: string[]; wanted: number[]; ratesPerSecond: (number | null)[] },
    { endpoint_id: string; granted: number; tokens: number; rate: number }
  >()('take-endpoint-tokens', ['endpointIds', 'wanted', 'ratesPerSecond']),
  nextDueAt: statement<None, { next_due_at: Date | null }>()('next-due-at', []),
  renewPolling: statement<{ workerId: string; lifetimeMs: number }>()('renew-polling', ['workerId', 'lifetimeMs'], {
    prepared: true,
  }),
  endPolling: statement<{ workerId: string }>()('end-polling', ['workerId']),
  loadEndpoints: statement<{ endpointIds: string[] }, EndpointRow>()('load-endpoints', ['endpointIds']),
  sampleQueueDepth: statement<None, { state: string; count: number }>()('sample-queue-depth', []),
  deleteOldStats: statement<{ olderThanMs: number }, { rollups: number; samples: number }>()('delete-old-stats', [
    'olderThanMs',
  ]),
  deleteOldAuditEvents: statement<{ olderThanMs: number; limit: number }>()('delete-old-audit-events', [
    'olderThanMs',
    'limit',
  ]),
  // Background jobs (worker/jobs/job-runner.ts).
  takeJob: statement<{ workerId: string; leaseSeconds: number }, TakenJob>()('take-job', ['workerId', 'leaseSeconds']),
  lockJob: statement<{ jobId: string; workerId: string }>()('job-lock', ['jobId', 'workerId']),
  replayBatch: statement<
    { appId: string; match: string; afterId: string; asOf: Date; limit: number },
    { scanned: number; changed: number; last_id: string | null }
  >()('job-replay-batch', ['appId', 'match', 'afterId', 'asOf', 'limit']),
  backfillBatch: statement<
    {
      appId: string;
      endpointId: unknown;
      since: unknown;
      asOf: Date;
      cursor: string | null;
      limit: number;
    },
    {
      endpoints: number;
      room: number;
      scanned: number;
      /** The batch stopped at a message its fan-out has not taken yet. */
      waits_for_fan_out: boolean;
      changed: number;
      cursor: Record<string, unknown> | null;
    }
  >()('job-backfill-batch', ['appId', 'endpointId', 'since', 'asOf', 'cursor', 'limit']),
  advanceJob: statement<{
    jobId: string;
    workerId: string;
    cursor: string | null;
    changed: number;
    done: boolean;
    leaseSeconds: number;
  }>()('job-advance', ['jobId', 'workerId', 'cursor', 'changed', 'done', 'leaseSeconds']),
  stepAsideJob: statement<{ jobId: string; workerId: string; seconds: number }, { id: string }>()('job-step-aside', [
    'jobId',
    'workerId',
    'seconds',
  ]),
  endJob: statement<{ jobId: string; workerId: string; state: 'running' | 'failed'; error: string | null }>()(
    'job-end',
    ['jobId', 'workerId', 'state', 'error'],
  ),
} as const;
