import { getPrisma } from '../../database/db';
import { notFound } from '../errors';
import { appView } from './app-view';

export async function getApp({ appId }: { appId: string }) {
  const app = await getPrisma().app.findUnique({ where: { id: appId } });
  if (!app) throw notFound('App', appId);
  return appView(app);
}
