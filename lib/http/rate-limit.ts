// Token bucket per principal (API key, dashboard user, sign-in email): `ratePerSecond` tokens a
// second, bursts of up to one second's worth. The buckets live in PostgreSQL
// (hookline.rate_limit_buckets, UNLOGGED), so the limit holds for the deployment however many web
// processes share the database, instead of multiplying with them as an in-process map did.
//
// The cost is one statement per limited request: an INSERT ... ON CONFLICT DO UPDATE of the
// principal's row (a HOT update of a one-index table, no WAL), one round trip on the request's
// existing pool. Requests of one principal queue on its row lock for the microseconds the update
// takes; different principals never wait for each other.
import { getPrisma, type PrismaClient } from '../database/db';
import { Prisma } from '../generated/prisma/client';
import { createLogger } from '../runtime/log';

const log = createLogger({ component: 'rate-limit' });

// An idle bucket is full again after one second, so deleting rows idle for a minute changes nothing;
// each process does it at most once a minute, after a request, without making that request wait.
const CLEANUP_EVERY_MS = 60_000;
let lastCleanupAt = 0;

export interface TakeTokenOptions {
  prisma?: PrismaClient;
  /** The caller's clock in epoch ms (tests pass their own). */
  now?: number;
}

/** Takes a token; resolves to 0 when allowed, else the seconds to wait for the next token. */
export async function takeToken(key: string, ratePerSecond: number, options: TakeTokenOptions = {}): Promise<number> {
  if (ratePerSecond <= 0) return 0;
  const { prisma = getPrisma(), now = Date.now() } = options;
  // The refill since the last take, capped at the burst. A clock a few milliseconds behind another
  // web host's refills nothing rather than a negative amount, and never moves the bucket's time back.
  const refilled = Prisma.sql`least(${ratePerSecond}::float8,
    b.tokens + greatest(0, ${now}::bigint - b.updated_ms) / 1000.0 * ${ratePerSecond}::float8)`;
  const [bucket] = await prisma.$queryRaw<{ allowed: boolean; tokens: number }[]>`
    INSERT INTO hookline.rate_limit_buckets AS b (key, tokens, updated_ms, allowed)
    VALUES (${key}, ${ratePerSecond}::float8 - 1, ${now}::bigint, true)
    ON CONFLICT (key) DO UPDATE SET
      tokens = ${refilled} - CASE WHEN ${refilled} >= 1 THEN 1 ELSE 0 END,
      updated_ms = greatest(b.updated_ms, ${now}::bigint),
      allowed = ${refilled} >= 1
    RETURNING allowed, tokens`;
  if (now - lastCleanupAt >= CLEANUP_EVERY_MS) {
    lastCleanupAt = now;
    void prisma.$executeRaw`DELETE FROM hookline.rate_limit_buckets WHERE updated_ms < ${now - CLEANUP_EVERY_MS}::bigint`.catch(
      (error: unknown) => log.warn('removing idle rate-limit buckets failed; next try in a minute', { error }),
    );
  }
  if (bucket!.allowed) return 0;
  return Math.max(1, Math.ceil((1 - bucket!.tokens) / ratePerSecond));
}

/** Empties every bucket (tests). */
export async function resetRateLimits({ prisma = getPrisma() }: { prisma?: PrismaClient } = {}): Promise<void> {
  await prisma.$executeRaw`DELETE FROM hookline.rate_limit_buckets`;
  lastCleanupAt = 0;
}
