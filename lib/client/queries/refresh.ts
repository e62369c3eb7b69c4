// How often an open page re-reads live data. The worker writes queue-depth samples once a minute and
// rollups per minute, but the current queue and delivery states change every second, so 5 s keeps
// the numbers fresh without loading the server (one stats query reads at most ~10k rollup rows for 7 d).
export const LIVE_REFRESH_MS = 5_000;
