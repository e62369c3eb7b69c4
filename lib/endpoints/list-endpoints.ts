import { pageArgs, toPage } from '../api/cursor';
import { requireApp } from '../apps/require-app';
import { getPrisma } from '../db';
import { endpointViews } from './endpoint-view';

export async function listEndpoints({ appId, limit, cursor }: { appId: string; limit: number; cursor?: string }) {
  await requireApp(appId);
  const rows = await getPrisma().endpoint.findMany({ where: { appId }, ...pageArgs(cursor, limit) });
  const page = toPage(rows, limit, (row) => row);
  return { data: await endpointViews(page.data), nextCursor: page.nextCursor };
}
