import { formatRetrySchedule } from '../endpoints/retry-policy';
import type { App } from '../../generated/prisma/client';

export function appView(app: App) {
  return {
    id: app.id,
    name: app.name,
    retrySchedule: app.retryScheduleMs.length > 0 ? formatRetrySchedule(app.retryScheduleMs) : null,
    timeoutMs: app.timeoutMs,
    portalFrameAncestors: app.portalFrameAncestors,
    portalName: app.portalName,
    portalLogoUrl: app.portalLogoUrl,
    portalAccentColor: app.portalAccentColor,
    createdAt: app.createdAt,
    updatedAt: app.updatedAt,
  };
}
