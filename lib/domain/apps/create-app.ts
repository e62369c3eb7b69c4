import { getPrisma } from '../../database/db';
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
  return appView(await getPrisma().app.create({ data: { name, retryScheduleMs: retrySchedule ?? [], timeoutMs } }));
}
