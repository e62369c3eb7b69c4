// Rows a test needs, created with plain SQL so the fixtures do not depend on the code under test.
import { randomBytes } from 'node:crypto';
import type { Pool } from '../../lib/database/pg';

export async function createApp(pool: Pool, name = 'Test app'): Promise<string> {
  const { rows } = await pool.query<{ id: string }>('INSERT INTO hookline.apps (name) VALUES ($1) RETURNING id', [
    name,
  ]);
  return rows[0]!.id;
}

export async function createEventType(pool: Pool, appId: string, name: string, archived = false): Promise<void> {
  await pool.query('INSERT INTO hookline.event_types (app_id, name, archived) VALUES ($1, $2, $3)', [
    appId,
    name,
    archived,
  ]);
}

export interface EndpointFixture {
  id: string;
  secret: string;
}

export async function createEndpoint(
  pool: Pool,
  appId: string,
  url: string,
  options: { eventTypes?: string[]; enabled?: boolean; maxConcurrency?: number } = {},
): Promise<EndpointFixture> {
  const { rows } = await pool.query<{ id: string }>(
    `INSERT INTO hookline.endpoints (app_id, url, event_types, enabled, max_concurrency)
     VALUES ($1, $2, $3, $4, $5) RETURNING id`,
    [appId, url, options.eventTypes ?? [], options.enabled ?? true, options.maxConcurrency ?? 10],
  );
  const id = rows[0]!.id;
  const secret = `whsec_${randomBytes(24).toString('base64')}`;
  await pool.query('INSERT INTO hookline.endpoint_secrets (app_id, endpoint_id, secret) VALUES ($1, $2, $3)', [
    appId,
    id,
    secret,
  ]);
  return { id, secret };
}

export async function countRows(pool: Pool, table: string, where = 'true', params: unknown[] = []): Promise<number> {
  const { rows } = await pool.query<{ count: number }>(
    `SELECT count(*)::int AS count FROM hookline.${table} WHERE ${where}`,
    params,
  );
  return rows[0]!.count;
}
