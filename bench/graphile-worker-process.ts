// One graphile-worker process for the peer scenario (bench/graphile-peer.ts), started by
// bench/worker-processes.ts like a Hookline worker so its CPU and memory are its own. Its one task,
// `deliver`, POSTs the job's payload to the bench receiver over undici keep-alive, signed the way
// Hookline signs (Standard Webhooks: webhook-id, webhook-timestamp, an HMAC-SHA256 signature), so both
// do the same work per request; webhook-id is the job's id, which the receiver uses to find duplicates.
// A non-2xx answer throws, and graphile-worker retries the job.
// DATABASE_URL and BENCH_RECEIVER_URL come from the environment; SIGTERM stops it gracefully.
import { createHmac } from 'node:crypto';
import { Pool } from 'undici';
import { GRAPHILE_RECEIVER_CONNECTIONS, GRAPHILE_TUNING, loadGraphileWorker } from './graphile-worker-module';

const SIGNING_KEY = Buffer.from('hookline-bench-peer-signing-key!');

function line(level: string, msg: string, extra: Record<string, unknown> = {}) {
  process.stdout.write(`${JSON.stringify({ level, msg, ...extra })}\n`);
}

async function main(): Promise<void> {
  const loaded = await loadGraphileWorker();
  if (!loaded) throw new Error('graphile-worker is not installed');
  const { module } = loaded;
  const receiverUrl = new URL(process.env.BENCH_RECEIVER_URL ?? '');
  const receiver = new Pool(receiverUrl.origin, {
    connections: GRAPHILE_RECEIVER_CONNECTIONS,
    keepAliveTimeout: 60_000,
  });
  // Only warnings and errors: a line per job would cost the process more than the job.
  const logger = new module.Logger(() => (level, message) => {
    if (level === 'error' || level === 'warning') line(level === 'error' ? 'error' : 'warn', message);
  });
  const runner = await module.run({
    connectionString: process.env.DATABASE_URL,
    noHandleSignals: true,
    logger,
    preset: { worker: { ...GRAPHILE_TUNING } },
    taskList: {
      async deliver(payload: unknown, helpers: { job: { id: string } }) {
        const body = JSON.stringify(payload);
        const id = `job_${helpers.job.id}`;
        const timestamp = Math.floor(Date.now() / 1000).toString();
        const signature = createHmac('sha256', SIGNING_KEY).update(`${id}.${timestamp}.${body}`).digest('base64');
        const response = await receiver.request({
          path: `${receiverUrl.pathname}`,
          method: 'POST',
          headers: {
            'content-type': 'application/json',
            'webhook-id': id,
            'webhook-timestamp': timestamp,
            'webhook-signature': `v1,${signature}`,
          },
          body,
        });
        await response.body.dump();
        if (response.statusCode < 200 || response.statusCode > 299) {
          throw new Error(`the receiver answered ${response.statusCode}`);
        }
      },
    },
  });
  line('info', 'worker started');
  process.once('SIGTERM', () => {
    runner
      .stop()
      .then(() => receiver.close())
      .then(() => process.exit(0))
      .catch((error: unknown) => {
        line('error', `stop failed: ${(error as Error).message}`);
        process.exit(1);
      });
  });
  await runner.promise;
}

main().catch((error: unknown) => {
  line('error', (error as Error).message);
  process.exit(1);
});
