// How long a worker waits before trying the database again after `failures` errors in a row: 100 ms,
// doubling, up to `capMs` (5 s by default). Short enough that a restart of a second or two costs a
// second or two (test/worker/postgres-restart.test.ts: work resumes within 6 s of the server coming
// back); long enough that a database that is down gets ~1 try in 5 s from each part of each worker, not
// one per delivery that finished meanwhile (which was ~40 failed claims per worker in a 4 s outage).
export function databaseBackoffMs(failures: number, capMs = 5000): number {
  return failures <= 0 ? 0 : Math.min(capMs, 100 * 2 ** (failures - 1));
}
