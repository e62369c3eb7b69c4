import { getPrisma } from '../../database/db';
import { notFound } from '../errors';
import { apiKeyView } from './api-key-view';

/** Revokes at once: every request authenticates against the table, nothing caches a key. */
export async function revokeApiKey({ keyId }: { keyId: string }) {
  const prisma = getPrisma();
  await prisma.apiKey.updateMany({ where: { id: keyId, revokedAt: null }, data: { revokedAt: new Date() } });
  const row = await prisma.apiKey.findUnique({ where: { id: keyId } });
  if (!row) throw notFound('API key', keyId);
  return apiKeyView(row);
}
