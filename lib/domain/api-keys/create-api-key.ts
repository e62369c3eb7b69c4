import { hashToken, randomToken } from '../auth/hash-token';
import { recordAuditEvent } from '../audit/record-audit-event';
import { getPrisma, type PrismaClient } from '../../database/db';
import { invalid } from '../errors';
import { apiKeyView, type ApiKey } from './api-key-view';

const KEY_PREFIX = 'hl_';
// "hl_" plus 8 characters: enough to tell keys apart in a list, far too few to guess the rest (43).
export const SHOWN_PREFIX_LENGTH = KEY_PREFIX.length + 8;

/** Creates a key (createdBy: the member who did, null for npm start's starter key or a key made by a key); the key itself is returned only here, the database keeps its sha256. */
export async function createApiKey(
  { name, appId = null, createdBy = null }: { name: string; appId?: string | null; createdBy?: string | null },
  { prisma = getPrisma() }: { prisma?: PrismaClient } = {},
): Promise<{ apiKey: ApiKey; key: string }> {
  if (appId !== null) {
    const app = await prisma.app.findUnique({ where: { id: appId }, select: { id: true } });
    if (!app) throw invalid('appId', `app ${JSON.stringify(appId)} does not exist`);
  }
  const key = KEY_PREFIX + randomToken(32);
  const row = await prisma.$transaction(async (tx) => {
    const created = await tx.apiKey.create({
      data: { name, appId, createdBy, prefix: key.slice(0, SHOWN_PREFIX_LENGTH), keyHash: hashToken(key) },
    });
    await recordAuditEvent(tx, {
      action: 'api_key.created',
      resourceType: 'api_key',
      resourceId: created.id,
      appId,
      after: { name, appId, prefix: created.prefix },
      // A key without an app reaches every app and every operation: the operators hear of it at once.
      sensitive: appId === null ? 'An API key for every app was created' : undefined,
    });
    return created;
  });
  return { apiKey: apiKeyView(row), key };
}
