// One worker of many does a chore: whichever takes its advisory lock, taken with try (never waiting);
// the others skip it. Locks are keyed by arbitrary constants, the same in every Hookline process.
import { withPoolClient, type Pool } from '../lib/database/pg';

/**
 * Runs `work` if this process gets the advisory lock `key`, else returns null. `transaction`: the lock
 * is a transaction's, and `work` runs inside that transaction; otherwise it is the session's: `work`
 * runs its statements on the same connection, each its own transaction, so none stays open for long
 * (retention deletes for up to its budget, longer than the worker sessions' 10 s idle-in-transaction
 * limit), and the lock is given back after.
 */
export async function withTryLock<T>(
  pool: Pool,
  key: number,
  mode: 'transaction' | 'session',
  work: (query: Pool['query']) => Promise<T>,
): Promise<T | null> {
  return withPoolClient(pool, async (client) => {
    try {
      if (mode === 'session') {
        const { rows } = await client.query<{ locked: boolean }>('SELECT pg_try_advisory_lock($1) AS locked', [key]);
        if (!rows[0]?.locked) return null;
        try {
          return await work(client.query.bind(client) as Pool['query']);
        } finally {
          // If this fails the connection is gone, and the lock with it.
          await client.query('SELECT pg_advisory_unlock($1)', [key]).catch(() => {});
        }
      }
      await client.query('BEGIN');
      const { rows } = await client.query<{ locked: boolean }>('SELECT pg_try_advisory_xact_lock($1) AS locked', [key]);
      if (!rows[0]?.locked) {
        await client.query('ROLLBACK');
        return null;
      }
      const result = await work(client.query.bind(client) as Pool['query']);
      await client.query('COMMIT');
      return result;
    } catch (error) {
      await client.query('ROLLBACK').catch(() => {});
      throw error;
    }
  });
}
