// The web's Prisma connections (the dashboard, the REST API) run without JIT: their statements take
// milliseconds, and a compile on a PostgreSQL built with LLVM costs more (lib/database/db.ts). They
// name themselves, so pg_stat_activity and the server's log tell them from the worker's.
import { describe, expect, it } from 'vitest';
import { getPrisma } from '../../lib/database/db';
import { createClient, createPool } from '../../lib/database/pg';
import { createTestDatabase } from '../support/database';

describe("the web's database connections", () => {
  it('compile nothing with JIT, whatever the server says', async () => {
    const db = await createTestDatabase();
    await db.pool.query(`ALTER DATABASE ${db.name} SET jit = on`);
    const prisma = getPrisma(db.url);
    try {
      const [row] = await prisma.$queryRaw<{ jit: string }[]>`SELECT current_setting('jit') AS jit`;
      expect(row).toEqual({ jit: 'off' });
    } finally {
      await prisma.$disconnect();
    }
  });

  it("are named 'hookline web', unless the connection string names them", async () => {
    const db = await createTestDatabase();
    const named = `${db.url}${db.url.includes('?') ? '&' : '?'}application_name=reporting`;
    const prisma = getPrisma(db.url);
    const prismaNamed = getPrisma(named);
    const other = createPool(db.url, { max: 1 });
    try {
      const nameOf = async (client: typeof prisma) =>
        (await client.$queryRaw<{ name: string }[]>`SELECT current_setting('application_name') AS name`)[0]!.name;
      expect(await nameOf(prisma)).toBe('hookline web');
      expect(await nameOf(prismaNamed)).toBe('reporting');
      // Any other pool of Hookline's (the start's health checks, scripts) is 'hookline'.
      const { rows } = await other.query<{ name: string }>(`SELECT current_setting('application_name') AS name`);
      expect(rows[0]!.name).toBe('hookline');
      // PGAPPNAME names Hookline's connections, never one a caller named itself.
      const operatorsName = process.env.PGAPPNAME;
      process.env.PGAPPNAME = 'named-by-the-operator';
      try {
        for (const [options, expected] of [
          [{}, 'named-by-the-operator'],
          [{ application_name: 'stalled-fan-out' }, 'stalled-fan-out'],
        ] as const) {
          const pool = createPool(db.url, { max: 1, ...options });
          const { rows: named } = await pool.query<{ name: string }>(
            `SELECT current_setting('application_name') AS name`,
          );
          expect(named[0]!.name).toBe(expected);
          await pool.end();
        }
      } finally {
        if (operatorsName === undefined) delete process.env.PGAPPNAME;
        else process.env.PGAPPNAME = operatorsName;
      }
      // And a single connection of its own (migrations).
      const client = createClient(db.url);
      await client.connect();
      try {
        const named = await client.query<{ name: string }>(`SELECT current_setting('application_name') AS name`);
        expect(named.rows[0]!.name).toBe('hookline');
      } finally {
        await client.end();
      }
    } finally {
      await Promise.all([prisma.$disconnect(), prismaNamed.$disconnect(), other.end()]);
    }
  });
});
