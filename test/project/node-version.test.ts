// The README promises a Node.js version and package.json's `engines` states it; every installed
// package must run on it. The one exception is named here and in the README, with why it is harmless:
// npm ci prints an EBADENGINE warning for it, and a newcomer deserves to know what that warning means.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

const root = resolve(import.meta.dirname, '../..');
const semver = createRequire(import.meta.url)('semver') as {
  satisfies(version: string, range: string): boolean;
  minVersion(range: string): { version: string } | null;
};

// The Prisma CLI (a dev dependency, used only for `prisma generate`) installs @prisma/dev for its
// `prisma dev` command (a local Prisma Postgres), and @prisma/dev needs @prisma/streams-local, which
// wants Node 22 (every published version). Hookline never runs `prisma dev`.
const UNUSED_BY_HOOKLINE = ['@prisma/streams-local'];

// What `npm ci` installs: the lock file's packages, by path. A package installed beside them with
// `npm install --no-save` (the benchmark's optional graphile-worker peer, bench/README.md, declares
// Node 22 and runs on 20) is the machine's, not the project's.
const locked = new Set(
  Object.keys(
    (JSON.parse(readFileSync(join(root, 'package-lock.json'), 'utf8')) as { packages: Record<string, unknown> })
      .packages,
  ),
);

function installedPackages(folder: string, found: { name: string; node: string }[] = []) {
  for (const entry of readdirSync(folder, { withFileTypes: true })) {
    if (!entry.isDirectory() || entry.name.startsWith('.')) continue;
    const path = join(folder, entry.name);
    if (entry.name.startsWith('@')) {
      installedPackages(path, found);
      continue;
    }
    const manifest = join(path, 'package.json');
    if (!locked.has(relative(root, path))) continue;
    if (existsSync(manifest)) {
      const { name, engines } = JSON.parse(readFileSync(manifest, 'utf8')) as {
        name: string;
        engines?: { node?: string };
      };
      if (engines?.node) found.push({ name, node: engines.node });
    }
    if (existsSync(join(path, 'node_modules'))) installedPackages(join(path, 'node_modules'), found);
  }
  return found;
}

describe('the promised Node.js version', () => {
  const { engines } = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { engines: { node: string } };
  const promised = semver.minVersion(engines.node)!.version;

  it('is the one the README gives', () => {
    const readme = readFileSync(join(root, 'README.md'), 'utf8');
    const [major, minor] = promised.split('.');
    expect(readme).toContain(`Node.js ${major}.${minor} or newer`);
  });

  it('runs every package npm ci installs except the one the README names as unused', () => {
    const refusing = installedPackages(join(root, 'node_modules'))
      .filter((pkg) => !semver.satisfies(promised, pkg.node))
      .map((pkg) => `${pkg.name} (node ${pkg.node})`);
    expect(refusing.map((entry) => entry.split(' ')[0])).toEqual(expect.arrayContaining(UNUSED_BY_HOOKLINE));
    expect(refusing.filter((entry) => !UNUSED_BY_HOOKLINE.some((name) => entry.startsWith(`${name} `)))).toEqual([]);
    const readme = readFileSync(join(root, 'README.md'), 'utf8');
    for (const name of UNUSED_BY_HOOKLINE) expect(readme).toContain(name);
  });

  it('is met by the Node.js running these tests', () => {
    expect(semver.satisfies(process.versions.node, engines.node)).toBe(true);
  });
});
