// The web's Prisma connections (the dashboard, the REST API) run without JIT: their statements take
// milliseconds, and a compile on a PostgreSQL built with LLVM costs more (lib/database/db.ts).
import { describe, expect, it } from 'vitest';
import { getPrisma } from '../../lib/database/db';
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
});
