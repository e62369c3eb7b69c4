import { getPrisma } from '../../database/db';
import { endpointViewOf } from './endpoint-view';
import { findEndpoint } from './find-endpoint';

// A worker that got fewer tokens than it asked for gave the rest back to wait (worker/endpoint-rate-limit.ts);
// for this long after such a take the endpoint shows as held by its limit.
const HELD_WINDOW_MS = 5000;

export async function getEndpoint({ appId, endpointId }: { appId: string; endpointId: string }) {
  const endpoint = await endpointViewOf(await findEndpoint(appId, endpointId));
  if (!endpoint.rateLimitPerSecond) return { ...endpoint, heldByRateLimit: false };
  const bucket = await getPrisma().endpointRateBucket.findUnique({ where: { endpointId } });
  const heldByRateLimit =
    bucket !== null && bucket.granted < bucket.wanted && Date.now() - bucket.updatedAt.getTime() < HELD_WINDOW_MS;
  return { ...endpoint, heldByRateLimit };
}
