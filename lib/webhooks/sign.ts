// Standard Webhooks signatures (https://www.standardwebhooks.com): `v1,` + base64 HMAC-SHA256 of
// `${id}.${timestamp}.${body}`, keyed with the base64 part of a `whsec_` secret. Several secrets
// (during a rotation) give several space-separated signatures; receivers accept any one.
import { createHmac, randomBytes } from 'node:crypto';

const SECRET_PREFIX = 'whsec_';

export function generateSecret(): string {
  // 24 random bytes, as Standard Webhooks suggests (between 24 and 64 bytes).
  return SECRET_PREFIX + randomBytes(24).toString('base64');
}

function secretKey(secret: string): Buffer {
  if (!secret.startsWith(SECRET_PREFIX)) throw new Error('a signing secret must start with whsec_');
  return Buffer.from(secret.slice(SECRET_PREFIX.length), 'base64');
}

export function signatureHeader(secrets: readonly string[], id: string, timestampSeconds: number, body: string): string {
  const content = `${id}.${timestampSeconds}.${body}`;
  return secrets.map((secret) => `v1,${createHmac('sha256', secretKey(secret)).update(content).digest('base64')}`).join(' ');
}
