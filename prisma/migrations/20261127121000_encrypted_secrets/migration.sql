-- Signing secrets at rest (issue 24, item 6): endpoint_secrets.secret now holds either the secret
-- itself (whsec_..., rows from before and those hookline.http_post writes, which SQL cannot encrypt) or
-- its envelope-encrypted form (hlenc:v1:<key id>:<wrapped data key>:<ciphertext>, lib/runtime/secret-box.ts).
-- Encrypting needs HOOKLINE_ENCRYPTION_KEY, which only the application holds, so this migration moves
-- no data: `npm run migrate`, every start and the worker's maintenance pass encrypt the plaintext rows
-- (lib/database/seal-endpoint-secrets.ts), and readers accept both forms meanwhile.
ALTER TABLE hookline.endpoint_secrets DROP CONSTRAINT endpoint_secrets_secret_check;
ALTER TABLE hookline.endpoint_secrets ADD CONSTRAINT endpoint_secrets_secret_check
  CHECK (secret LIKE 'whsec\_%' OR secret LIKE 'hlenc:v1:%');
