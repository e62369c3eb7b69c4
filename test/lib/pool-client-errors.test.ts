// createPool (lib/database/pg.ts) against a real PostgreSQL: a client's connection can die at any
// moment, including the instant the pool hands it over, before its caller has attached a listener
// (the server's "terminating connection" in the same socket read as the end of the client's start-up,
// when PostgreSQL stops as a pool connects: it ended a worker in test/worker/postgres-restart.test.ts).
// Node throws an 'error' event nobody listens to, so the process would end; with createPool's clients
// it must not, and the pool must replace the broken client.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPool, withPoolClient, type Pool } from '../../lib/database/pg';
import { createTestDatabase, type TestDatabase } from '../support/database';

let db: TestDatabase;
let pool: Pool;

beforeAll(async () => {
  db = await createTestDatabase();
  pool = createPool(db.url, { max: 1 });
});

afterAll(async () => {
  await pool?.end();
});

describe('a pooled client whose connection dies as it is handed over', () => {
  it('does not throw an unhandled error, and the pool replaces it', async () => {
    const { rows: first } = await new Promise<{ rows: { pid: number }[] }>((resolve, reject) => {
      pool.connect((error, client, release) => {
        if (error || !client) return reject(error);
        // What node-postgres does when the server's termination arrives in the read that finished
        // the connection's start-up: synchronously, before the caller's code after connect() runs.
        try {
          client.emit('error', new Error('terminating connection due to administrator command'));
        } catch (unhandled) {
          release(unhandled as Error);
          return reject(new Error(`the handed-over client had no error listener: ${(unhandled as Error).message}`));
        }
        client.query('SELECT pg_backend_pid() AS pid').then(
          (result) => {
            release(new Error('lost'));
            resolve(result);
          },
          (queryError: Error) => {
            release(queryError);
            reject(queryError);
          },
        );
      });
    });
    // The next caller gets a working connection: the one given back with its error was discarded.
    const { rows: next } = await pool.query<{ pid: number }>('SELECT pg_backend_pid() AS pid');
    expect(next[0]!.pid).not.toBe(first[0]!.pid);
  });
});

describe('a pooled client whose query outlived its timeout', () => {
  it('is not handed to the next caller, whose query would wait behind the one still running', async () => {
    const impatient = createPool(db.url, { max: 1, query_timeout: 300 });
    try {
      const { rows } = await impatient.query<{ pid: number }>('SELECT pg_backend_pid() AS pid');
      await expect(withPoolClient(impatient, (client) => client.query('SELECT pg_sleep(3)'))).rejects.toThrow(
        'Query read timeout',
      );
      // Given back as if healthy, the same connection answered this only after the sleep: past 300 ms.
      const { rows: next } = await impatient.query<{ pid: number }>('SELECT pg_backend_pid() AS pid');
      expect(next[0]!.pid).not.toBe(rows[0]!.pid);
    } finally {
      await impatient.end();
    }
  });
});
