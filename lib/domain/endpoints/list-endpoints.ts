import { findPage } from '../cursor';
import { containsText } from '../contains-text';
import { requireApp } from '../apps/require-app';
import { readPrisma } from '../../database/read-replica';
import type { Prisma } from '../../generated/prisma/client';
import { endpointViews } from './endpoint-view';

/** Newest first. `search` is for pickers: an app can have an endpoint per customer, thousands. */
export async function listEndpoints({
  appId,
  search,
  limit,
  cursor,
}: {
  appId: string;
  /** Only endpoints whose URL, description or id contains this text, in any case. */
  search?: string;
  limit: number;
  cursor?: string;
}) {
  await requireApp(appId);
  const prisma = await readPrisma();
  const where: Prisma.EndpointWhereInput = {
    appId,
    ...(search === undefined
      ? {}
      : { OR: [{ url: containsText(search) }, { description: containsText(search) }, { id: containsText(search) }] }),
  };
  const page = await findPage({ where, cursor, limit }, (query) => prisma.endpoint.findMany(query));
  return { data: await endpointViews(page.data), nextCursor: page.nextCursor };
}
