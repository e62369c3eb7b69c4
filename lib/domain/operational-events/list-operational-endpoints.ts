import { findPage } from '../cursor';
import { getPrisma } from '../../database/db';
import { operationalEndpointViews } from './operational-endpoint-view';
import { OPERATIONS_APP_ID } from './operations-app';

export async function listOperationalEndpoints({ limit, cursor }: { limit: number; cursor?: string }) {
  const prisma = getPrisma();
  const page = await findPage({ where: { appId: OPERATIONS_APP_ID }, cursor, limit }, (query) =>
    prisma.endpoint.findMany(query),
  );
  return { data: await operationalEndpointViews(page.data), nextCursor: page.nextCursor };
}
