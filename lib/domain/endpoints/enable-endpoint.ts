import { getPrisma } from '../../database/db';
import { notFound } from '../errors';
import { endpointViewOf } from './endpoint-view';
import { findEndpoint } from './find-endpoint';

/** Re-enables the endpoint with a closed circuit and no failure streak: an operator turning it back on
 * wants it tried now, not auto-disabled again by the streak that disabled it. */
export async function enableEndpoint({ appId, endpointId }: { appId: string; endpointId: string }) {
  const { count } = await getPrisma().endpoint.updateMany({
    where: { id: endpointId, appId },
    data: {
      enabled: true,
      disabledReason: null,
      disabledAt: null,
      consecutiveFailures: 0,
      circuitState: 'closed',
      circuitOpenUntil: null,
      circuitBackoffMs: null,
      failingSince: null,
      updatedAt: new Date(),
    },
  });
  if (count === 0) throw notFound('Endpoint', endpointId);
  return endpointViewOf(await findEndpoint(appId, endpointId));
}
