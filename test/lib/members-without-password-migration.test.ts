// Migration 20261128095000_members_without_password carries an installation forward: the members single
// sign-on made before it, with the placeholder 'sso:no-password', have no password (NULL) after it;
// members with a password keep their hash as it was.
import { afterAll, describe, expect, it } from 'vitest';
import { migrate } from '../../lib/database/migrate';
import { createPool, type Pool } from '../../lib/database/pg';
import { databaseBefore } from '../support/database-before';

const MIGRATION = '20261128095000_members_without_password';
let dropDatabase: (() => Promise<void>) | undefined;
let pool: Pool | undefined;

afterAll(async () => {
  await pool?.end();
  await dropDatabase?.();
});

describe(`migration ${MIGRATION}`, () => {
  it("turns SSO members' placeholder into no password, and leaves real hashes alone", async () => {
    const before = await databaseBefore(MIGRATION);
    dropDatabase = before.drop;
    pool = createPool(before.url, { max: 2 });
    // Before it, a member cannot be without a password hash.
    await expect(
      pool.query(`INSERT INTO hookline.admin_users (email, password_hash) VALUES ('null@example.test', NULL)`),
    ).rejects.toThrow(/null value/);
    await pool.query(
      `INSERT INTO hookline.admin_users (email, password_hash, role) VALUES
         ('sso@example.test', 'sso:no-password', 'viewer'),
         ('password@example.test', '$argon2id$v=19$m=65536,t=3,p=4$c2FsdA$aGFzaA', 'owner')`,
    );

    const applied = await migrate(before.url);
    expect(applied.applied[0]).toBe(MIGRATION);

    const { rows } = await pool.query(`SELECT email, password_hash FROM hookline.admin_users ORDER BY email`);
    expect(rows).toEqual([
      { email: 'password@example.test', password_hash: '$argon2id$v=19$m=65536,t=3,p=4$c2FsdA$aGFzaA' },
      { email: 'sso@example.test', password_hash: null },
    ]);
  });
});
