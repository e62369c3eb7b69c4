// API keys and session tokens are stored as sha256: they are 32 random bytes, so a fast hash is
// enough (nothing to brute-force), and a lookup by hash is one indexed equality.
import { createHash, randomBytes } from 'node:crypto';

export function hashToken(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}

export function randomToken(bytes = 32): string {
  return randomBytes(bytes).toString('base64url');
}
