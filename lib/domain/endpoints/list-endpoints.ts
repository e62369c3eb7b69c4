import { findPage } from '../cursor';
import { requireApp } from '../apps/require-app';
import { readPrisma } from '../../database/read-replica';
import type { Prisma } from '../../generated/prisma/client';
import { endpointViews } from './endpoint-view';

export async function listEndpoints({ appId, limit, cursor }: { appId: string; limit: number; cursor?: string }) {
  await requireApp(appId);
  const prisma = await readPrisma();
  const where: Prisma.EndpointWhereInput = { appId };
  const page = await findPage({ where, cursor, limit }, (query) => prisma.endpoint.findMany(query));
  return { data: await endpointViews(page.data), nextCursor: page.nextCursor };
}
