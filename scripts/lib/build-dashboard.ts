// `npm start` serves the production build of the dashboard. It builds it when there is none or when
// the sources changed since the last build, so a fresh clone needs no separate build step and a
// `git pull` never serves stale pages. A build takes about a minute on a 2-core machine; later
// starts skip it.
import { spawn } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';

const SOURCES = ['app', 'components', 'lib', 'public', 'next.config.ts', 'postcss.config.mjs', 'package-lock.json'];
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

export async function buildDashboard(root: string): Promise<void> {
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
