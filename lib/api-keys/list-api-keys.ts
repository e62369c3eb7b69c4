import { pageArgs, toPage } from '../api/cursor';
import { getPrisma } from '../db';
import { apiKeyView } from './api-key-view';

export async function listApiKeys({ limit, cursor }: { limit: number; cursor?: string }) {
  const rows = await getPrisma().apiKey.findMany(pageArgs(cursor, limit));
  return toPage(rows, limit, apiKeyView);
}
