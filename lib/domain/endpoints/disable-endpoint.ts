import { getPrisma } from '../../database/db';
import { notFound } from '../errors';
import { endpointViewOf } from './endpoint-view';
import { findEndpoint } from './find-endpoint';

/** New messages stop fanning out to a disabled endpoint (hookline.send skips it). */
export async function disableEndpoint({
  appId,
  endpointId,
  reason,
}: {
  appId: string;
  endpointId: string;
  reason?: string;
}) {
  const { count } = await getPrisma().endpoint.updateMany({
    where: { id: endpointId, appId },
    data: {
      enabled: false,
      disabledReason: reason ?? 'Disabled by an operator',
      disabledAt: new Date(),
      updatedAt: new Date(),
    },
  });
  if (count === 0) throw notFound('Endpoint', endpointId);
  return endpointViewOf(await findEndpoint(appId, endpointId));
}
