import { getPrisma } from '../../database/db';
import { notFound } from '../errors';

/** The endpoint row, only if it belongs to the app; else not_found. */
export async function findEndpoint(appId: string, endpointId: string) {
  const row = await getPrisma().endpoint.findFirst({ where: { id: endpointId, appId } });
  if (!row) throw notFound('Endpoint', endpointId);
  return row;
}
