// The queue depth chart: per bucket, the worker's last queue sample in it (worker/sql/sample-queue-depth.sql,
// taken once a minute). There is no per-endpoint history, so an endpoint's chart has no queue points
// rather than its app's.
import { readPrisma } from '../../database/read-replica';
import type { QueueState } from './read-queue-depth';
import { firstBucketStart, type StatsRange } from './stats-range';
import { appScopeSql } from '../apps/app-scope';

// The samples name the states pending / scheduled / delivering / dead, split as the queue cards are:
// 'scheduled' is any pending delivery tried at least once. Samples taken before migration
// 20261123170000_write_path_v2 counted a retry already due as 'pending'.
const SAMPLE_STATE: Record<string, QueueState> = {
  pending: 'waiting',
  scheduled: 'retrying',
  delivering: 'delivering',
  dead: 'dead',
};

/** By bucket start (Unix seconds): the deliveries in each state; buckets without a sample are missing. */
export async function readQueueHistory(range: StatsRange): Promise<Map<number, Record<QueueState, number>>> {
  const { from, to, bucketSeconds } = range;
  const sampled = new Map<number, Record<QueueState, number>>();
  if (range.endpointId) return sampled;
  // Samples are taken for every app at once, once a minute, and an app with an empty queue has no
  // row. Per bucket: the last sample time in it (one backward index probe per bucket, not a sort of
  // every sample: 121 ms over 7 days before, 15 ms now), then that sample's rows summed over apps;
  // a bucket whose last sample holds no row for the app(s) comes back as one row with a null state:
  // sampled, and nothing was queued.
  const rows = await (
    await readPrisma()
  ).$queryRaw<{ t: number; state: string | null; count: number | null }[]>`
      SELECT extract(epoch FROM b.start)::float8 AS t, q.state, sum(q.count)::float8 AS count
        FROM (
          SELECT start, (SELECT max(sampled_at) FROM hookline.queue_depth_samples
                          WHERE sampled_at >= greatest(start, ${from}::timestamptz)
                            AND sampled_at < least(start + make_interval(secs => ${bucketSeconds}::int), ${to}::timestamptz)
                        ) AS last_sampled_at
            FROM generate_series(to_timestamp(${firstBucketStart(range)}::float8),
                                 ${to}::timestamptz, make_interval(secs => ${bucketSeconds}::int)) AS start
        ) AS b
        LEFT JOIN hookline.queue_depth_samples q
          ON q.sampled_at = b.last_sampled_at ${appScopeSql(range, 'q.app_id')}
       WHERE b.last_sampled_at IS NOT NULL
       GROUP BY 1, 2`;
  for (const row of rows) {
    // A sample was taken in this bucket: states without a row had nothing queued.
    const queue =
      sampled.get(row.t) ?? sampled.set(row.t, { waiting: 0, retrying: 0, delivering: 0, dead: 0 }).get(row.t)!;
    const state = row.state ? SAMPLE_STATE[row.state] : undefined;
    if (state) queue[state] = row.count ?? 0;
  }
  return sampled;
}
