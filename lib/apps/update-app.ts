import { getPrisma } from '../db';
import { notFound } from '../errors';
import { appView } from './app-view';

export async function updateApp({
  appId,
  name,
  portalFrameAncestors,
}: {
  appId: string;
  name?: string;
  portalFrameAncestors?: string[];
}) {
  const prisma = getPrisma();
  const data = {
    ...(name === undefined ? {} : { name }),
    // Duplicates would only lengthen the CSP header.
    ...(portalFrameAncestors === undefined ? {} : { portalFrameAncestors: [...new Set(portalFrameAncestors)] }),
    updatedAt: new Date(),
  };
  const { count } = await prisma.app.updateMany({ where: { id: appId }, data });
  if (count === 0) throw notFound('App', appId);
  return appView(await prisma.app.findUniqueOrThrow({ where: { id: appId } }));
}
