// A real DeliveryWorker for tests: loopback allowed (receivers live on 127.0.0.1), fast polling and
// flushing, quiet logs. Every test stops its workers in afterEach/afterAll.
import { loadConfig } from '../../lib/runtime/env';
import { createLogger, type Logger } from '../../lib/runtime/log';
import { workerOptionsFromConfig } from '../../worker/start-worker';
import { DeliveryWorker, type DeliveryWorkerOptions } from '../../worker/delivery-worker';

// The circuit breaker and auto-disable as a deployment gets them by default (lib/runtime/env.ts).
const { circuit, autoDisableAfterMs } = workerOptionsFromConfig(loadConfig({ NODE_ENV: 'test' }), '');

export function testWorkerOptions(
  connectionString: string,
  overrides: Partial<DeliveryWorkerOptions> = {},
): DeliveryWorkerOptions {
  return {
    connectionString,
    concurrency: 32,
    batchSize: 32,
    leaseSeconds: 30,
    pollIntervalMs: 100,
    flushIntervalMs: 5,
    flushMaxResults: 200,
    retrySchedule: [0, 200, 400],
    http: { timeoutMs: 2000, keepBytes: 4096, drainBytes: 1_048_576 },
    addressPolicy: { allowLoopback: true, allowPrivate: false },
    circuit,
    autoDisableAfterMs,
    log: testLogger(),
    ...overrides,
  };
}

// Worker logs only when HOOKLINE_TEST_LOGS is set: a passing run stays readable.
export function testLogger(): Logger {
  if (process.env.HOOKLINE_TEST_LOGS) return createLogger({ test: true });
  const silent: Logger = { debug() {}, info() {}, warn() {}, error() {}, child: () => silent };
  return silent;
}

const running = new Set<DeliveryWorker>();

export async function startTestWorker(
  connectionString: string,
  overrides: Partial<DeliveryWorkerOptions> = {},
): Promise<DeliveryWorker> {
  const worker = new DeliveryWorker(testWorkerOptions(connectionString, overrides));
  running.add(worker);
  await worker.start();
  return worker;
}

/** Stops every worker a test started (force: tests do not wait for slow receivers). */
export async function stopTestWorkers(): Promise<void> {
  const workers = [...running];
  running.clear();
  await Promise.all(workers.map((worker) => worker.stop({ force: true })));
}
