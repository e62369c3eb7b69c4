// Envelope encryption of signing secrets (lib/runtime/secret-box.ts): round trips, a key change with
// both keys accepted, refusal of an unknown key and of tampering, and the generated key file.
import { mkdtempSync, readFileSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  decryptSecret,
  encryptionKeyFrom,
  encryptSecret,
  getEncryptionKeys,
  keyIdOf,
  SecretKeyError,
  sealSecret,
  type EncryptionKeys,
} from '../../../lib/runtime/secret-box';

const A = 'a'.repeat(40);
const B = 'b'.repeat(40);
const keys = (current: string, previous?: string): EncryptionKeys => ({
  current: encryptionKeyFrom(current),
  previous: previous ? encryptionKeyFrom(previous) : null,
  source: 'HOOKLINE_ENCRYPTION_KEY',
  file: null,
});
const SECRET = 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw';

describe('secret box', () => {
  it('encrypts with a fresh data key each time and decrypts back', () => {
    const one = encryptSecret(SECRET, keys(A));
    const two = encryptSecret(SECRET, keys(A));
    expect(one).toMatch(/^hlenc:v1:[0-9a-f]{8}:[\w-]+:[\w-]+$/);
    expect(one).not.toBe(two);
    expect(one).not.toContain('MfKQ9r8');
    expect(decryptSecret(one, keys(A))).toBe(SECRET);
    expect(keyIdOf(one)).toBe(encryptionKeyFrom(A).id);
  });

  it('passes plaintext rows through (written before encryption, or by SQL)', () => {
    expect(decryptSecret(SECRET, keys(A))).toBe(SECRET);
    expect(keyIdOf(SECRET)).toBeNull();
  });

  it('during a key change opens values of the previous key, and new values use the new one', () => {
    const old = encryptSecret(SECRET, keys(A));
    expect(decryptSecret(old, keys(B, A))).toBe(SECRET);
    expect(keyIdOf(encryptSecret(SECRET, keys(B, A)))).toBe(encryptionKeyFrom(B).id);
  });

  it('sealing moves a value of the previous key to the current one by rewrapping its data key only', () => {
    const old = encryptSecret(SECRET, keys(A));
    const moved = sealSecret(old, keys(B, A));
    expect(keyIdOf(moved)).toBe(encryptionKeyFrom(B).id);
    expect(moved.split(':')[4]).toBe(old.split(':')[4]); // the secret's own ciphertext is untouched
    expect(decryptSecret(moved, keys(B))).toBe(SECRET);
    expect(sealSecret(moved, keys(B))).toBe(moved);
    expect(decryptSecret(sealSecret(SECRET, keys(B)), keys(B))).toBe(SECRET);
  });

  it('refuses a value of a key it does not have, naming both key ids', () => {
    const old = encryptSecret(SECRET, keys(A));
    expect(() => decryptSecret(old, keys(B))).toThrow(SecretKeyError);
    expect(() => decryptSecret(old, keys(B))).toThrow(
      new RegExp(`${encryptionKeyFrom(A).id}.*${encryptionKeyFrom(B).id}`),
    );
  });

  it('refuses a tampered value', () => {
    const value = encryptSecret(SECRET, keys(A));
    const parts = value.split(':');
    const last = Buffer.from(parts[4]!, 'base64url');
    last[last.length - 20]! ^= 1;
    parts[4] = last.toString('base64url');
    expect(() => decryptSecret(parts.join(':'), keys(A))).toThrow();
  });

  it('without HOOKLINE_ENCRYPTION_KEY generates a key file (mode 0600) once and keeps using it', () => {
    const dir = mkdtempSync(join(tmpdir(), 'hookline-keys-'));
    const first = getEncryptionKeys({ HOOKLINE_DATA_DIR: dir });
    expect(first.source).toBe('generated-file');
    expect(first.file).toBe(join(dir, 'encryption-key'));
    expect(statSync(first.file!).mode & 0o777).toBe(0o600);
    expect(readFileSync(first.file!, 'utf8').trim().length).toBeGreaterThanOrEqual(32);
    const value = encryptSecret(SECRET, first);
    // Another process (no cache) reads the same file.
    const again = getEncryptionKeys({
      HOOKLINE_DATA_DIR: dir,
      HOOKLINE_ENCRYPTION_KEY_PREVIOUS: undefined,
      X: '1',
    } as never);
    expect(decryptSecret(value, again)).toBe(SECRET);
  });
});
