import { pageArgs, toPage } from '../api/cursor';
import { getPrisma } from '../db';
import { appView } from './app-view';

/** Newest first; an app-limited key sees only its own app. */
export async function listApps({ onlyAppId, limit, cursor }: { onlyAppId: string | null; limit: number; cursor?: string }) {
  const rows = await getPrisma().app.findMany({
    where: onlyAppId ? { id: onlyAppId } : {},
    ...pageArgs(cursor, limit),
  });
  return toPage(rows, limit, appView);
}
