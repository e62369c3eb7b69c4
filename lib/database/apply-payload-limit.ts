// One payload limit for every way in. REST refuses request bodies over HOOKLINE_MAX_PAYLOAD_BYTES
// (lib/http/read-json-body.ts); hookline.send and hookline.http_post run inside the caller's own
// transaction, where no Hookline process is present, so the database checks them
// (hookline.check_payload, prisma/functions/check-payload.sql) against hookline.max_payload_bytes().
// npm start writes the configured value into that function, so the number is set in one place.
// An IMMUTABLE SQL function, inlined as a constant into the callers' plans: nothing is read per event.
import pg from 'pg';

export async function applyPayloadLimit(connectionString: string, maxPayloadBytes: number): Promise<void> {
  if (!Number.isSafeInteger(maxPayloadBytes) || maxPayloadBytes < 1) {
    throw new Error(`the payload limit must be a positive integer, got ${maxPayloadBytes}`);
  }
  const client = new pg.Client({ connectionString });
  client.on('error', () => {});
  await client.connect();
  try {
    const { rows } = await client.query<{ current: number }>('SELECT hookline.max_payload_bytes() AS current');
    // Replacing the function invalidates every plan that inlined it: only when the value changed.
    if (rows[0]?.current === maxPayloadBytes) return;
    await client.query(
      `CREATE OR REPLACE FUNCTION hookline.max_payload_bytes() RETURNS integer
       LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$ SELECT ${maxPayloadBytes} $$`,
    );
  } finally {
    await client.end().catch(() => {});
  }
}
