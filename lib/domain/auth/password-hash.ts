// Member passwords: argon2id (RFC 9106) from @node-rs/argon2, whose prebuilt binaries come as npm
// packages per platform (no download from GitHub, no compiler at install). m=64 MiB, t=3, p=1, RFC 9106's
// second recommended setting with one lane: ~60 ms and 64 MB per hash on the 2-core dev machine, slow
// for a guesser and fine for a sign-in. The PHC string keeps the parameters, so they can be raised
// later without invalidating existing hashes.
//
// Hashes written before argon2id (scrypt from node:crypto, "scrypt$N$r$p$salt$key") still verify, and
// needsRehash() tells sign-in to replace them with argon2id once the password is known again.
import { scrypt, timingSafeEqual, type ScryptOptions } from 'node:crypto';
import { hash, verify, type Options } from '@node-rs/argon2';

// Algorithm.Argon2id is an ambient const enum, which isolatedModules cannot read: 2 is its value.
const ARGON2ID_ALGORITHM = 2 as Options['algorithm'];
const ARGON2ID = { algorithm: ARGON2ID_ALGORITHM, memoryCost: 65_536, timeCost: 3, parallelism: 1 } as const;

export function hashPassword(password: string): Promise<string> {
  return hash(password, ARGON2ID);
}

export async function verifyPassword(password: string, stored: string): Promise<boolean> {
  if (stored.startsWith('$argon2id$')) {
    try {
      return await verify(stored, password);
    } catch {
      // A malformed stored hash matches nothing.
      return false;
    }
  }
  if (stored.startsWith('scrypt$')) return verifyScrypt(password, stored);
  return false;
}

/** Whether a hash that verified should be replaced: not argon2id, or weaker parameters than today's. */
export function needsRehash(stored: string): boolean {
  const expected = `$argon2id$v=19$m=${ARGON2ID.memoryCost},t=${ARGON2ID.timeCost},p=${ARGON2ID.parallelism}$`;
  return !stored.startsWith(expected);
}

async function verifyScrypt(password: string, stored: string): Promise<boolean> {
  const [, n, r, p, salt, key] = stored.split('$');
  if (!salt || !key) return false;
  const options: ScryptOptions = { N: Number(n), r: Number(r), p: Number(p) };
  const expected = Buffer.from(key, 'base64');
  const actual = await new Promise<Buffer>((resolve, reject) => {
    scrypt(
      password,
      Buffer.from(salt, 'base64'),
      expected.length,
      { ...options, maxmem: 256 * options.N! * options.r! },
      (error, derived) => (error ? reject(error) : resolve(derived)),
    );
  });
  return actual.length === expected.length && timingSafeEqual(actual, expected);
}
