// Delivery workers as real child processes (`worker/main.ts`, as `npm run worker` runs it), for tests
// that kill, freeze or restart them, or restart Postgres under them.
import { spawn, type ChildProcess } from 'node:child_process';
import { resolve } from 'node:path';

const ROOT = resolve(import.meta.dirname, '..', '..');

export interface WorkerProcess {
  child: ChildProcess;
  pid: number;
  /** stdout and stderr so far (JSON log lines), for failure messages. */
  output: () => string;
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

/** Settings for fast tests: short leases so a killed worker's deliveries come back within seconds. */
export const fastWorkerEnv: Record<string, string> = {
  HOOKLINE_ALLOW_LOOPBACK: 'true',
  HOOKLINE_METRICS_PORT: '0',
  HOOKLINE_LEASE_SECONDS: '2',
  HOOKLINE_DELIVERY_TIMEOUT_MS: '1000',
  HOOKLINE_POLL_INTERVAL_MS: '200',
  HOOKLINE_RETRY_SCHEDULE: '0,100ms,200ms,500ms,1s,1s,1s,1s,1s,1s',
  HOOKLINE_LOG_LEVEL: 'warn',
};

export function spawnWorker(databaseUrl: string, env: Record<string, string> = {}): WorkerProcess {
  // node --import tsx runs the TypeScript in this very process, so a signal sent to `pid` reaches
  // the worker itself (the tsx CLI would put a wrapper process in between).
  const child = spawn(process.execPath, ['--import', 'tsx', 'worker/main.ts'], {
    cwd: ROOT,
    env: { ...process.env, ...fastWorkerEnv, ...env, DATABASE_URL: databaseUrl },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout!.on('data', (chunk: Buffer) => (output = (output + chunk.toString()).slice(-20_000)));
  child.stderr!.on('data', (chunk: Buffer) => (output = (output + chunk.toString()).slice(-20_000)));
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolvePromise) =>
    child.once('exit', (code, signal) => resolvePromise({ code, signal })),
  );
  return { child, pid: child.pid!, output: () => output, exited };
}

/** Sends `signal` unless the process has already exited. */
export function signal(worker: WorkerProcess, name: NodeJS.Signals): void {
  if (worker.child.exitCode === null && worker.child.signalCode === null) worker.child.kill(name);
}

export async function killAll(workers: Iterable<WorkerProcess>): Promise<void> {
  const all = [...workers];
  for (const worker of all) {
    signal(worker, 'SIGCONT');
    signal(worker, 'SIGKILL');
  }
  await Promise.all(all.map((worker) => worker.exited));
}
