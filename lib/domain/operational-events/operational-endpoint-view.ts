import { getPrisma } from '../../database/db';
import type { Endpoint } from '../../generated/prisma/client';
import { endpointViews } from '../endpoints/endpoint-view';

/** Endpoints of the operations app with their scope and template (absent row: deployment-wide, envelope). */
export async function operationalEndpointViews(rows: Endpoint[]) {
  const [views, settings] = await Promise.all([
    endpointViews(rows),
    getPrisma().operationalEndpoint.findMany({ where: { endpointId: { in: rows.map((row) => row.id) } } }),
  ]);
  const byId = new Map(settings.map((row) => [row.endpointId, row]));
  return views.map((view) => ({
    ...view,
    scopeAppId: byId.get(view.id)?.scopeAppId ?? null,
    payloadTemplate: byId.get(view.id)?.payloadTemplate ?? null,
  }));
}
