// In-process token bucket per principal: `ratePerSecond` tokens a second, bursts of up to one second's
// worth. Each web process limits on its own, so N processes allow N times the rate; that is the price
// of not doing a database round trip per request, and it is enough to stop a runaway client.
interface Bucket {
  tokens: number;
  updatedAt: number;
}

const buckets = new Map<string, Bucket>();
// Idle buckets are full again after one second; dropping them keeps the map from growing forever.
const SWEEP_EVERY = 10_000;
let takesSinceSweep = 0;

/** Takes a token; returns 0 when allowed, else the seconds to wait for the next token. */
export function takeToken(key: string, ratePerSecond: number, now = Date.now()): number {
  if (ratePerSecond <= 0) return 0;
  if (++takesSinceSweep >= SWEEP_EVERY) sweep(now);
  const bucket = buckets.get(key) ?? { tokens: ratePerSecond, updatedAt: now };
  bucket.tokens = Math.min(ratePerSecond, bucket.tokens + ((now - bucket.updatedAt) / 1000) * ratePerSecond);
  bucket.updatedAt = now;
  buckets.set(key, bucket);
  if (bucket.tokens >= 1) {
    bucket.tokens -= 1;
    return 0;
  }
  return Math.max(1, Math.ceil((1 - bucket.tokens) / ratePerSecond));
}

function sweep(now: number): void {
  takesSinceSweep = 0;
  for (const [key, bucket] of buckets) if (now - bucket.updatedAt > 1000) buckets.delete(key);
}

export function resetRateLimits(): void {
  buckets.clear();
}
