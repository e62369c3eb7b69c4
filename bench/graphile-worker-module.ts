// graphile-worker, the peer of issue 22's table, is optional: `npm ci` does not install it, and the
// bench loads it only when it is there (`npm install --no-save graphile-worker@0.18`). Its types are
// not available to the type check without it, so the few parts the bench uses are declared here.
// 0.18 declares Node >= 22.18 (Node 20 is end of life for its authors); it loads and runs on this
// machine's Node 20.20, where require(esm) is on by default and task files are not used (the task
// is a function, so Node's type stripping is not needed).
import { readFile } from 'node:fs/promises';
import { resolve } from 'node:path';

const PACKAGE = 'graphile-worker';

export const GRAPHILE_WORKER_MISSING =
  'graphile-worker is not installed, so its peer scenario is skipped. To run it, install it without ' +
  'touching package.json or the lock file:\n  npm install --no-save graphile-worker@0.18\n' +
  '(`npm ci` removes it again.)';

export interface GraphileRunner {
  stop(): Promise<void>;
  promise: Promise<void>;
}

export interface GraphileWorkerModule {
  run(options: Record<string, unknown>): Promise<GraphileRunner>;
  runMigrations(options: Record<string, unknown>): Promise<void>;
  Logger: new (factory: (scope: unknown) => (level: string, message: string, meta?: unknown) => void) => unknown;
}

const PACKAGE_JSON = resolve(import.meta.dirname, '..', 'node_modules', PACKAGE, 'package.json');

export interface LoadedGraphileWorker {
  module: GraphileWorkerModule;
  version: string;
  /** Its package.json's engines.node, e.g. ">=22.18.0". */
  nodeRequired: string | undefined;
}

/** The installed package and its version, or null when it is not installed. */
export async function loadGraphileWorker(): Promise<LoadedGraphileWorker | null> {
  const manifest = await readFile(PACKAGE_JSON, 'utf8')
    .then((text) => JSON.parse(text) as { version: string; engines?: { node?: string } })
    .catch(() => null);
  if (manifest === null) return null;
  const module = (await import(PACKAGE)) as GraphileWorkerModule;
  return { module, version: manifest.version, nodeRequired: manifest.engines?.node };
}

/**
 * How the peer runs, tuned for a fast drain as graphile-worker's performance docs advise, and printed
 * with its results:
 * - concurrentJobs 24 (its docs' high-throughput example), a pool of 25 connections;
 * - localQueue 500: one query locks a batch of jobs instead of one per job;
 * - completeJobBatchDelay and failJobBatchDelay 0: completions of the same tick go in one statement;
 * - pollInterval 100 ms: add_job NOTIFYs new jobs, the poll is only the fallback (default 2 s);
 * - preparedStatements on (the default; no pooler in between).
 * The task POSTs the job's payload to the receiver over undici keep-alive, with at most 10
 * connections: the same cap Hookline's bench endpoint has.
 */
export const GRAPHILE_TUNING = {
  concurrentJobs: 24,
  maxPoolSize: 25,
  pollInterval: 100,
  preparedStatements: true,
  localQueue: { size: 500 },
  completeJobBatchDelay: 0,
  failJobBatchDelay: 0,
} as const;

export const GRAPHILE_RECEIVER_CONNECTIONS = 10;

export function describeTuning(): string {
  const t = GRAPHILE_TUNING;
  return (
    `concurrentJobs ${t.concurrentJobs}, maxPoolSize ${t.maxPoolSize}, localQueue.size ${t.localQueue.size}, ` +
    `completeJobBatchDelay ${t.completeJobBatchDelay}, pollInterval ${t.pollInterval} ms, ` +
    `preparedStatements ${t.preparedStatements ? 'on' : 'off'}, ${GRAPHILE_RECEIVER_CONNECTIONS} keep-alive connections`
  );
}
