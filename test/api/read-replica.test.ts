// Reads that may lag go to a streaming replica (HOOKLINE_READ_DATABASE_URL, lib/database/read-replica.ts):
// a real primary and a real standby of it, replay paused and resumed on the standby to make it lag on
// purpose. Lists and charts read the standby; a client that just wrote reads its write (the
// Hookline-Read-After header or cookie); a standby too far behind, or gone, is not read from.
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { createApiKey } from '../../lib/domain/api-keys/create-api-key';
import { getPrisma } from '../../lib/database/db';
import { readPrisma, readReplicaState, resetReadReplica } from '../../lib/database/read-replica';
import { resetApiSettings } from '../../lib/runtime/api-settings';
import { resetRateLimits } from '../../lib/http/rate-limit';
import { SERVER_KINDS, startPrimaryAndStandby, type PrimaryAndStandby } from '../support/postgres-servers';
import { waitUntil } from '../support/receiver';
import { startTcpProxy } from '../support/tcp-proxy';
import { call } from './support/api';

const READ_AFTER = 'hookline-read-after';

describe.each(SERVER_KINDS)('$name with a streaming standby', (kind) => {
  let servers: PrimaryAndStandby | undefined;
  const saved = { ...process.env };

  afterAll(async () => {
    await resetReadReplica();
    if (servers) {
      await getPrisma(servers.standbyUrl).$disconnect();
      await getPrisma(servers.primary.databaseUrl).$disconnect();
    }
    await servers?.close();
    process.env = saved;
    resetApiSettings();
  });

  it.skipIf(kind.unavailable !== null)(
    `lists read the standby, a writer reads its own writes, a lagging or missing standby is skipped${kind.unavailable ? ` (skipped: ${kind.unavailable})` : ''}`,
    async () => {
      servers = await startPrimaryAndStandby(kind, 'hookline_replica');
      const standby = new pg.Client({ connectionString: servers.standbyUrl });
      await standby.connect();
      const configure = async (env: Record<string, string | undefined>) => {
        Object.assign(process.env, { DATABASE_URL: servers!.primary.databaseUrl, HOOKLINE_API_RATE_LIMIT: '0' }, env);
        for (const [name, value] of Object.entries(env)) if (value === undefined) delete process.env[name];
        resetApiSettings();
        await resetReadReplica();
      };
      const caughtUp = () =>
        waitUntil(async () => (await readReplicaState({ fresh: true }))?.lagBytes === 0, {
          timeoutMs: 20_000,
          what: 'the standby to catch up',
        });

      // No replica configured: nothing extra on a change, no replica in the stats.
      await configure({ HOOKLINE_READ_DATABASE_URL: undefined });
      await resetRateLimits();
      const { key } = await createApiKey({ name: 'replica test', appId: null });
      const app = await call('POST', '/v1/apps', { key, body: { name: 'Giedi Prime' } });
      expect(app.status).toBe(201);
      expect(app.headers.get(READ_AFTER)).toBeNull();
      expect((await call('GET', '/v1/stats', { key })).body.readReplica).toBeNull();

      await configure({ HOOKLINE_READ_DATABASE_URL: servers.standbyUrl, HOOKLINE_READ_MAX_LAG: '60s' });
      await caughtUp();
      const stats = await call('GET', '/v1/stats', { key });
      expect(stats.body.readReplica).toEqual({ inUse: true, lagSeconds: 0, lagBytes: 0, problem: null });

      // The standby stops replaying: what the primary writes now, it does not have.
      await standby.query('SELECT pg_wal_replay_pause()');
      const created = await call('POST', `/v1/apps/${app.body.id}/event-types`, {
        key,
        body: { name: 'harkonnen.raid' },
      });
      expect(created.status).toBe(201);
      const written = created.headers.get(READ_AFTER);
      expect(written).toMatch(/^[0-9A-F]+\/[0-9A-F]+$/);
      expect(created.headers.get('set-cookie')).toContain(`hookline_read_after=${written}`);
      const names = async (options: { headers?: Record<string, string>; cookie?: string } = {}) =>
        (
          (await call('GET', `/v1/apps/${app.body.id}/event-types`, { key, ...options })).body.data as {
            name: string;
          }[]
        ).map((eventType) => eventType.name);
      // A plain list reads the standby, which has not replayed the new event type...
      expect(await names()).toEqual([]);
      // ...a reader that brings back the position of its write gets it (from the primary)...
      expect(await names({ headers: { 'Hookline-Read-After': written! } })).toEqual(['harkonnen.raid']);
      expect(await names({ cookie: `hookline_read_after=${written}` })).toEqual(['harkonnen.raid']);
      // ...and the single resource is always read from the primary.
      const one = await call('GET', `/v1/apps/${app.body.id}/event-types/harkonnen.raid`, { key });
      expect(one.status).toBe(200);

      // Behind by more than HOOKLINE_READ_MAX_LAG: not read from, and the stats say why.
      await configure({ HOOKLINE_READ_DATABASE_URL: servers.standbyUrl, HOOKLINE_READ_MAX_LAG: '1s' });
      await new Promise((resolve) => setTimeout(resolve, 1100));
      const lagging = (await call('GET', '/v1/stats', { key })).body.readReplica;
      expect(lagging).toMatchObject({ inUse: false, problem: expect.stringContaining('HOOKLINE_READ_MAX_LAG') });
      expect(lagging.lagBytes).toBeGreaterThan(0);
      expect(lagging.lagSeconds).toBeGreaterThan(1);
      expect(await names()).toEqual(['harkonnen.raid']);

      // Replaying again: caught up, read from again, and it has the event type.
      await standby.query('SELECT pg_wal_replay_resume()');
      await caughtUp();
      expect((await call('GET', '/v1/stats', { key })).body.readReplica).toMatchObject({ inUse: true, lagSeconds: 0 });
      expect(await names()).toEqual(['harkonnen.raid']);
      await standby.end();

      // The standby, in use, goes silent (a firewall, a dead NAT: nothing is closed): within a few
      // seconds reads go to the primary, none of them waiting for the check that hangs meanwhile.
      const proxy = await startTcpProxy(Number(new URL(servers.standbyUrl).port));
      const throughProxy = proxy.url(servers.standbyUrl);
      try {
        await configure({ HOOKLINE_READ_DATABASE_URL: throughProxy, HOOKLINE_READ_MAX_LAG: '60s' });
        await caughtUp();
        expect(await readPrisma()).toBe(getPrisma(throughProxy));
        proxy.goSilent();
        const silentAt = Date.now();
        let slowest = 0;
        for (;;) {
          const started = Date.now();
          const client = await readPrisma();
          slowest = Math.max(slowest, Date.now() - started);
          if (client === getPrisma(servers.primary.databaseUrl)) break;
          expect(Date.now() - silentAt, 'reads still sent to the silent standby').toBeLessThan(6000);
          await new Promise((resolve) => setTimeout(resolve, 100));
        }
        expect(slowest).toBeLessThan(1000);
        expect((await readReplicaState())?.problem).toMatch(/^not answering|^unreachable/);
      } finally {
        // The proxy first: the connections through it are cut, so nothing waits on the silence.
        await proxy.close();
        await configure({ HOOKLINE_READ_DATABASE_URL: servers.standbyUrl });
        await getPrisma(throughProxy).$disconnect();
      }

      // The standby goes away: lists keep working, from the primary, and the stats say why.
      await servers.standby.stop();
      await readReplicaState({ fresh: true });
      const gone = (await call('GET', '/v1/stats', { key })).body.readReplica;
      expect(gone).toMatchObject({ inUse: false, problem: expect.stringMatching(/^unreachable/) });
      expect(await names()).toEqual(['harkonnen.raid']);
    },
    120_000,
  );
});
