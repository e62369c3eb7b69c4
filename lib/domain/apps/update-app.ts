import { getPrisma } from '../../database/db';
import { recordAuditEvent } from '../audit/record-audit-event';
import { notFound } from '../errors';
import { appView } from './app-view';

/** Renames an app, changes its endpoints' default retry policy (null clears a default; the worker
 * picks a new policy up within its endpoint cache's 2 s, worker/endpoint-cache.ts) or the origins
 * allowed to embed its customer portal, or the portal's branding. */
export async function updateApp({
  appId,
  name,
  retrySchedule,
  timeoutMs,
  portalFrameAncestors,
  portalName,
  portalLogoUrl,
  portalAccentColor,
}: {
  appId: string;
  name?: string;
  retrySchedule?: number[] | null;
  timeoutMs?: number | null;
  portalFrameAncestors?: string[];
  /** The portal's branding; null clears one, undefined leaves it. */
  portalName?: string | null;
  portalLogoUrl?: string | null;
  portalAccentColor?: string | null;
}) {
  const prisma = getPrisma();
  const updated = await prisma.$transaction(async (tx) => {
    const before = await tx.app.findUnique({ where: { id: appId } });
    if (!before) return null;
    const after = await tx.app.update({
      where: { id: appId },
      data: {
        name,
        retryScheduleMs: retrySchedule === undefined ? undefined : (retrySchedule ?? []),
        timeoutMs,
        // Duplicates would only lengthen the CSP header.
        portalFrameAncestors: portalFrameAncestors === undefined ? undefined : [...new Set(portalFrameAncestors)],
        portalName,
        portalLogoUrl,
        portalAccentColor,
        updatedAt: new Date(),
      },
    });
    await recordAuditEvent(tx, {
      action: 'app.updated',
      resourceType: 'app',
      resourceId: appId,
      appId,
      before: appView(before),
      after: appView(after),
    });
    return after;
  });
  if (!updated) throw notFound('App', appId);
  return appView(updated);
}
