import { findEndpoint } from '../endpoints/find-endpoint';
import { operationalEndpointViews } from './operational-endpoint-view';
import { OPERATIONS_APP_ID } from './operations-app';

export async function getOperationalEndpoint({ endpointId }: { endpointId: string }) {
  const [view] = await operationalEndpointViews([await findEndpoint(OPERATIONS_APP_ID, endpointId)]);
  return view!;
}
