// The fan-out as a worker runs it (worker/sql/fan-out-messages.sql), with the cursor it last saw.
// Invariant: the cursor passed is only ever one the database returned, so a fan-out takes exactly what
// is new after the cursor it locks, or nothing (the statement locks the cursor only if it is still the
// one passed).
// The statement gets the cursor as parameters rather than reading it itself: the planner then sees
// constants (fan-out-messages.sql says what reading it inside cost). A worker that fanned out last
// already holds the current cursor from its own statement's answer; one whose cursor another worker's
// fan-out moved learns the new one from the same answer, having taken nothing, and tries again at once.
import type { Pool } from '../lib/database/pg';
import { realClock, type Clock } from './clock';
import { statements, type FanOutCursor, type FanOutParams, type FanOutRow } from './statements';

// Two workers that take turns each see the other's move about every other fan-out: one more statement
// then. More tries than that in a row would mean the cursor moves faster than this worker reads it;
// it then waits for the next turn like a busy cursor.
const TRIES = 3;

export class FanOutRunner {
  private cursor: FanOutCursor = { cursorThrough: null, cursorPartialXid: null, cursorPartialThroughId: null };

  /** `clock` times `sentAt`, as the lease book's other entries are timed (worker/clock.ts). */
  constructor(private readonly clock: Clock = realClock) {}

  /** One fan-out; `sentAt` is when its last statement was sent, for the lease book. */
  async run(
    pool: Pool,
    params: Omit<FanOutParams, keyof FanOutCursor>,
  ): Promise<{ rows: FanOutRow[]; sentAt: number }> {
    for (let tries = 1; ; tries++) {
      const sentAt = this.clock.now();
      const { rows } = await statements.fanOutMessages.run(pool, { ...params, ...this.cursor });
      const counts = rows[0]!;
      this.cursor = {
        cursorThrough: counts.cursor_through,
        cursorPartialXid: counts.cursor_partial_xid,
        cursorPartialThroughId: counts.cursor_partial_through_id,
      };
      if (!counts.cursor_moved || tries === TRIES) return { rows, sentAt };
    }
  }
}

/** One fan-out by a runner that has seen no cursor yet: for tests and one-off callers. */
export async function fanOutOnce(pool: Pool, params: Omit<FanOutParams, keyof FanOutCursor>): Promise<FanOutRow[]> {
  return (await new FanOutRunner().run(pool, params)).rows;
}

/** The cursor as it is now, in the form a fan-out takes it: for EXPLAIN in tests. */
export async function readFanOutCursor(pool: Pool): Promise<FanOutCursor> {
  const { rows } = await pool.query<FanOutCursor>(
    `SELECT fanned_out_through::text AS "cursorThrough", partial_xid::text AS "cursorPartialXid",
            partial_through_id AS "cursorPartialThroughId"
       FROM hookline.fanout_cursor`,
  );
  return rows[0]!;
}
