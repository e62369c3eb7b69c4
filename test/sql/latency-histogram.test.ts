// hookline.latency_histogram (migration 20261124170000_latency_histogram_loop) and
// hookline.add_latency_histograms (prisma/functions/latency-histogram.sql) against the set-based
// definitions they replaced, on the inputs a flush can give them: every bucket's edges, NULLs, nothing.
import { beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '../support/database';

let db: TestDatabase;

beforeAll(async () => {
  db = await createTestDatabase();
});

// The function as migration 20261123130000_overview_rollups wrote it.
const SET_BASED = `
  SELECT array_agg(coalesce(counted.n, 0) ORDER BY bucket.i)
    FROM generate_series(0, cardinality(hookline.latency_bucket_bounds_ms())) AS bucket(i)
    LEFT JOIN (SELECT width_bucket(d, hookline.latency_bucket_bounds_ms()) AS i, count(*) AS n
                 FROM unnest($1::double precision[]) AS d
                GROUP BY 1) AS counted USING (i)`;

async function both(durations: (number | null)[] | null): Promise<[string[], string[]]> {
  const { rows } = await db.pool.query<{ loop: string[]; set_based: string[] }>(
    `SELECT hookline.latency_histogram($1::double precision[]) AS loop, (${SET_BASED}) AS set_based`,
    [durations],
  );
  return [rows[0]!.loop, rows[0]!.set_based];
}

describe('hookline.latency_histogram', () => {
  it('counts every duration into the bucket the set-based definition gives it, edges included', async () => {
    const { rows } = await db.pool.query<{ bounds: number[] }>('SELECT hookline.latency_bucket_bounds_ms() AS bounds');
    const edges = rows[0]!.bounds.flatMap((bound) => [bound - 0.001, bound, bound + 0.001]);
    const durations = [0, 0.2, ...edges, 45_000, 1e9];
    const [loop, setBased] = await both(durations);
    expect(loop).toEqual(setBased);
    expect(loop).toHaveLength(15);
    expect(loop.map(Number).reduce((sum, n) => sum + n, 0)).toBe(durations.length);
  });

  it('skips NULL durations and answers all zeros for an empty or NULL array', async () => {
    for (const input of [[null, 3, null, 3000], [], null]) {
      const [loop, setBased] = await both(input);
      expect(loop).toEqual(setBased);
    }
    expect((await both(null))[0]).toEqual(Array(15).fill('0'));
  });
});

// hookline.add_latency_histograms as migration 20261123130000_overview_rollups wrote it.
const SET_BASED_SUM = `SELECT array_agg(x + y ORDER BY i) FROM unnest($1::bigint[], $2::bigint[]) WITH ORDINALITY AS t(x, y, i)`;

describe('hookline.add_latency_histograms', () => {
  it('sums two histograms bucket by bucket as the set-based definition did, odd inputs included', async () => {
    const cases: [(number | null)[], (number | null)[]][] = [
      [Array.from({ length: 15 }, (_, i) => i), Array.from({ length: 15 }, (_, i) => 1000 * i + 7)],
      [[1, null, 3], [4, 5, 6]],
      [[1, 2, 3], [4, 5]],
      [[], []],
      [[], [9]],
    ];
    for (const [a, b] of cases) {
      const { rows } = await db.pool.query<{ loop: string[] | null; set_based: string[] | null }>(
        `SELECT hookline.add_latency_histograms($1::bigint[], $2::bigint[]) AS loop, (${SET_BASED_SUM}) AS set_based`,
        [a, b],
      );
      expect(rows[0]!.loop, JSON.stringify([a, b])).toEqual(rows[0]!.set_based);
    }
    const { rows } = await db.pool.query<{ sum: string[] }>(
      `SELECT hookline.sum_latency_histograms(h) AS sum
         FROM (VALUES ('{1,2,3}'::bigint[]), (NULL), ('{10,20,30}'), ('{100,200,300}')) AS v(h)`,
    );
    expect(rows[0]!.sum).toEqual(['111', '222', '333']);
  });
});
