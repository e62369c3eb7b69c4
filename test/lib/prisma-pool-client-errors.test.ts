// The web's Prisma client (lib/database/db.ts) against a real PostgreSQL: the same hand-over window
// test/lib/pool-client-errors.test.ts closes for createPool. Prisma 7's pg adapter listens on a
// transaction's client only after `await pool.connect()` returns, a microtask after the pool handed
// the client over; a connection that dies in that window (PostgreSQL's "terminating connection" in the
// same socket read as the end of start-up, when the server stops as the web server connects) emitted
// an 'error' nobody listened to, which ends the web server. Here the death is emitted from the pool's
// own hand-over: right after node-postgres removes the client's idle listener, before its caller runs.
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { getPrisma } from '../../lib/database/db';
import { createTestDatabase, type TestDatabase } from '../support/database';

let db: TestDatabase;

beforeAll(async () => {
  db = await createTestDatabase();
});

afterAll(async () => {
  await getPrisma(db.url).$disconnect();
});

describe("the web's Prisma client, when a connection dies as the pool hands it over", () => {
  it('fails that transaction cleanly, does not throw an unhandled error, and serves the next one', async () => {
    const prisma = getPrisma(db.url);
    await prisma.$queryRaw`SELECT 1`; // the adapter's pool exists from here on

    const originalEmit = pg.Pool.prototype.emit;
    let killed = 0;
    let unhandled: Error | undefined;
    pg.Pool.prototype.emit = function (this: pg.Pool, event: string | symbol, ...args: unknown[]) {
      if (event === 'acquire' && killed === 0) {
        // The pool removes its idle listener right after 'acquire', then hands the client over: the
        // connection dies in between, before the caller's code runs.
        const client = args[0] as pg.PoolClient;
        const removeListener = client.removeListener;
        client.removeListener = function (this: pg.PoolClient, ...removed: Parameters<typeof removeListener>) {
          const self = removeListener.apply(this, removed);
          if (removed[0] === 'error' && killed === 0) {
            killed += 1;
            client.removeListener = removeListener;
            try {
              client.emit('error', new Error('terminating connection due to administrator command'));
            } catch (error) {
              unhandled = error as Error;
            }
          }
          return self;
        } as typeof removeListener;
      }
      return originalEmit.call(this, event, ...args);
    } as typeof originalEmit;
    try {
      // The transaction may succeed (the emitted error is not a real socket failure) or fail; either is
      // fine. What must not happen is an 'error' event with no listener.
      await prisma.$transaction(async (tx) => tx.$queryRaw`SELECT 1`).catch(() => undefined);
    } finally {
      pg.Pool.prototype.emit = originalEmit;
    }
    expect(killed).toBe(1);
    expect(unhandled?.message).toBeUndefined();

    const rows = await prisma.$transaction(async (tx) => tx.$queryRaw<{ one: number }[]>`SELECT 1 AS one`);
    expect(rows[0]!.one).toBe(1);
  });
});
