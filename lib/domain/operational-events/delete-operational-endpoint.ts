import { getPrisma } from '../../database/db';
import { deleteEndpoint } from '../endpoints/delete-endpoint';
import { OPERATIONS_APP_ID } from './operations-app';

/** Deletes the endpoint (with its deliveries, as any endpoint) and its scope and template. */
export async function deleteOperationalEndpoint({ endpointId }: { endpointId: string }): Promise<void> {
  await deleteEndpoint({ appId: OPERATIONS_APP_ID, endpointId });
  await getPrisma().operationalEndpoint.deleteMany({ where: { endpointId } });
}
