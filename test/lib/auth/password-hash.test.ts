// Passwords are argon2id; hashes written before it (scrypt) still verify and are marked for rehashing.
import { randomBytes, scryptSync } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { hashPassword, needsRehash, verifyPassword } from '../../../lib/domain/auth/password-hash';

// The format lib/domain/auth/password-hash.ts wrote before argon2id: scrypt$N$r$p$salt$key.
function legacyScryptHash(password: string): string {
  const salt = randomBytes(16);
  const key = scryptSync(password, salt, 32, { N: 2 ** 15, r: 8, p: 1, maxmem: 64 * 1024 * 1024 });
  return ['scrypt', 2 ** 15, 8, 1, salt.toString('base64'), key.toString('base64')].join('$');
}

describe('argon2id', () => {
  it('hashes with a fresh salt into a PHC string with m=64 MiB, t=3, p=1, and verifies', async () => {
    const first = await hashPassword('correct horse battery staple');
    const second = await hashPassword('correct horse battery staple');
    expect(first).toMatch(/^\$argon2id\$v=19\$m=65536,t=3,p=1\$[A-Za-z0-9+/]+\$[A-Za-z0-9+/]+$/);
    expect(second).not.toBe(first);
    expect(await verifyPassword('correct horse battery staple', first)).toBe(true);
    expect(await verifyPassword('correct horse battery stapler', first)).toBe(false);
    expect(needsRehash(first)).toBe(false);
  });

  it('refuses what is not a hash it knows, without throwing', async () => {
    for (const stored of [
      '',
      'plain',
      '$argon2id$garbage',
      'scrypt$-',
      '$argon2i$v=19$m=65536,t=3,p=1$c2FsdHNhbHQ$aGFzaA',
    ]) {
      expect(await verifyPassword('anything', stored), stored).toBe(false);
    }
  });
});

describe('hashes from before argon2id', () => {
  it('still verify, and are marked for rehashing, as are weaker argon2id parameters', async () => {
    const legacy = legacyScryptHash('old password');
    expect(await verifyPassword('old password', legacy)).toBe(true);
    expect(await verifyPassword('wrong', legacy)).toBe(false);
    expect(needsRehash(legacy)).toBe(true);
    expect(needsRehash('$argon2id$v=19$m=19456,t=2,p=1$c2FsdHNhbHQ$aGFzaA')).toBe(true);
  });
});
