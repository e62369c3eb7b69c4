import { getPrisma } from '../db';
import { notFound } from '../errors';
import { appView } from './app-view';

export async function updateApp({ appId, name }: { appId: string; name: string }) {
  const prisma = getPrisma();
  const { count } = await prisma.app.updateMany({ where: { id: appId }, data: { name, updatedAt: new Date() } });
  if (count === 0) throw notFound('App', appId);
  return appView(await prisma.app.findUniqueOrThrow({ where: { id: appId } }));
}
