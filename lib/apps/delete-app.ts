import { getPrisma } from '../db';
import { notFound } from '../errors';

/** Deletes the app and, by cascade, everything it owns (event types, endpoints, messages, deliveries, keys). */
export async function deleteApp({ appId }: { appId: string }): Promise<void> {
  const { count } = await getPrisma().app.deleteMany({ where: { id: appId } });
  if (count === 0) throw notFound('App', appId);
}
