import { getPrisma } from '../../database/db';
import { recordAuditEvent } from '../audit/record-audit-event';
import { appView } from './app-view';

export async function createApp({
  name,
  retrySchedule,
  timeoutMs,
}: {
  name: string;
  /** Milliseconds before each attempt; null or omitted: HOOKLINE_RETRY_SCHEDULE. */
  retrySchedule?: number[] | null;
  timeoutMs?: number | null;
}) {
  return appView(
    await getPrisma().$transaction(async (tx) => {
      const app = await tx.app.create({ data: { name, retryScheduleMs: retrySchedule ?? [], timeoutMs } });
      await recordAuditEvent(tx, {
        action: 'app.created',
        resourceType: 'app',
        resourceId: app.id,
        appId: app.id,
        after: appView(app),
      });
      return app;
    }),
  );
}
