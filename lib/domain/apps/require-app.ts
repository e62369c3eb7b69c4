import { getPrisma } from '../../database/db';
import { notFound } from '../errors';

/** Throws not_found unless the app exists. */
export async function requireApp(appId: string): Promise<void> {
  const app = await getPrisma().app.findUnique({ where: { id: appId }, select: { id: true } });
  if (!app) throw notFound('App', appId);
}
