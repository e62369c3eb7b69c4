import { getPrisma } from '../../database/db';
import { OPERATIONS_APP_ID } from './operations-app';

/**
 * Whether an endpoint's messages are sent as their payload alone: an operational endpoint with a
 * payload template (the worker's rule, worker/sql/load-endpoints.sql). For every other app, no query.
 */
export async function hasPayloadTemplate(appId: string, endpointId: string): Promise<boolean> {
  if (appId !== OPERATIONS_APP_ID) return false;
  const row = await getPrisma().operationalEndpoint.findUnique({
    where: { endpointId },
    select: { payloadTemplate: true },
  });
  return row?.payloadTemplate != null;
}
