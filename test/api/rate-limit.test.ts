// HOOKLINE_API_RATE_LIMIT: requests per second per API key (token bucket, bursts of one second's
// worth), answered 429 with Retry-After; one key's traffic never limits another key; the buckets are
// in PostgreSQL, so several web processes together allow the rate once, not once each.
import { execFile } from 'node:child_process';
import { resolve } from 'node:path';
import { promisify } from 'node:util';
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { resetRateLimits, takeToken } from '../../lib/http/rate-limit';
import { countRows, createApp, createEventType } from '../support/fixtures';
import { appLimitedKey, call, setUpApiTest, type ApiTestContext } from './support/api';
import { expectError } from './support/expect-error';

const RATE = 5;

let ctx: ApiTestContext;
let appId: string;

beforeAll(async () => {
  ctx = await setUpApiTest({ HOOKLINE_API_RATE_LIMIT: String(RATE) });
  appId = await createApp(ctx.db.pool, 'limited');
  await createEventType(ctx.db.pool, appId, 'tick');
});

beforeEach(async () => {
  await resetRateLimits();
  // The clock stands still unless a test moves it: on a loaded machine, requests a few hundred
  // milliseconds apart would otherwise refill the bucket and make the counts below depend on timing.
  // Only Date is faked; the database driver's timers run as usual.
  vi.useFakeTimers({ toFake: ['Date'], now: Date.now() });
});

afterEach(() => {
  vi.useRealTimers();
});

const listApps = (key: string) => call('GET', '/v1/apps', { key });

describe('the API rate limit', () => {
  it(`allows a burst of ${RATE} requests, then answers 429 with Retry-After`, async () => {
    for (let i = 0; i < RATE; i++) expect((await listApps(ctx.adminKey)).status).toBe(200);
    const limited = await listApps(ctx.adminKey);
    expectError(limited, 429, 'rate_limited');
    expect(limited.headers.get('retry-after')).toBe('1');
    expect(limited.body.error.message).toContain('HOOKLINE_API_RATE_LIMIT');
  });

  it('counts per key: another key, even of the same app, is not limited', async () => {
    const first = await appLimitedKey(appId);
    const second = await appLimitedKey(appId);
    for (let i = 0; i < RATE; i++) await listApps(first);
    expect((await listApps(first)).status).toBe(429);
    expect((await listApps(second)).status).toBe(200);
    expect((await listApps(ctx.adminKey)).status).toBe(200);
  });

  it('lets the key through again once Retry-After has passed', async () => {
    for (let i = 0; i < RATE; i++) await listApps(ctx.adminKey);
    const limited = await listApps(ctx.adminKey);
    expect(limited.status).toBe(429);
    expect((await listApps(ctx.adminKey)).status, 'while the clock stands still').toBe(429);
    vi.setSystemTime(Date.now() + Number(limited.headers.get('retry-after')) * 1000);
    expect((await listApps(ctx.adminKey)).status).toBe(200);
  });

  it('a refused write records nothing', async () => {
    const send = () =>
      call('POST', `/v1/apps/${appId}/messages`, { key: ctx.adminKey, body: { eventType: 'tick', payload: {} } });
    for (let i = 0; i < RATE; i++) expect((await send()).status).toBe(202);
    const before = await countRows(ctx.db.pool, 'messages');
    expect((await send()).status).toBe(429);
    expect(await countRows(ctx.db.pool, 'messages')).toBe(before);
  });

  it('limits concurrent requests too: of 20 at once, 5 pass', async () => {
    const responses = await Promise.all(Array.from({ length: 20 }, () => listApps(ctx.adminKey)));
    const statuses = responses.map((response) => response.status).sort();
    expect(statuses.filter((status) => status === 200)).toHaveLength(RATE);
    expect(statuses.filter((status) => status === 429)).toHaveLength(20 - RATE);
  });

  it('answers 401, not 429, to unknown keys, whose requests count against no key', async () => {
    for (let i = 0; i < RATE * 2; i++) expectError(await listApps('hl_unknown'), 401, 'unauthorized');
    expect((await listApps(ctx.adminKey)).status).toBe(200);
  });
});

describe('takeToken (the token bucket)', () => {
  const t0 = 1_000_000;

  it.each([
    // [rate, request times in ms after t0, expected results (0 = allowed, else seconds to wait)]
    [5, [0, 0, 0, 0, 0, 0], [0, 0, 0, 0, 0, 1]],
    [5, [0, 0, 0, 0, 0, 200], [0, 0, 0, 0, 0, 0]], // 200 ms at 5/s refills one token
    [5, [0, 0, 0, 0, 0, 100], [0, 0, 0, 0, 0, 1]], // 100 ms: half a token, not enough
    [2, [0, 0, 0, 5000, 5000, 5000], [0, 0, 1, 0, 0, 1]], // a long pause refills to the burst, not beyond
    [1, [0, 0, 400], [0, 1, 1]], // 0.4 of a token short of one: wait a second
    [5, [1000, 0, 0, 0, 0, 0], [0, 0, 0, 0, 0, 1]], // a clock behind another host's refills nothing
    [0, [0, 0, 0, 0], [0, 0, 0, 0]], // 0 turns the limit off
  ])('rate %s, requests at %o ms: %o', async (rate, times, expected) => {
    const key = `bucket-${rate}-${times.join('-')}`;
    const answers: number[] = [];
    for (const time of times) answers.push(await takeToken(key, rate, { now: t0 + time }));
    expect(answers).toEqual(expected);
  });
});

describe('several web processes', () => {
  const run = promisify(execFile);
  const script = resolve(import.meta.dirname, 'support', 'take-tokens.ts');
  const takeIn = async (key: string, rate: number, count: number, now: number) => {
    const { stdout } = await run(
      process.execPath,
      ['--import', 'tsx', script, key, String(rate), String(count), String(now)],
      {
        env: { ...process.env, DATABASE_URL: ctx.db.url },
      },
    );
    return JSON.parse(stdout) as number[];
  };

  it('share one limit: two processes taking 15 tokens each at once get 10 in all at 10/s', async () => {
    const now = Date.now();
    const [first, second] = await Promise.all([takeIn('shared-key', 10, 15, now), takeIn('shared-key', 10, 15, now)]);
    const allowed = [...first!, ...second!].filter((wait) => wait === 0);
    expect(allowed).toHaveLength(10);
    expect([...first!, ...second!].filter((wait) => wait === 1)).toHaveLength(20);
  }, 60_000);
});
