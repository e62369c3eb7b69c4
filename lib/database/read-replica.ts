// Reads that may lag go to a streaming replica when HOOKLINE_READ_DATABASE_URL names one: the
// dashboard's charts and the list APIs, the reads that grow with history and that an operator runs
// all day. Everything else stays on the primary: writes, the worker, sign-in and API-key checks (a
// revoked key must stop at once), a single resource's own GET, and any read that must see a write
// just made.
//
// Reading one's own writes: a change made through the API answers with the primary's WAL position
// after it (`Hookline-Read-After`, and for the dashboard a cookie of the same name); a read that brings
// it back is served by the replica only once the replica has replayed that far, else by the primary.
// So the dashboard's list refetched after "create endpoint" shows the endpoint, on any lag.
//
// A replica further behind than HOOKLINE_READ_MAX_LAG, unreachable, or not a standby at all (promoted,
// or the URL names a primary) is not read from: reads go to the primary until it is healthy again. Its
// state is checked at most once a second per process (two tiny queries, one on each server), and the
// dashboard shows it (GET /v1/stats `readReplica`). A read does not wait for that check once one has
// answered (the first waits at most FIRST_CHECK_WAIT_MS): a replica that answers nothing takes the
// connection timeout (5 s) to be found out, and every list and chart waited that long for each check
// while it was so.
import { AsyncLocalStorage } from 'node:async_hooks';
import { loadConfig } from '../runtime/env';
import { getPrisma, type PrismaClient } from './db';
import { CONNECTION_NAMES, createPool, type Pool } from './pg';

export interface ReplicaState {
  /** Whether reads that may lag go to the replica now. */
  inUse: boolean;
  /**
   * How far behind the primary it is: WAL bytes written there and not yet replayed here, and (when
   * behind) seconds since its last replayed commit. Null when unknown (unreachable, not a standby).
   */
  lagBytes: number | null;
  lagSeconds: number | null;
  /** Why it is not in use; null when it is. */
  problem: string | null;
  /** WAL position it has replayed up to. */
  replayLsn: string | null;
  checkedAt: number;
}

const CHECK_EVERY_MS = 1000;
/** How long the first read of a process waits for the first check before going to the primary. */
const FIRST_CHECK_WAIT_MS = 500;
/**
 * How old a check's "in use" may grow while the next check has not answered. A check of a replica
 * that answers takes milliseconds; one still out after this is waiting on a replica that went silent
 * (up to the 15 s query timeout on an open connection), and the reads sent there meanwhile would hang
 * and fail: they go to the primary instead.
 */
const IN_USE_TRUSTED_MS = 3 * CHECK_EVERY_MS;

interface Settings {
  replicaUrl: string | null;
  maxLagSeconds: number;
}

let settings: Settings | undefined;
let pools: { primary: Pool; replica: Pool } | undefined;
let lastState: ReplicaState | undefined;
let behindSince: number | undefined;
let checking: Promise<ReplicaState> | undefined;
/** Raised by resetReadReplica: a check begun before it does not become the state after it. */
let generation = 0;
const readAfter = new AsyncLocalStorage<string | null>();

function getSettings(): Settings {
  if (!settings) {
    const config = loadConfig();
    settings = {
      replicaUrl: config.HOOKLINE_READ_DATABASE_URL ?? null,
      maxLagSeconds: config.HOOKLINE_READ_MAX_LAG / 1000,
    };
  }
  return settings;
}

/** Whether a read replica is configured at all. */
export function readReplicaConfigured(): boolean {
  return getSettings().replicaUrl !== null;
}

function statusPools(): { primary: Pool; replica: Pool } {
  if (!pools) {
    const primaryUrl = process.env.DATABASE_URL;
    if (!primaryUrl) throw new Error('DATABASE_URL is not set');
    const web = { max: 1, application_name: CONNECTION_NAMES.web };
    pools = { primary: createPool(primaryUrl, web), replica: createPool(getSettings().replicaUrl!, web) };
  }
  return pools;
}

async function checkReplica(): Promise<ReplicaState> {
  const { primary, replica } = statusPools();
  const checkedAt = Date.now();
  try {
    const { rows } = await replica.query<{ standby: boolean; replay_lsn: string | null; since_replay: number | null }>(
      `SELECT pg_is_in_recovery() AS standby, pg_last_wal_replay_lsn()::text AS replay_lsn,
              extract(epoch FROM now() - pg_last_xact_replay_timestamp())::float8 AS since_replay`,
    );
    const { standby, replay_lsn: replayLsn, since_replay: sinceReplay } = rows[0]!;
    if (!standby || replayLsn === null) {
      return { inUse: false, lagBytes: null, lagSeconds: null, replayLsn: null, checkedAt, problem: 'not a standby' };
    }
    const behind = await primary.query<{ lag_bytes: number }>(
      'SELECT pg_wal_lsn_diff(pg_current_wal_lsn(), $1::pg_lsn)::float8 AS lag_bytes',
      [replayLsn],
    );
    const lagBytes = Math.max(0, behind.rows[0]!.lag_bytes);
    // Caught up: no lag, however long ago the last commit was. Behind: as long as since the last commit
    // it replayed (an idle primary's last commit may be older, which overstates, never hides), or, when
    // it has replayed none since it started, since this process first saw it behind.
    if (lagBytes === 0) behindSince = undefined;
    else behindSince ??= checkedAt;
    const lagSeconds = lagBytes === 0 ? 0 : (sinceReplay ?? (checkedAt - behindSince!) / 1000);
    const tooFar = lagSeconds > getSettings().maxLagSeconds;
    return {
      inUse: !tooFar,
      lagBytes,
      lagSeconds,
      replayLsn,
      checkedAt,
      problem: tooFar ? `more than HOOKLINE_READ_MAX_LAG (${getSettings().maxLagSeconds} s) behind` : null,
    };
  } catch (error) {
    return {
      inUse: false,
      lagBytes: null,
      lagSeconds: null,
      replayLsn: null,
      checkedAt,
      problem: `unreachable: ${(error as Error).message}`,
    };
  }
}

/**
 * The replica's state: the last check's, starting the next one when it is over a second old, or a new
 * one's when asked for `fresh` (a read that must see a write). Null when none is configured. Before
 * any check has answered: the first's, if it answers within FIRST_CHECK_WAIT_MS, else "not checked
 * yet" (not in use).
 */
export async function readReplicaState(options: { fresh?: boolean } = {}): Promise<ReplicaState | null> {
  if (!readReplicaConfigured()) return null;
  // Its age from when its answer came: stamped when it began, a check that took the 5 s connection
  // timeout was stale on arrival, and the next read started another and waited for it too.
  if (!options.fresh && lastState && Date.now() - lastState.checkedAt < CHECK_EVERY_MS) return lastState;
  if (!checking) {
    const begunIn = generation;
    const check = checkReplica().then((state) => {
      const answered = { ...state, checkedAt: Date.now() };
      if (begunIn === generation) lastState = answered;
      return answered;
    });
    checking = check;
    check
      .finally(() => {
        if (checking === check) checking = undefined;
      })
      .catch(() => {}); // the callers awaiting `check` hear of a failure
  }
  if (options.fresh) return checking;
  if (lastState) {
    const age = Date.now() - lastState.checkedAt;
    if (!lastState.inUse || age < IN_USE_TRUSTED_MS) return lastState;
    return {
      ...lastState,
      inUse: false,
      problem: `not answering: its last check answered ${Math.round(age / 1000)} s ago`,
    };
  }
  const first = await Promise.race([checking, sleep(FIRST_CHECK_WAIT_MS).then(() => null)]);
  return first ?? notCheckedYet();
}

function notCheckedYet(): ReplicaState {
  return {
    inUse: false,
    lagBytes: null,
    lagSeconds: null,
    replayLsn: null,
    checkedAt: 0,
    problem: `not checked yet: the first check took longer than ${FIRST_CHECK_WAIT_MS} ms`,
  };
}

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms).unref());

/**
 * The Prisma client for a read that may lag: the replica's when it is in use and has replayed the
 * writes this request must see (withReadAfter), otherwise the primary's.
 */
export async function readPrisma(): Promise<PrismaClient> {
  if (!readReplicaConfigured()) return getPrisma();
  const required = readAfter.getStore() ?? null;
  let state = await readReplicaState();
  if (state?.inUse && required && !replayedUpTo(state, required)) state = await readReplicaState({ fresh: true });
  if (!state?.inUse || (required && !replayedUpTo(state, required))) return getPrisma();
  return getPrisma(getSettings().replicaUrl!);
}

/** Runs `work` with reads that must see everything the primary had written at `lsn`. */
export function withReadAfter<T>(lsn: string | null, work: () => Promise<T>): Promise<T> {
  return readAfter.run(lsn, work);
}

/**
 * Where the primary's WAL ends now, for a change just made; null when no replica is configured. The
 * insert position, not the written one: with asynchronous commit (the worker's, or a server's default)
 * a commit may still sit in WAL buffers, before pg_current_wal_lsn(), and a standby replayed up to the
 * written position did not yet show it (seen in test/api/read-replica.test.ts).
 */
export async function primaryWalPosition(): Promise<string | null> {
  if (!readReplicaConfigured()) return null;
  const { rows } = await statusPools().primary.query<{ lsn: string }>(
    'SELECT pg_current_wal_insert_lsn()::text AS lsn',
  );
  return rows[0]!.lsn;
}

const LSN = /^[0-9A-F]{1,8}\/[0-9A-F]{1,8}$/i;

/** A WAL position as PostgreSQL prints it (`16/B374D848`), or null for anything else. */
export function parseWalPosition(text: string | null | undefined): string | null {
  return text && LSN.test(text) ? text.toUpperCase() : null;
}

function lsnValue(lsn: string): bigint {
  const [high, low] = lsn.split('/');
  return (BigInt(`0x${high}`) << 32n) | BigInt(`0x${low}`);
}

function replayedUpTo(state: ReplicaState, lsn: string): boolean {
  return state.replayLsn !== null && lsnValue(state.replayLsn) >= lsnValue(lsn);
}

/** Tests change the environment between cases; this makes the next call read it again. */
export async function resetReadReplica(): Promise<void> {
  generation++;
  checking = undefined;
  settings = undefined;
  lastState = undefined;
  behindSince = undefined;
  const open = pools;
  pools = undefined;
  if (open) await Promise.all([open.primary.end(), open.replica.end()]);
}
