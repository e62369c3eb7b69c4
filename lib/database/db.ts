// The Prisma client, for CRUD and dashboard reads. One per process and connection string; Next.js
// dev reloads modules, so the instance is kept on globalThis.
import { PrismaPg } from '@prisma/adapter-pg';
import { PrismaClient } from '../generated/prisma/client';
import { CONNECTION_NAMES, createPool } from './pg';

const clients = ((globalThis as { __hooklinePrisma?: Map<string, PrismaClient> }).__hooklinePrisma ??= new Map());

/**
 * No JIT compilation on these connections: the dashboard's and the API's statements run in
 * milliseconds, and compiling one on a PostgreSQL built with LLVM (Debian's, as most are) costs tens of
 * milliseconds to seconds. A lookup of deliveries by message is a loop of per-message probes
 * (prisma/functions/deliveries-of-message.sql), each priced at 0.5 % of a partition: estimates that
 * pass jit_above_cost on a large table, as the worker's queue sample did (136 functions compiled for
 * over 5 s on PostgreSQL 15, worker/worker-connections.ts). A connection string's own `options` wins.
 */
const WEB_SESSION_OPTIONS = '-c jit=off';

export function getPrisma(connectionString = requireDatabaseUrl()): PrismaClient {
  let client = clients.get(connectionString);
  if (!client) {
    client = new PrismaClient({
      // createPool's pool, not one the adapter makes: its clients listen for errors for their whole
      // life. The adapter listens on a transaction's client only once `await pool.connect()` returns,
      // and a connection that died at hand-over (PostgreSQL stopping as the web server connects)
      // emitted an 'error' nobody heard, which ends the process
      // (test/lib/prisma-pool-client-errors.test.ts).
      adapter: new PrismaPg(
        createPool(connectionString, {
          options: WEB_SESSION_OPTIONS,
          application_name: CONNECTION_NAMES.web,
        }),
        {
          disposeExternalPool: true,
        },
      ),
    });
    clients.set(connectionString, client);
  }
  return client;
}

export function requireDatabaseUrl(): string {
  const url = process.env.DATABASE_URL;
  if (!url) throw new Error('DATABASE_URL is not set (npm start sets it when it starts the embedded PostgreSQL)');
  return url;
}

export type { PrismaClient };
