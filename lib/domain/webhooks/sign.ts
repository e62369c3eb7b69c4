// Standard Webhooks signatures (https://www.standardwebhooks.com): `v1,` + base64 HMAC-SHA256 of
// `${id}.${timestamp}.${body}`, keyed with the base64 part of a `whsec_` secret. Several secrets
// (during a rotation) give several space-separated signatures; receivers accept any one.
import { createHmac, createSecretKey, randomBytes, type KeyObject } from 'node:crypto';

const SECRET_PREFIX = 'whsec_';

export function generateSecret(): string {
  // 24 random bytes, as Standard Webhooks suggests (between 24 and 64 bytes).
  return SECRET_PREFIX + randomBytes(24).toString('base64');
}

// Decoded keys by secret: the worker signs every request with one of a few secrets, and decoding the
// base64 and importing the key each time was a third of the signing cost (about 5 µs of 15 per
// request in a 40k-request loop). Bounded, since rotations bring new secrets over a long run.
const keys = new Map<string, KeyObject>();
const MAX_CACHED_KEYS = 10_000;

function secretKey(secret: string): KeyObject {
  let key = keys.get(secret);
  if (key) return key;
  if (!secret.startsWith(SECRET_PREFIX)) throw new Error('a signing secret must start with whsec_');
  key = createSecretKey(Buffer.from(secret.slice(SECRET_PREFIX.length), 'base64'));
  if (keys.size >= MAX_CACHED_KEYS) keys.clear();
  keys.set(secret, key);
  return key;
}

export function signatureHeader(
  secrets: readonly string[],
  id: string,
  timestampSeconds: number,
  body: string,
): string {
  const content = `${id}.${timestampSeconds}.${body}`;
  return secrets
    .map((secret) => `v1,${createHmac('sha256', secretKey(secret)).update(content).digest('base64')}`)
    .join(' ');
}
