import { getPrisma } from '../db';
import { notFound } from '../errors';

/** Deletes the endpoint with its secrets and deliveries (their attempts go with them). */
export async function deleteEndpoint({ appId, endpointId }: { appId: string; endpointId: string }): Promise<void> {
  const { count } = await getPrisma().endpoint.deleteMany({ where: { id: endpointId, appId } });
  if (count === 0) throw notFound('Endpoint', endpointId);
}
