// Tracing as an SRE turns it on: the standard OTEL_* variables set on real processes, spans posted to a
// local OTLP/HTTP receiver this test starts (test/support/otlp-receiver.ts).
//   - `npm run worker` (worker/main.ts): each attempt arrives as a hookline-worker span linked to the
//     traceparent stored with its message; the same worker without the variables imports no
//     @opentelemetry package at all while it delivers (recorded by a module hook).
//   - `npm start` (scripts/start.ts: Next.js and a worker in one process): a REST send with a
//     traceparent produces Next.js's SERVER span for the request (hookline-web), continuing the
//     producer's trace, and an attempt span (hookline-worker) linked to that same trace. Its exports
//     are held back for a minute, so the spans arriving at all shows that stopping sends them.
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort } from '../../lib/database/embedded-postgres';
import { createTestDatabase, type TestDatabase } from '../support/database';
import { waitForDelivery } from '../support/deliveries';
import { createApp, createEndpoint, createEventType } from '../support/fixtures';
import { startOtlpReceiver, type OtlpReceiver, type ReceivedSpan } from '../support/otlp-receiver';
import { startReceiver, waitUntil, type Receiver } from '../support/receiver';
import { killAll, spawnWorker, waitForLog, type WorkerProcess } from '../support/worker-process';

const ROOT = resolve(import.meta.dirname, '../..');
const RECORDER = join(ROOT, 'test/support/record-opentelemetry-imports.mjs');
// A first start may build the dashboard (about a minute on 2 cores, more on a loaded machine).
const START_TIMEOUT_MS = 240_000;
const PRODUCER_TRACE_ID = '4bf92f3577b34da6a3ce929d0e0e4736';
const PRODUCER_SPAN_ID = '00f067aa0ba902b7';
const TRACEPARENT = `00-${PRODUCER_TRACE_ID}-${PRODUCER_SPAN_ID}-01`;
// The batch processor's default is a 5 s wait between exports; the standard variable shortens it.
const FAST_EXPORT = { OTEL_BSP_SCHEDULE_DELAY: '100' };

let db: TestDatabase;
let receiver: Receiver;
let collector: OtlpReceiver;
let workdir: string;
const workers: WorkerProcess[] = [];
const children: ChildProcess[] = [];

beforeAll(async () => {
  db = await createTestDatabase();
  receiver = await startReceiver();
  collector = await startOtlpReceiver();
  workdir = await mkdtemp(join(tmpdir(), 'hookline-tracing-'));
});

afterAll(async () => {
  await killAll(workers);
  for (const child of children) if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  await receiver?.close();
  await collector?.close();
  if (workdir) await rm(workdir, { recursive: true, force: true });
});

/** hookline.send and the trace context in one transaction, as the REST send writes them. */
async function sendTraced(appId: string, eventType: string): Promise<string> {
  const client = await db.pool.connect();
  try {
    await client.query('BEGIN');
    const { rows } = await client.query<{ id: string }>(`SELECT hookline.send($1, $2, '{}'::jsonb) AS id`, [
      appId,
      eventType,
    ]);
    await client.query(`UPDATE hookline.messages SET traceparent = $2 WHERE id = hookline.uuid_of($1)`, [
      rows[0]!.id,
      TRACEPARENT,
    ]);
    await client.query('COMMIT');
    return rows[0]!.id;
  } finally {
    client.release();
  }
}

const attemptSpanOf = (messageId: string) =>
  waitUntil(() => collector.spans.find((span) => span.attributes['hookline.message.id'] === messageId), {
    timeoutMs: 15_000,
    what: `the attempt span of ${messageId} at the OTLP receiver (refused: ${collector.refused.join('; ')})`,
  });

const importsRecorded = (file: string) =>
  existsSync(file) ? readFileSync(file, 'utf8').split('\n').filter(Boolean) : [];

describe('npm run worker with OTEL_EXPORTER_OTLP_ENDPOINT', () => {
  it('posts each attempt as a hookline-worker span linked to the producer, and loads no OpenTelemetry without it', async () => {
    const appId = await createApp(db.pool, 'traced worker');
    await createEventType(db.pool, appId, 'order.paid');
    await createEndpoint(db.pool, appId, `${receiver.url}/hooks`);

    const tracedImports = join(workdir, 'traced-imports.log');
    const traced = spawnWorker(db.url, {
      OTEL_EXPORTER_OTLP_ENDPOINT: collector.url,
      ...FAST_EXPORT,
      NODE_OPTIONS: `--import ${RECORDER}`,
      HOOKLINE_TEST_IMPORT_LOG: tracedImports,
    });
    workers.push(traced);
    await waitForLog(traced, 'worker started');
    const messageId = await sendTraced(appId, 'order.paid');
    const span: ReceivedSpan = await attemptSpanOf(messageId);
    expect(span).toMatchObject({
      serviceName: 'hookline-worker',
      name: 'webhook.attempt',
      kind: 3, // CLIENT
      parentSpanId: undefined,
      links: [{ traceId: PRODUCER_TRACE_ID, spanId: PRODUCER_SPAN_ID }],
      statusCode: 0,
      attributes: expect.objectContaining({
        'hookline.attempt': 1,
        'http.response.status_code': 200,
        'url.full': `${receiver.url}/hooks`,
      }),
    });
    // The receiver got the attempt span's own trace context, the one the collector received.
    const [request] = receiver.requests.filter((received) => received.headers['webhook-id'] === messageId);
    expect(request?.headers.traceparent).toBe(`00-${span.traceId}-${span.spanId}-01`);
    // The recorder sees the SDK when it is loaded: its silence below means something.
    expect(importsRecorded(tracedImports)).toContain('@opentelemetry/sdk-trace-base');
    traced.child.kill('SIGTERM');
    expect((await traced.exited).code).toBe(0);

    // The same worker, the same kind of message, no OTEL_* variable: delivered, no span, no import.
    const untracedImports = join(workdir, 'untraced-imports.log');
    const untraced = spawnWorker(db.url, {
      OTEL_EXPORTER_OTLP_ENDPOINT: '',
      OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: '',
      NODE_OPTIONS: `--import ${RECORDER}`,
      HOOKLINE_TEST_IMPORT_LOG: untracedImports,
    });
    workers.push(untraced);
    await waitForLog(untraced, 'worker started');
    const spansBefore = collector.spans.length;
    const untracedMessage = await sendTraced(appId, 'order.paid');
    await waitForDelivery(db.pool, untracedMessage, (row) => row.state === 'succeeded');
    untraced.child.kill('SIGTERM');
    expect((await untraced.exited).code).toBe(0);
    expect(collector.spans.length).toBe(spansBefore);
    expect(importsRecorded(untracedImports)).toEqual([]);
    // Tracing off: the producer's traceparent stays home.
    const untracedRequests = receiver.requests.filter((received) => received.headers['webhook-id'] === untracedMessage);
    expect(untracedRequests.map((received) => received.headers.traceparent)).toEqual([undefined]);
  }, 60_000);
});

describe('npm start with OTEL_EXPORTER_OTLP_ENDPOINT', () => {
  let baseUrl: string;
  let dataDir: string;
  let output = '';
  let startDb: TestDatabase;
  let server: ChildProcess;

  beforeAll(async () => {
    startDb = await createTestDatabase();
    const port = await freePort();
    baseUrl = `http://127.0.0.1:${port}`;
    dataDir = join(workdir, 'start-data');
    server = spawn(process.execPath, ['--import', 'tsx', 'scripts/start.ts'], {
      cwd: ROOT,
      env: {
        PATH: process.env.PATH,
        HOME: process.env.HOME,
        NODE_ENV: 'production',
        NEXT_TELEMETRY_DISABLED: '1',
        DATABASE_URL: startDb.url,
        PORT: String(port),
        HOOKLINE_DATA_DIR: dataDir,
        HOOKLINE_METRICS_PORT: '0',
        HOOKLINE_ALLOW_LOOPBACK: 'true',
        OTEL_EXPORTER_OTLP_ENDPOINT: collector.url,
        // No export before the stop: the spans below can only come from the flush when stopping.
        OTEL_BSP_SCHEDULE_DELAY: '600000',
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    children.push(server);
    server.stdout!.on('data', (chunk: Buffer) => (output += chunk.toString()));
    server.stderr!.on('data', (chunk: Buffer) => (output += chunk.toString()));
    const exited = new Promise<never>((_, reject) =>
      server.once('exit', (code) => reject(new Error(`start.ts exited (${code}):\n${output.slice(-3000)}`))),
    );
    exited.catch(() => {});
    await Promise.race([
      waitUntil(() => output.includes('Hookline is running'), {
        timeoutMs: START_TIMEOUT_MS,
        intervalMs: 200,
        what: 'Hookline to start',
      }),
      exited,
    ]);
  }, START_TIMEOUT_MS + 30_000);

  it("traces the REST send as a hookline-web SERVER span in the producer's trace, its attempt as hookline-worker, and sends both when stopping", async () => {
    const { apiKey } = JSON.parse(readFileSync(join(dataDir, 'credentials.json'), 'utf8')) as { apiKey: string };
    const appId = await createApp(startDb.pool, 'traced start');
    await createEventType(startDb.pool, appId, 'order.paid');
    await createEndpoint(startDb.pool, appId, `${receiver.url}/hooks`);

    const response = await fetch(`${baseUrl}/api/v1/apps/${appId}/messages`, {
      method: 'POST',
      headers: { authorization: `Bearer ${apiKey}`, 'content-type': 'application/json', traceparent: TRACEPARENT },
      body: JSON.stringify({ eventType: 'order.paid', payload: { order: 1 } }),
    });
    const message = (await response.json()) as { id: string };
    expect(response.status, JSON.stringify(message)).toBe(202);
    await waitForDelivery(startDb.pool, message.id, (row) => row.state === 'succeeded');
    expect(collector.spans.filter((span) => span.serviceName === 'hookline-web')).toEqual([]);
    server.kill('SIGTERM');
    await new Promise((resolve) => server.once('exit', resolve));

    const request = await waitUntil(
      () => collector.spans.find((span) => span.serviceName === 'hookline-web' && span.kind === 2),
      {
        timeoutMs: 15_000,
        what: `a SERVER span of hookline-web (got ${JSON.stringify(collector.spans.map((s) => s.name))})`,
      },
    );
    // Next.js continued the client's traceparent: the request is a child of the producer's span.
    expect(request).toMatchObject({ traceId: PRODUCER_TRACE_ID, parentSpanId: PRODUCER_SPAN_ID });
    // Named by method and route once Next.js has matched it.
    expect(request.name).toBe('POST /api/v1/apps/[appId]/messages');

    const attempt = await attemptSpanOf(message.id);
    expect(attempt).toMatchObject({
      serviceName: 'hookline-worker',
      name: 'webhook.attempt',
      links: [{ traceId: PRODUCER_TRACE_ID, spanId: PRODUCER_SPAN_ID }],
    });
  }, 60_000);
});
