// The Prisma client, for CRUD and dashboard reads. One per process and connection string; Next.js
// dev reloads modules, so the instance is kept on globalThis.
import { PrismaPg } from '@prisma/adapter-pg';
import { PrismaClient } from '../generated/prisma/client';
import { SILENT_CONNECTION_LIMITS } from './pg';

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
      adapter: new PrismaPg({ connectionString, max: 10, ...SILENT_CONNECTION_LIMITS, options: WEB_SESSION_OPTIONS }),
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
