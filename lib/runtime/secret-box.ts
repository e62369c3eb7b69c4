// Signing secrets at rest (issue 24, item 6): envelope encryption. Each secret gets its own random
// data key (AES-256-GCM); the data key is stored beside it, encrypted ("wrapped") by the key-encryption
// key derived from HOOKLINE_ENCRYPTION_KEY. A stolen database dump or backup holds no usable secret,
// and changing the key rewraps 32-byte data keys without touching the secrets' own ciphertexts.
//
// Stored form, one text value in the column that held the plaintext:
//   hlenc:v1:<key id>:<wrapped data key>:<ciphertext>      (base64url; each part iv | ciphertext | tag)
// The key id (8 hex characters of a hash of the key) says which key wrapped it, so during a key change
// both HOOKLINE_ENCRYPTION_KEY and HOOKLINE_ENCRYPTION_KEY_PREVIOUS open what they wrapped, and the
// sealing step (lib/database/seal-endpoint-secrets.ts) moves every row to the new key.
//
// A value without the prefix is plaintext: rows written before this change, and those the SQL
// functions write (hookline.http_post's implicit endpoints cannot reach a key held by the
// application). They still work, and the sealing step encrypts them at the next start or maintenance pass.
//
// No key set: a key is generated once into <HOOKLINE_DATA_DIR>/encryption-key (mode 0600) and used
// from then on, with a warning once a start (generatedKeyWarning); every process that reads secrets (web server, each worker) must then
// share that file, so production sets HOOKLINE_ENCRYPTION_KEY instead.
import { createCipheriv, createDecipheriv, createHash, hkdfSync, randomBytes } from 'node:crypto';
import { chmodSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';

const PREFIX = 'hlenc:v1:';
const IV_BYTES = 12;
const TAG_BYTES = 16;
// Binds each ciphertext to its purpose: a wrapped data key cannot be passed off as a secret, or back.
const DATA_AAD = Buffer.from('hookline endpoint secret v1');
const WRAP_AAD = Buffer.from('hookline data key v1');

export interface EncryptionKey {
  /** 8 hex characters naming the key in stored values; not secret. */
  id: string;
  kek: Buffer;
}

export interface EncryptionKeys {
  current: EncryptionKey;
  /** The key being replaced during a key change: still opens what it wrapped. */
  previous: EncryptionKey | null;
  /** Where the current key came from, for the start-up banner and the warning. */
  source: 'HOOKLINE_ENCRYPTION_KEY' | 'generated-file';
  file: string | null;
}

export class SecretKeyError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'SecretKeyError';
  }
}

/** A key from its text form (any string of 32+ characters, e.g. `openssl rand -base64 32`). */
export function encryptionKeyFrom(text: string): EncryptionKey {
  const material = Buffer.from(text.trim(), 'utf8');
  const id = createHash('sha256').update('hookline key id\0').update(material).digest('hex').slice(0, 8);
  const kek = Buffer.from(hkdfSync('sha256', material, 'hookline', 'endpoint secrets kek v1', 32));
  return { id, kek };
}

export function isEncrypted(stored: string): boolean {
  return stored.startsWith(PREFIX);
}

/** The id of the key that wrapped a stored value; null for plaintext. */
export function keyIdOf(stored: string): string | null {
  return isEncrypted(stored) ? (stored.slice(PREFIX.length).split(':')[0] ?? null) : null;
}

export function encryptSecret(plaintext: string, keys: EncryptionKeys = getEncryptionKeys()): string {
  const dataKey = randomBytes(32);
  const wrapped = seal(keys.current.kek, dataKey, WRAP_AAD);
  const sealed = seal(dataKey, Buffer.from(plaintext, 'utf8'), DATA_AAD);
  return `${PREFIX}${keys.current.id}:${wrapped}:${sealed}`;
}

/** The plaintext of a stored value; plaintext rows pass through. Throws SecretKeyError for an unknown key. */
export function decryptSecret(stored: string, keys: EncryptionKeys = getEncryptionKeys()): string {
  if (!isEncrypted(stored)) return stored;
  const { dataKey, sealed } = openDataKey(stored, keys);
  return open(dataKey, sealed, DATA_AAD).toString('utf8');
}

/**
 * The stored value under the current key: plaintext is encrypted; a value of the previous key keeps
 * its data key and ciphertext, only the data key is wrapped again (a key change touches 32 bytes a row).
 */
export function sealSecret(stored: string, keys: EncryptionKeys = getEncryptionKeys()): string {
  if (!isEncrypted(stored)) return encryptSecret(stored, keys);
  if (keyIdOf(stored) === keys.current.id) return stored;
  const { dataKey, sealed } = openDataKey(stored, keys);
  return `${PREFIX}${keys.current.id}:${seal(keys.current.kek, dataKey, WRAP_AAD)}:${sealed}`;
}

function openDataKey(stored: string, keys: EncryptionKeys): { dataKey: Buffer; sealed: string } {
  const [keyId, wrapped, sealed] = stored.slice(PREFIX.length).split(':');
  const key = [keys.current, keys.previous].find((candidate) => candidate?.id === keyId);
  if (!key || !wrapped || !sealed) {
    throw new SecretKeyError(
      `A signing secret is encrypted with key ${keyId}, which is neither HOOKLINE_ENCRYPTION_KEY (${keys.current.id})` +
        `${keys.previous ? ` nor HOOKLINE_ENCRYPTION_KEY_PREVIOUS (${keys.previous.id})` : ''}: ` +
        'every web server and worker must have the same key (README, "Secrets at rest")',
    );
  }
  return { dataKey: open(key.kek, wrapped, WRAP_AAD), sealed };
}

function seal(key: Buffer, plaintext: Buffer, aad: Buffer): string {
  const iv = randomBytes(IV_BYTES);
  const cipher = createCipheriv('aes-256-gcm', key, iv);
  cipher.setAAD(aad);
  const body = Buffer.concat([cipher.update(plaintext), cipher.final()]);
  return Buffer.concat([iv, body, cipher.getAuthTag()]).toString('base64url');
}

function open(key: Buffer, encoded: string, aad: Buffer): Buffer {
  const bytes = Buffer.from(encoded, 'base64url');
  const decipher = createDecipheriv('aes-256-gcm', key, bytes.subarray(0, IV_BYTES));
  decipher.setAAD(aad);
  decipher.setAuthTag(bytes.subarray(bytes.length - TAG_BYTES));
  return Buffer.concat([decipher.update(bytes.subarray(IV_BYTES, bytes.length - TAG_BYTES)), decipher.final()]);
}

let cached: { env: string; keys: EncryptionKeys } | undefined;

/**
 * The keys from the environment, read once per process (again when the variables change: tests).
 * Without HOOKLINE_ENCRYPTION_KEY: the generated key file in the data folder, created on first use.
 */
export function getEncryptionKeys(env: Record<string, string | undefined> = process.env): EncryptionKeys {
  const fingerprint = [env.HOOKLINE_ENCRYPTION_KEY, env.HOOKLINE_ENCRYPTION_KEY_PREVIOUS, env.HOOKLINE_DATA_DIR].join(
    '\0',
  );
  if (cached?.env === fingerprint) return cached.keys;
  const previous = env.HOOKLINE_ENCRYPTION_KEY_PREVIOUS
    ? encryptionKeyFrom(env.HOOKLINE_ENCRYPTION_KEY_PREVIOUS)
    : null;
  let keys: EncryptionKeys;
  if (env.HOOKLINE_ENCRYPTION_KEY) {
    keys = {
      current: encryptionKeyFrom(env.HOOKLINE_ENCRYPTION_KEY),
      previous,
      source: 'HOOKLINE_ENCRYPTION_KEY',
      file: null,
    };
  } else {
    const file = resolve(env.HOOKLINE_DATA_DIR ?? '.data', 'encryption-key');
    keys = { current: encryptionKeyFrom(readOrCreateKeyFile(file)), previous, source: 'generated-file', file };
  }
  cached = { env: fingerprint, keys };
  return keys;
}

/**
 * What a start says once when HOOKLINE_ENCRYPTION_KEY is not set; null when it is. The entry points
 * say it (scripts/start.ts, worker/main.ts, scripts/migrate.ts), not getEncryptionKeys: the keys are
 * read by the start itself and by the web server's handlers, which Next.js bundles with a copy of this
 * module of their own, so a warning where they are read was said twice or more each start, and by every
 * test that encrypts a secret.
 */
export function generatedKeyWarning(keys: EncryptionKeys): string | null {
  if (keys.source !== 'generated-file') return null;
  return (
    `HOOKLINE_ENCRYPTION_KEY is not set, so Hookline uses a key it generated and keeps in ${keys.file}. ` +
    'Endpoint signing secrets are stored encrypted with it: if that file is lost, the secrets are lost too, ' +
    'so back it up with the database; and every web server and worker must read this same file. ' +
    'For production, set HOOKLINE_ENCRYPTION_KEY to the same value in every Hookline process: the content ' +
    `of that file (cat ${keys.file}) keeps the stored secrets readable as they are; a new key ` +
    '(openssl rand -base64 32) needs the key change described in README, "Secrets at rest".'
  );
}

/** Two processes starting at once both end up with the first one's key (the create is exclusive). */
function readOrCreateKeyFile(file: string): string {
  try {
    return readFileSync(file, 'utf8').trim();
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
  }
  mkdirSync(join(file, '..'), { recursive: true });
  try {
    writeFileSync(file, `${randomBytes(32).toString('base64')}\n`, { mode: 0o600, flag: 'wx' });
    chmodSync(file, 0o600);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
  }
  return readFileSync(file, 'utf8').trim();
}
