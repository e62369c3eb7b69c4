// Encrypts the signing secrets that are not yet encrypted with the current key (lib/runtime/secret-box.ts):
// plaintext rows (written before encryption existed, or by hookline.http_post's implicit endpoints,
// which SQL writes without a key) and rows wrapped by HOOKLINE_ENCRYPTION_KEY_PREVIOUS during a key
// change. Run by `npm run migrate`, by `npm start` before it serves, and by every worker's maintenance
// pass (a second after it starts, then once a minute: a secret hookline.http_post wrote stays plaintext
// that long at most). A run with nothing to do is one scan of a table holding one or two rows per
// endpoint.
//
// Each row is rewritten only if it still holds the value read (`AND secret = $3`): a rotation or a
// second process sealing at the same time is never overwritten. A row wrapped by a key this process
// does not know is left as it is and counted, so one misconfigured process cannot destroy secrets.
import pg from 'pg';
import { getEncryptionKeys, keyIdOf, SecretKeyError, sealSecret, type EncryptionKeys } from '../runtime/secret-box';

export interface SealResult {
  /** Plaintext rows encrypted now. */
  encrypted: number;
  /** Rows moved from the previous key to the current one. */
  rewrapped: number;
  /** Rows wrapped by a key this process does not have (neither current nor previous). */
  unknownKey: number;
}

type Queryable = Pick<pg.Pool | pg.Client, 'query'>;

export async function sealEndpointSecrets(
  db: Queryable,
  keys: EncryptionKeys = getEncryptionKeys(),
): Promise<SealResult> {
  const result: SealResult = { encrypted: 0, rewrapped: 0, unknownKey: 0 };
  const { rows } = await db.query<{ id: string; secret: string }>(
    `SELECT id, secret FROM hookline.endpoint_secrets WHERE secret NOT LIKE $1`,
    [`hlenc:v1:${keys.current.id}:%`],
  );
  for (const row of rows) {
    let sealed: string;
    try {
      sealed = sealSecret(row.secret, keys);
    } catch (error) {
      if (!(error instanceof SecretKeyError)) throw error;
      result.unknownKey += 1;
      continue;
    }
    const { rowCount } = await db.query(
      'UPDATE hookline.endpoint_secrets SET secret = $2 WHERE id = $1 AND secret = $3',
      [row.id, sealed, row.secret],
    );
    if (rowCount) {
      if (keyIdOf(row.secret) === null) result.encrypted += 1;
      else result.rewrapped += 1;
    }
  }
  return result;
}

/** sealEndpointSecrets on a connection of its own, for start-up and `npm run migrate`. */
export async function sealEndpointSecretsAt(connectionString: string): Promise<SealResult> {
  const client = new pg.Client({ connectionString });
  client.on('error', () => {});
  await client.connect();
  try {
    return await sealEndpointSecrets(client);
  } finally {
    await client.end().catch(() => {});
  }
}
