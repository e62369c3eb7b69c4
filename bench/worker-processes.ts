// Delivery workers as child processes, started the way an operator starts them (worker/main.ts with
// DATABASE_URL and HOOKLINE_ALLOW_LOOPBACK=true), so their CPU time and peak RSS are their own and
// not mixed with the receiver's. `node --import tsx` rather than the tsx CLI: one process per worker,
// whose /proc entry is the worker itself.
import { spawn, type ChildProcess } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import { resolve } from 'node:path';

const ROOT = resolve(import.meta.dirname, '..');
// /proc/<pid>/stat counts CPU time in clock ticks; Linux's USER_HZ is 100 on every common build.
const TICKS_PER_SECOND = 100;

export interface WorkerProcessOptions {
  databaseUrl: string;
  count: number;
  env?: Record<string, string>;
  /** Folder for `node --cpu-prof` output; no profiling when unset. */
  cpuProfileDir?: string;
  /**
   * The program to run instead of worker/main.ts (a peer's worker, bench/graphile-worker-process.ts);
   * it prints a line with "msg":"worker started" when it is ready, and stops on SIGTERM.
   */
  script?: string;
}

export interface WorkerUsage {
  cpuSeconds: number;
  peakRssMb: number;
}

export interface WorkerProcesses {
  pids: number[];
  /** CPU seconds and peak RSS of each worker, read from /proc while they still run. */
  usage(): Promise<WorkerUsage[]>;
  stop(): Promise<void>;
}

export async function startWorkerProcesses(options: WorkerProcessOptions): Promise<WorkerProcesses> {
  const children = await Promise.all(Array.from({ length: options.count }, () => startOne(options)));
  return {
    pids: children.map((child) => child.pid!),
    usage: () => Promise.all(children.map((child) => processUsage(child.pid!))),
    async stop() {
      await Promise.all(
        children.map(
          (child) =>
            new Promise<void>((resolvePromise) => {
              if (child.exitCode !== null) return resolvePromise();
              const force = setTimeout(() => child.kill('SIGKILL'), 30_000);
              child.once('exit', () => {
                clearTimeout(force);
                resolvePromise();
              });
              child.kill('SIGTERM');
            }),
        ),
      );
    },
  };
}

function startOne(options: WorkerProcessOptions): Promise<ChildProcess> {
  const profile = options.cpuProfileDir ? ['--cpu-prof', `--cpu-prof-dir=${options.cpuProfileDir}`] : [];
  const child = spawn(process.execPath, [...profile, '--import', 'tsx', options.script ?? 'worker/main.ts'], {
    cwd: ROOT,
    env: {
      ...process.env,
      DATABASE_URL: options.databaseUrl,
      HOOKLINE_ALLOW_LOOPBACK: 'true',
      HOOKLINE_LOG_LEVEL: 'info',
      // Only one worker could listen on the default metrics port; none does, so all are alike.
      HOOKLINE_METRICS_PORT: '0',
      ...options.env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const output: string[] = [];
  return new Promise((resolvePromise, reject) => {
    const timer = setTimeout(() => fail(new Error('the worker did not start within 30 s')), 30_000);
    const fail = (error: Error) => {
      clearTimeout(timer);
      child.kill('SIGKILL');
      reject(new Error(`${error.message}\n${output.slice(-20).join('')}`));
    };
    const onOutput = (chunk: Buffer) => {
      const text = chunk.toString('utf8');
      output.push(text);
      if (output.length > 50) output.shift();
      // Warnings and errors while benchmarking are results too: show them.
      for (const line of text.split('\n')) {
        if (/"level":"(warn|error)"/.test(line)) process.stderr.write(`worker ${child.pid}: ${line}\n`);
      }
      if (text.includes('"msg":"worker started"')) {
        clearTimeout(timer);
        resolvePromise(child);
      }
    };
    child.stdout!.on('data', onOutput);
    child.stderr!.on('data', onOutput);
    child.once('exit', (code) => fail(new Error(`the worker exited with code ${code} before it started`)));
  });
}

async function processUsage(pid: number): Promise<WorkerUsage> {
  const [stat, status] = await Promise.all([
    readFile(`/proc/${pid}/stat`, 'utf8').catch(() => ''),
    readFile(`/proc/${pid}/status`, 'utf8').catch(() => ''),
  ]);
  // Fields after the parenthesised command name; utime and stime are the 14th and 15th fields.
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  const ticks = Number(fields[11] ?? 0) + Number(fields[12] ?? 0);
  const peakKb = Number(/VmHWM:\s+(\d+)/.exec(status)?.[1] ?? 0);
  return { cpuSeconds: ticks / TICKS_PER_SECOND, peakRssMb: Math.round(peakKb / 102.4) / 10 };
}

/**
 * CPU seconds Postgres has used so far: the postmaster's own and its finished children's (it waits
 * for every backend, so their time lands in cutime/cstime), plus its children still running.
 */
export async function postgresCpuSeconds(postmasterPid: number): Promise<number> {
  const own = await readFile(`/proc/${postmasterPid}/stat`, 'utf8').catch(() => '');
  const fields = own.slice(own.lastIndexOf(')') + 2).split(' ');
  let ticks = [11, 12, 13, 14].reduce((sum, index) => sum + Number(fields[index] ?? 0), 0);
  const children = await readFile(`/proc/${postmasterPid}/task/${postmasterPid}/children`, 'utf8').catch(() => '');
  for (const child of children.trim().split(/\s+/).filter(Boolean)) {
    const stat = await readFile(`/proc/${child}/stat`, 'utf8').catch(() => '');
    const childFields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    ticks += Number(childFields[11] ?? 0) + Number(childFields[12] ?? 0);
  }
  return ticks / TICKS_PER_SECOND;
}
