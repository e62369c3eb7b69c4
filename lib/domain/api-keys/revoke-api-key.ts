import { getPrisma } from '../../database/db';
import { recordAuditEvent } from '../audit/record-audit-event';
import { notFound } from '../errors';
import { apiKeyView } from './api-key-view';

/** Revokes at once: every request authenticates against the table, nothing caches a key. */
export async function revokeApiKey({ keyId }: { keyId: string }) {
  const prisma = getPrisma();
  await prisma.$transaction(async (tx) => {
    const key = await tx.apiKey.findFirst({ where: { id: keyId, revokedAt: null } });
    if (!key) return;
    await tx.apiKey.update({ where: { id: keyId }, data: { revokedAt: new Date() } });
    await recordAuditEvent(tx, {
      action: 'api_key.revoked',
      resourceType: 'api_key',
      resourceId: keyId,
      appId: key.appId,
      before: { name: key.name, revoked: false },
      after: { name: key.name, revoked: true },
    });
  });
  const row = await prisma.apiKey.findUnique({ where: { id: keyId } });
  if (!row) throw notFound('API key', keyId);
  return apiKeyView(row);
}
