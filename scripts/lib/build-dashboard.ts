// `npm start` serves the production build of the dashboard. Run from the sources (tsx), it builds it
// when there is none or when the sources changed since the last build, so a fresh clone needs no
// separate build step and a `git pull` never serves stale pages. A build takes about a minute on a
// 2-core machine; later starts skip it. Run compiled (dist/start.js, after `npm run build`), it never
// builds: it serves the build that `npm run build` made, or stops saying that there is none.
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { StartupError } from './connect-database';

// True in dist/start.js (bundled by scripts/lib/build-server.ts), false when tsx runs this file.
const COMPILED = !import.meta.url.endsWith('.ts');

const SOURCES = [
  'app',
  'components',
  'lib',
  'public',
  'proxy.ts',
  'instrumentation.ts',
  'next.config.ts',
  'postcss.config.mjs',
  'package-lock.json',
];
const SKIPPED = new Set(['node_modules', '.next', 'generated']);

function newestMtime(path: string): number {
  if (!existsSync(path)) return 0;
  const stat = statSync(path);
  if (!stat.isDirectory()) return stat.mtimeMs;
  let newest = stat.mtimeMs;
  for (const entry of readdirSync(path)) {
    if (!SKIPPED.has(entry)) newest = Math.max(newest, newestMtime(join(path, entry)));
  }
  return newest;
}

export function dashboardBuildIsCurrent(root: string): boolean {
  const buildId = join(root, '.next', 'BUILD_ID');
  if (!existsSync(buildId)) return false;
  const builtAt = statSync(buildId).mtimeMs;
  return SOURCES.every((source) => newestMtime(join(root, source)) <= builtAt);
}

/**
 * Builds the dashboard unless it is current. Two starts at once (two terminals, or a test run beside a
 * running server) would otherwise both write `.next` and leave a broken build: the first one takes a
 * lock directory holding its pid, the others wait for it and then find the build current.
 */
export async function ensureDashboardBuild(
  root: string,
  say: (line: string) => void,
  { force = false }: { force?: boolean } = {},
): Promise<void> {
  if (COMPILED) return usePrebuiltDashboard(root, say);
  if (!force && dashboardBuildIsCurrent(root)) return;
  const lock = join(root, '.next-build-lock');
  let waiting = false;
  while (!tryLock(lock)) {
    if (!waiting) say('Waiting for another process building the dashboard…');
    waiting = true;
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
  try {
    if (!force && dashboardBuildIsCurrent(root)) return;
    say('Building the dashboard (next build; about a minute, and only after the code changed)…');
    await buildDashboard(root);
  } finally {
    rmSync(lock, { recursive: true, force: true });
  }
}

function tryLock(lock: string): boolean {
  try {
    mkdirSync(lock);
    writeFileSync(join(lock, 'pid'), String(process.pid));
    return true;
  } catch {
    // A lock left by a process that died (kill -9 mid-build) is taken over rather than waited on forever.
    let holder: number;
    try {
      holder = Number(readFileSync(join(lock, 'pid'), 'utf8'));
    } catch {
      return false; // created a moment ago, pid not written yet
    }
    if (Number.isInteger(holder) && !isAlive(holder)) rmSync(lock, { recursive: true, force: true });
    return false;
  }
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

async function buildDashboard(root: string): Promise<void> {
  const nextBin = createRequire(join(root, 'package.json')).resolve('next/dist/bin/next');
  await new Promise<void>((resolve, reject) => {
    const child = spawn(process.execPath, [nextBin, 'build'], {
      cwd: root,
      stdio: ['ignore', 'inherit', 'inherit'],
      env: { ...process.env, NEXT_TELEMETRY_DISABLED: '1' },
    });
    child.once('error', reject);
    child.once('exit', (code, signal) =>
      code === 0 ? resolve() : reject(new Error(`next build failed (${signal ?? `exit code ${code}`})`)),
    );
  });
}

/**
 * The compiled start: the dashboard must have been built by `npm run build`. Next.js is handed the
 * configuration that build resolved (.next/required-server-files.json, as Next's own standalone
 * server does), so next.config.ts is not transpiled at every start either.
 */
function usePrebuiltDashboard(root: string, say: (line: string) => void): void {
  const requiredFiles = join(root, '.next', 'required-server-files.json');
  if (!existsSync(join(root, '.next', 'BUILD_ID')) || !existsSync(requiredFiles)) {
    throw new StartupError(
      `No dashboard build in ${join(root, '.next')}. dist/ holds a compiled start script, which serves the dashboard ` +
        'that `npm run build` builds and never builds it itself: run `npm run build`, or delete dist/ to run from the sources.',
    );
  }
  if (!dashboardBuildIsCurrent(root)) {
    say('Note: the dashboard build in .next is older than its sources; `npm run build` brings it up to date.');
  }
  const { config } = JSON.parse(readFileSync(requiredFiles, 'utf8')) as { config: unknown };
  process.env.__NEXT_PRIVATE_STANDALONE_CONFIG = JSON.stringify(config);
}
