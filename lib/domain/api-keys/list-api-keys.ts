import { findPage } from '../cursor';
import { getPrisma } from '../../database/db';
import { apiKeyView } from './api-key-view';

export async function listApiKeys({ limit, cursor }: { limit: number; cursor?: string }) {
  const prisma = getPrisma();
  const page = await findPage({ where: {}, cursor, limit }, (query) => prisma.apiKey.findMany(query));
  return { data: page.data.map(apiKeyView), nextCursor: page.nextCursor };
}
