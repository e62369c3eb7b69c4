// A read replica (HOOKLINE_READ_DATABASE_URL, lib/database/read-replica.ts) that stops answering
// without closing anything, as a host cut off by a firewall or a dead NAT does: finding that out takes
// the connection timeout (5 s), and no read may wait for it. Reads go to the primary at once, from the
// first, and the replica's state says what is wrong once the check has answered. A real PostgreSQL
// behind a TCP proxy made silent (test/support/tcp-proxy.ts).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { getPrisma } from '../../lib/database/db';
import { readPrisma, readReplicaState, resetReadReplica } from '../../lib/database/read-replica';
import { resetApiSettings } from '../../lib/runtime/api-settings';
import { createTestDatabase, type TestDatabase } from '../support/database';
import { waitUntil } from '../support/receiver';
import { startTcpProxy, type TcpProxy } from '../support/tcp-proxy';

let db: TestDatabase;
let proxy: TcpProxy;
const saved = { ...process.env };

beforeAll(async () => {
  db = await createTestDatabase();
  proxy = await startTcpProxy(Number(new URL(db.url).port));
  proxy.goSilent();
  Object.assign(process.env, { DATABASE_URL: db.url, HOOKLINE_READ_DATABASE_URL: proxy.url(db.url) });
  resetApiSettings();
  await resetReadReplica();
});

afterAll(async () => {
  await resetReadReplica();
  await getPrisma(db.url).$disconnect();
  await proxy.close();
  process.env = saved;
  resetApiSettings();
});

describe('a read replica that answers nothing', () => {
  it('never holds a read for its check: every read goes to the primary at once', async () => {
    const primary = getPrisma(db.url);
    const durations: number[] = [];
    // Six seconds of reads, a quarter of a second apart: past the first check's connection timeout.
    for (let i = 0; i < 24; i++) {
      const started = performance.now();
      expect(await readPrisma()).toBe(primary);
      durations.push(performance.now() - started);
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
    expect(Math.max(...durations)).toBeLessThan(1000);
    await waitUntil(async () => (await readReplicaState())?.problem?.startsWith('unreachable') ?? false, {
      timeoutMs: 10_000,
      what: 'the replica reported unreachable',
    });
  }, 30_000);
});
