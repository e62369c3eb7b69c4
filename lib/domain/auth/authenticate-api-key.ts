import { getPrisma, type PrismaClient } from '../../database/db';
import { hashToken } from './hash-token';
import type { Principal } from './principal';

// last_used_at is advisory ("used in the last minute"), so it is written at most once a minute per
// key instead of once per request: at 100 requests/s that is 1 write instead of 6,000.
const LAST_USED_RESOLUTION_MS = 60_000;

/** The principal of a bearer key, or null when the key is unknown or revoked. Revocation is seen at once. */
export async function authenticateApiKey(
  key: string,
  { prisma = getPrisma() }: { prisma?: PrismaClient } = {},
): Promise<Principal | null> {
  if (!key.startsWith('hl_') || key.length > 200) return null;
  const row = await prisma.apiKey.findUnique({ where: { keyHash: hashToken(key) } });
  if (!row || row.revokedAt) return null;
  const now = Date.now();
  if (!row.lastUsedAt || now - row.lastUsedAt.getTime() >= LAST_USED_RESOLUTION_MS) {
    // The WHERE repeats the check so that concurrent requests of one key write once.
    await prisma.apiKey.updateMany({
      where: {
        id: row.id,
        OR: [{ lastUsedAt: null }, { lastUsedAt: { lt: new Date(now - LAST_USED_RESOLUTION_MS) } }],
      },
      data: { lastUsedAt: new Date(now) },
    });
  }
  return { kind: 'api_key', id: `key:${row.id}`, keyId: row.id, appId: row.appId };
}
