import { beforeAll, expect, it } from 'vitest';
import { setUpApiTest, type ApiTestContext } from './support/api';
import { getPrisma } from '../../lib/db';

let ctx: ApiTestContext;
beforeAll(async () => { ctx = await setUpApiTest(); });

it('probe', async () => {
  await ctx.db.pool.query(`INSERT INTO hookline.apps (id, name, created_at) VALUES ('a1','x','2026-01-01T00:00:00.123456Z'), ('a2','y','2026-01-01T00:00:00.123400Z')`);
  const p = getPrisma();
  const r1 = await p.app.findMany({ where: { createdAt: { lt: '2026-01-01T00:00:00.123456Z' } } });
  const r2 = await p.app.findMany({ where: { createdAt: { lt: '2026-01-01T00:00:00.123401Z' } } });
  const r3 = await p.app.findMany({ where: { createdAt: '2026-01-01T00:00:00.123456Z' } });
  console.log(r1.map(a => a.id), r2.map(a => a.id), r3.map(a => a.id));
});
