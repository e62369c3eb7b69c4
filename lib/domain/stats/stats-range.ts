// What one stats request covers: the time range, the width of its buckets and the app or endpoint it is
// scoped to, checked once before any panel is read.
import { getPrisma } from '../../database/db';
import { DomainError, invalidQuery, notFound } from '../errors';
import { chooseBucketSeconds, MAX_POINTS } from './choose-bucket-seconds';
import { appScopeWhere } from '../apps/app-scope';

export interface StatsInput {
  appId?: string;
  /** The apps a member is held to (lib/http/scoped-apps.ts), when no one app is asked for. */
  appIds?: string[];
  endpointId?: string;
  from?: Date;
  to?: Date;
  bucketSeconds?: number;
}

export interface StatsRange {
  from: Date;
  to: Date;
  rangeSeconds: number;
  bucketSeconds: number;
  /** The app asked for, or the app of the endpoint asked for. */
  appId?: string;
  /** Without appId: the apps the caller is held to, summed together; neither: every app. */
  appIds?: string[];
  endpointId?: string;
}

/**
 * The range of a request, the last hour by default. A bad request when it is empty or has too many
 * buckets; not found when the app or endpoint does not exist (or the endpoint is not the app's).
 */
export async function resolveStatsRange(input: StatsInput): Promise<StatsRange> {
  const to = input.to ?? new Date();
  const from = input.from ?? new Date(to.getTime() - 3_600_000);
  const rangeSeconds = (to.getTime() - from.getTime()) / 1000;
  if (!(rangeSeconds > 0))
    throw new DomainError('invalid_query', 'from must be before to', [{ path: 'from', message: 'must be before to' }]);
  const bucketSeconds = input.bucketSeconds ?? chooseBucketSeconds(rangeSeconds);
  if (rangeSeconds / bucketSeconds > MAX_POINTS) {
    const message = `the range holds more than ${MAX_POINTS} buckets of ${bucketSeconds} s; choose a larger bucketSeconds`;
    throw invalidQuery('bucketSeconds', message);
  }

  const prisma = getPrisma();
  let appId = input.appId;
  if (input.endpointId) {
    const endpoint = await prisma.endpoint.findFirst({
      where: { id: input.endpointId, ...appScopeWhere({ appId, appIds: input.appIds }) },
    });
    if (!endpoint) throw notFound('Endpoint', input.endpointId);
    appId = endpoint.appId;
  } else if (appId) {
    const app = await prisma.app.findUnique({ where: { id: appId }, select: { id: true } });
    if (!app) throw notFound('App', appId);
  }
  // An endpoint or one app narrows the scope to it; else the apps the caller is held to, if any.
  const appIds = appId ? undefined : input.appIds;
  return { from, to, rangeSeconds, bucketSeconds, appId, appIds, endpointId: input.endpointId };
}

/** The start, in Unix seconds, of the bucket `from` falls in: the series' first point. */
export function firstBucketStart({ from, bucketSeconds }: StatsRange): number {
  return Math.floor(from.getTime() / 1000 / bucketSeconds) * bucketSeconds;
}
