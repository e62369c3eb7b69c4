import type { App } from '../generated/prisma/client';

export function appView(app: App) {
  return { id: app.id, name: app.name, createdAt: app.createdAt, updatedAt: app.updatedAt, portalFrameAncestors: app.portalFrameAncestors };
}
