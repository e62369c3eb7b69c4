// Members for API tests: a row per role, with a session opened directly (sign-in itself is tested in
// sessions.test.ts and members.test.ts; here it would only add ~60 ms of scrypt per member).
import type { Pool } from '../../../lib/database/pg';
import { openSession } from '../../../lib/domain/auth/open-session';
import type { Role } from '../../../lib/domain/auth/roles';

export interface TestMember {
  id: string;
  email: string;
  cookie: string;
}

export async function createMember(
  pool: Pool,
  { email, role, appIds = [] }: { email: string; role: Role; appIds?: string[] },
): Promise<TestMember> {
  const { rows } = await pool.query<{ id: string }>(
    `INSERT INTO hookline.admin_users (email, password_hash, role, app_ids) VALUES ($1, 'scrypt$-', $2, $3) RETURNING id`,
    [email, role, appIds],
  );
  const id = rows[0]!.id;
  const { token } = await openSession({ userId: id, ttlHours: 1, userAgent: 'vitest', ip: null });
  return { id, email, cookie: `hookline_session=${token}` };
}
