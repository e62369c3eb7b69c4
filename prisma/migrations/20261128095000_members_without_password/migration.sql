-- A member may have no password (issue: SSO-only deployments): one made by single sign-on (just in
-- time, or from an invitation accepted by signing in with SSO) has NULL, not a placeholder string that
-- happens to verify against nothing. Password sign-in for such a member is refused like a wrong
-- password (lib/domain/auth/sign-in.ts compares against a decoy hash), so the answer does not tell
-- whether the email is a member. Dropping NOT NULL rewrites no rows; the UPDATE touches only the
-- members SSO created before this migration ('sso:no-password', which no hash format ever matched).
ALTER TABLE hookline.admin_users ALTER COLUMN password_hash DROP NOT NULL;

UPDATE hookline.admin_users SET password_hash = NULL WHERE password_hash = 'sso:no-password';
