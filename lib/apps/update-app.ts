import { getPrisma } from '../db';
import { notFound } from '../errors';
import { appView } from './app-view';

/** Renames an app or changes its endpoints' default retry policy; null clears a default. The worker
 * picks a new policy up within its endpoint cache's 2 s (worker/endpoint-cache.ts). */
export async function updateApp({
  appId,
  name,
  retrySchedule,
  timeoutMs,
}: {
  appId: string;
  name?: string;
  retrySchedule?: number[] | null;
  timeoutMs?: number | null;
}) {
  const prisma = getPrisma();
  const { count } = await prisma.app.updateMany({
    where: { id: appId },
    data: {
      name,
      retryScheduleMs: retrySchedule === undefined ? undefined : (retrySchedule ?? []),
      timeoutMs,
      updatedAt: new Date(),
    },
  });
  if (count === 0) throw notFound('App', appId);
  return appView(await prisma.app.findUniqueOrThrow({ where: { id: appId } }));
}
