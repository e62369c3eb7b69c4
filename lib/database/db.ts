// The Prisma client, for CRUD and dashboard reads. One per process and connection string; Next.js
// dev reloads modules, so the instance is kept on globalThis.
import { PrismaPg } from '@prisma/adapter-pg';
import { PrismaClient } from '../generated/prisma/client';
import { SILENT_CONNECTION_LIMITS } from './pg';

const clients = ((globalThis as { __hooklinePrisma?: Map<string, PrismaClient> }).__hooklinePrisma ??= new Map());

export function getPrisma(connectionString = requireDatabaseUrl()): PrismaClient {
  let client = clients.get(connectionString);
  if (!client) {
    client = new PrismaClient({ adapter: new PrismaPg({ connectionString, max: 10, ...SILENT_CONNECTION_LIMITS }) });
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
