// Delivery workers as real child processes (`worker/main.ts`, as `npm run worker` runs it), for tests
// that kill, freeze or restart them, or restart Postgres under them.
import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import type { Pool } from '../../lib/database/pg';
import { waitUntil } from './receiver';

const ROOT = resolve(import.meta.dirname, '..', '..');

export interface WorkerProcess {
  child: ChildProcess;
  pid: number;
  /** stdout and stderr so far (JSON log lines), for failure messages. */
  output: () => string;
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  /** How many log lines with this `msg` it has written (counted as they arrive, never trimmed). */
  logged: (message: string) => number;
  /** The last log line with this `msg`, parsed; undefined if none. */
  lastLogged: (message: string) => Record<string, unknown> | undefined;
  /** Every warning or error line so far (never trimmed), parsed: what a failure message shows. */
  problems: () => Record<string, unknown>[];
  /** Whether it has connected and entered its loop (it logged "worker started"). */
  started: () => boolean;
}

/** Settings for fast tests: short leases so a killed worker's deliveries come back within seconds. */
export const fastWorkerEnv: Record<string, string> = {
  HOOKLINE_ALLOW_LOOPBACK: 'true',
  HOOKLINE_METRICS_PORT: '0',
  HOOKLINE_LEASE_SECONDS: '2',
  HOOKLINE_DELIVERY_TIMEOUT_MS: '1000',
  HOOKLINE_POLL_INTERVAL_MS: '200',
  HOOKLINE_RETRY_SCHEDULE: '0,100ms,200ms,500ms,1s,1s,1s,1s,1s,1s',
  // 'info' logs a handful of lines per process (started, draining, stopped, database back), which
  // tests wait on; nothing per delivery.
  HOOKLINE_LOG_LEVEL: 'info',
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
  const messages = new Map<string, number>();
  const lastLines = new Map<string, Record<string, unknown>>();
  const problems: Record<string, unknown>[] = [];
  const reader = () => {
    let partial = '';
    return (chunk: Buffer) => {
      output = (output + chunk.toString()).slice(-20_000);
      const lines = (partial + chunk.toString()).split('\n');
      partial = lines.pop()!;
      for (const line of lines) {
        let parsed: Record<string, unknown>;
        try {
          parsed = JSON.parse(line) as Record<string, unknown>;
        } catch {
          continue;
        }
        const message = parsed?.msg;
        if (typeof message !== 'string') continue;
        messages.set(message, (messages.get(message) ?? 0) + 1);
        lastLines.set(message, parsed);
        if ((parsed.level === 'warn' || parsed.level === 'error') && problems.length < 2_000) problems.push(parsed);
      }
    };
  };
  child.stdout!.on('data', reader());
  child.stderr!.on('data', reader());
  const logged = (message: string) => messages.get(message) ?? 0;
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolvePromise) =>
    child.once('exit', (code, signal) => resolvePromise({ code, signal })),
  );
  return {
    child,
    pid: child.pid!,
    output: () => output,
    exited,
    logged,
    lastLogged: (message) => lastLines.get(message),
    problems: () => problems,
    started: () => logged('worker started') > 0,
  };
}

/** Sends `signal` unless the process has already exited. */
export function signal(worker: WorkerProcess, name: NodeJS.Signals): void {
  if (isRunning(worker)) worker.child.kill(name);
}

export function isRunning(worker: WorkerProcess): boolean {
  return worker.child.exitCode === null && worker.child.signalCode === null;
}

export async function killAll(workers: Iterable<WorkerProcess>): Promise<void> {
  const all = [...workers];
  for (const worker of all) {
    signal(worker, 'SIGCONT');
    signal(worker, 'SIGKILL');
  }
  await Promise.all(all.map((worker) => worker.exited));
}

/** The process state letter of /proc/<pid>/stat: 'T' is stopped by a signal, 'S' sleeping, 'R' running. */
export function processState(pid: number): string {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  // The command name (field 2) is in parentheses and may hold spaces; the state follows it.
  return stat.slice(stat.lastIndexOf(')') + 2, stat.lastIndexOf(')') + 3);
}

/** Waits until the worker has logged `message` (at a level HOOKLINE_LOG_LEVEL lets through). */
export function waitForLog(worker: WorkerProcess, message: string, timeoutMs = 15_000): Promise<true> {
  return waitUntil(() => worker.logged(message) > 0, { timeoutMs, what: `worker ${worker.pid} to log "${message}"` });
}

/**
 * A worker's id is `<hostname>-<pid>-<6 hex digits>` (worker/delivery-worker.ts), so the rows a
 * process leases can be found from its pid alone, even after it was killed.
 */
export const leaseOwnedBy = (pid: number) => `^.*-${pid}-[0-9a-f]{6}$`;

/** Ids of the deliveries leased by the worker process `pid` right now. */
export async function deliveriesLeasedBy(pool: Pool, pid: number): Promise<string[]> {
  const { rows } = await pool.query<{ id: string }>(
    // The view: a first attempt has no row until its outcome (migration 20261206090000_first_attempts_written_once).
    `SELECT id FROM hookline.unfinished_deliveries WHERE state = 'delivering' AND lease_owner ~ $1 ORDER BY id`,
    [leaseOwnedBy(pid)],
  );
  return rows.map((row) => row.id);
}

/** The worker's Prometheus metrics (HOOKLINE_METRICS_PORT), parsed: `name{labels}` -> value. */
export async function scrapeMetrics(port: number): Promise<{ text: string; samples: Map<string, number> }> {
  const response = await fetch(`http://127.0.0.1:${port}/metrics`);
  if (response.status !== 200) throw new Error(`/metrics answered ${response.status}`);
  const text = await response.text();
  const samples = new Map<string, number>();
  for (const line of text.split('\n')) {
    if (line === '' || line.startsWith('#')) continue;
    const match = /^([a-zA-Z_:][a-zA-Z0-9_:]*(?:\{.*\})?) (\S+)$/.exec(line);
    if (!match) throw new Error(`not a Prometheus sample line: ${line}`);
    samples.set(match[1]!, Number(match[2]));
  }
  return { text, samples };
}
