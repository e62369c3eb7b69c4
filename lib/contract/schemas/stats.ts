import { z } from 'zod';
import { isoDate, timestamp, type ResponseBody } from './common';

export const statsQuery = z.object({
  appId: z.string().min(1).max(200).optional(),
  endpointId: z.string().min(1).max(200).optional(),
  from: isoDate.optional().describe('Default: one hour before `to`'),
  to: isoDate.optional().describe('Default: now'),
  bucketSeconds: z.coerce
    .number()
    .int()
    .min(60)
    .max(86_400)
    .multipleOf(60)
    .optional()
    .describe('Width of one series point; a multiple of 60 (default chosen from the range)'),
});

const latency = z.object({ p50: z.number().nullable(), p95: z.number().nullable(), p99: z.number().nullable() });

/** One bucket of the throughput and latency charts: attempts by outcome and latency percentiles. */
const chartPoint = z
  .object({ time: timestamp, succeeded: z.number().int(), failed: z.number().int() })
  .extend(latency.shape);

export const stats = z.object({
  from: timestamp,
  to: timestamp,
  bucketSeconds: z.number().int(),
  queue: z
    .object({
      waiting: z.number().int().describe('Pending, never tried'),
      retrying: z.number().int().describe('Pending, failed at least once'),
      delivering: z.number().int(),
      dead: z
        .number()
        .int()
        .describe('Counted up to 10,000: with deadCapped, more than this many are dead (the count stops there)'),
      deadCapped: z
        .boolean()
        .describe(
          'More than `dead` deliveries are dead: the count stopped at 10,000, so it costs the same at any history',
        ),
      liveCapped: z
        .boolean()
        .describe(
          'More than 10,000 deliveries in scope are unfinished: the count stopped there, so waiting, retrying, delivering and waitingFor are lower bounds (the queue chart samples count them all once a minute)',
        ),
      waitingFor: z
        .object({
          worker: z.number().int().describe('Due now: sent as soon as a worker has a free slot'),
          circuit: z.number().int().describe("Held while their endpoint's circuit is open, until a probe succeeds"),
          endpointEnabled: z.number().int().describe('Held while their endpoint is disabled'),
          retryTime: z.number().int().describe('Scheduled for later: the backoff of a retry (or a Retry-After) runs'),
        })
        .describe('The waiting and retrying deliveries by what they wait for; the four add up to waiting + retrying'),
    })
    .describe('Counted now; the states are those of a delivery'),
  totals: z.object({
    attempts: z.number().int(),
    succeeded: z.number().int(),
    failed: z.number().int(),
    successRate: z.number().nullable(),
    attemptsPerSecond: z
      .number()
      .nullable()
      .describe(
        'Attempts (retries included) per second over rateSpan, the part of the range that holds attempts; null without any',
      ),
    rateSpan: z
      .object({ from: timestamp, to: timestamp, seconds: z.number() })
      .nullable()
      .describe('From the first minute with attempts in the range to the end of the last one (at most `to` or now)'),
    lastMinute: z
      .object({
        from: timestamp,
        to: timestamp,
        attempts: z.number().int(),
        attemptsPerSecond: z.number(),
      })
      .nullable()
      .describe('The last complete minute of the range: the rate right now when the range ends now'),
    latencyMs: latency,
  }),
  series: z.array(
    chartPoint.extend({
      waiting: z
        .number()
        .int()
        .nullable()
        .describe('Queue sample; null where none was taken. The last point is counted now'),
      retrying: z.number().int().nullable(),
      delivering: z.number().int().nullable(),
      dead: z.number().int().nullable(),
      errorClasses: z.record(z.string(), z.number().int()).describe('Failed attempts per error class'),
      statusCodes: z.record(z.string(), z.number().int()).describe('Attempts per response status code'),
    }),
  ),
  errorClasses: z.array(
    z.object({
      errorClass: z.string(),
      count: z.number().int(),
      share: z.number().describe('Of failed attempts, 0..1'),
    }),
  ),
  statusCodes: z.array(
    z.object({
      statusCode: z.number().int(),
      count: z.number().int(),
      share: z.number().describe('Of responses, 0..1'),
    }),
  ),
  readReplica: z
    .object({
      inUse: z.boolean().describe('Whether these numbers were read from the replica'),
      lagSeconds: z.number().nullable().describe('How far behind the primary it is; 0 when caught up'),
      lagBytes: z.number().nullable().describe('WAL bytes it has yet to replay'),
      problem: z.string().nullable().describe('Why it is not read from (unreachable, too far behind, not a standby)'),
    })
    .nullable()
    .describe('The read replica of HOOKLINE_READ_DATABASE_URL; null when none is configured'),
  worstEndpoints: z.array(
    z.object({
      endpointId: z.string(),
      appId: z.string(),
      url: z.string(),
      attempts: z.number().int(),
      failed: z.number().int(),
      successRate: z.number().nullable(),
      lastErrorClass: z.string().nullable(),
    }),
  ),
});
export type Stats = ResponseBody<typeof stats>;
export type StatsPoint = Stats['series'][number];

export const endpointStatsQuery = statsQuery.pick({ from: true, to: true, bucketSeconds: true });

export const endpointStats = z.object({
  from: timestamp,
  to: timestamp,
  bucketSeconds: z.number().int(),
  totals: z.object({
    attempts: z.number().int().describe('Attempts in the range, retries included'),
    succeeded: z.number().int(),
    failed: z.number().int(),
    successRate: z.number().nullable().describe('Succeeded share of attempts, 0..1; null without attempts'),
    latencyMs: latency.describe("The receiver's response time over the range"),
  }),
  series: z.array(chartPoint),
});
export type EndpointStats = ResponseBody<typeof endpointStats>;
/** What the throughput and latency charts draw: a point of either series. */
export type ChartPoint = ResponseBody<typeof chartPoint>;
