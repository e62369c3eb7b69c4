import { endpointViewOf } from './endpoint-view';
import { findEndpoint } from './find-endpoint';

export async function getEndpoint({ appId, endpointId }: { appId: string; endpointId: string }) {
  return endpointViewOf(await findEndpoint(appId, endpointId));
}
