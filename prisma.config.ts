// Prisma 7 reads the connection from here (no longer from schema.prisma). `?schema=hookline` keeps
// Prisma's own `_prisma_migrations` table in Hookline's schema, where lib/database/migrate.ts records it too,
// so `prisma migrate deploy` agrees with what Hookline applied itself.
import { defineConfig } from 'prisma/config';

export default defineConfig({
  schema: 'prisma/schema.prisma',
  migrations: { path: 'prisma/migrations' },
  datasource: { url: process.env.DATABASE_URL ?? 'postgresql://localhost:5432/hookline?schema=hookline' },
});
