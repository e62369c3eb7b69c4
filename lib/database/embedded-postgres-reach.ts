// PostgreSQL refuses to run as root, so as root Hookline runs the embedded server as the system user
// `postgres`. That user must be able to reach the binaries and the data folder, and a checkout in a
// private folder (`/root/hookline`: /root is 0700 on most VMs and containers) gives it neither: every
// path below /root is out of its reach, and initdb fails before printing a word.
//
// The ways out, and why this one: opening the private folder (`chmod o+x /root`) would let every
// local user into every world-readable file below it; an ACL for `postgres` alone is narrower, but it
// changes a system folder's permissions behind the operator's back, and `setfacl` is missing from
// slim images. Instead, only what the server itself needs moves to a root-owned folder it can reach,
// `/var/lib/hookline` (0755, like /var/lib/postgresql): a copy of the binaries (61 MB, once per
// version, root-owned and read-only to `postgres`) and the cluster (owned by `postgres`, 0700, as
// initdb makes it), linked from the data folder so it is found there. Nothing else changes mode.
import { execFile } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { chmod, cp, lstat, mkdir, readFile, readlink, rename, rm, stat, symlink, writeFile } from 'node:fs/promises';
import { dirname, join, parse, resolve } from 'node:path';

export interface RunAs {
  uid?: number;
  gid?: number;
}

export interface Binaries {
  initdb: string;
  pg_ctl: string;
  postgres: string;
}

export const DEFAULT_RUNTIME_DIR = '/var/lib/hookline';

/** True when `runAs` can search `folder` (and so every folder above it). */
export function canReach(folder: string, runAs: RunAs): Promise<boolean> {
  return new Promise((resolvePromise) => {
    execFile('test', ['-x', folder], { ...runAs }, (error) => resolvePromise(!error));
  });
}

/** The first folder on the way to `path` that `runAs` cannot search, or null. */
export async function firstBlockedFolder(path: string, runAs: RunAs): Promise<string | null> {
  const { root } = parse(path);
  let folder = root;
  for (const part of path.slice(root.length).split('/').filter(Boolean)) {
    folder = join(folder, part);
    if (!existsSync(folder)) return null;
    if (!(await canReach(folder, runAs))) return folder;
  }
  return null;
}

/**
 * The runtime folder, created root-owned and 0755. An existing one that another user owns, or that
 * others may write to, is refused: root copies binaries there that it then has `postgres` run.
 */
async function ensureRuntimeDir(runtimeDir: string): Promise<void> {
  await mkdir(runtimeDir, { recursive: true, mode: 0o755 });
  const info = await stat(runtimeDir);
  if (info.uid !== 0 || (info.mode & 0o022) !== 0) {
    throw new Error(
      `${runtimeDir} must be owned by root and writable only by root (it is uid ${info.uid}, mode ` +
        `${(info.mode & 0o777).toString(8)}): the embedded PostgreSQL's binaries are copied there. ` +
        `Fix it with: chown root:root ${runtimeDir} && chmod 755 ${runtimeDir}`,
    );
  }
}

/**
 * Binaries `runAs` can run: the package's own when it can reach them, otherwise a copy under
 * `runtimeDir`, made once per package version (copied aside, then renamed, so two starts at once
 * cannot see half a copy).
 */
export async function reachableBinaries(binaries: Binaries, runAs: RunAs, runtimeDir: string): Promise<Binaries> {
  const binDir = dirname(binaries.postgres);
  if (runAs.uid === undefined || (await canReach(binDir, runAs))) return binaries;
  const nativeDir = dirname(binDir);
  const manifest = join(dirname(nativeDir), 'package.json');
  const { name, version } = JSON.parse(await readFile(manifest, 'utf8')) as { name: string; version: string };
  await ensureRuntimeDir(runtimeDir);
  const target = join(runtimeDir, `${name.replace(/[@/]/g, '-').replace(/^-/, '')}-${version}`);
  if (!existsSync(join(target, 'bin', 'postgres'))) {
    const partial = `${target}.partial-${randomBytes(4).toString('hex')}`;
    await cp(nativeDir, partial, { recursive: true, verbatimSymlinks: true });
    await chmod(partial, 0o755);
    await rename(partial, target).catch(async (error: NodeJS.ErrnoException) => {
      await rm(partial, { recursive: true, force: true });
      // Another start renamed its copy first: use that one.
      if (!existsSync(join(target, 'bin', 'postgres'))) throw error;
    });
  }
  const copied = {
    initdb: join(target, 'bin', 'initdb'),
    pg_ctl: join(target, 'bin', 'pg_ctl'),
    postgres: join(target, 'bin', 'postgres'),
  };
  if (!(await canReach(join(target, 'bin'), runAs))) {
    throw new Error(
      `The embedded PostgreSQL's binaries were copied to ${target}, but the postgres user still cannot reach them.`,
    );
  }
  return copied;
}

export interface ReachableDataDir {
  /** Where the cluster really is (what pg_ctl is given). */
  dataDir: string;
  /** Set when the cluster lives under the runtime folder, linked from the requested data folder. */
  linkedFrom: string | null;
  /** The folder that kept the postgres user out of the requested one, when it was moved. */
  blockedBy: string | null;
}

/**
 * A data folder `runAs` can reach. The requested one when it can; otherwise a folder under
 * `runtimeDir`, named after the requested path (so the same checkout finds its cluster again even if
 * the link is removed), with a symlink at the requested path and a note saying whose it is.
 */
export async function reachableDataDir(requested: string, runAs: RunAs, runtimeDir: string): Promise<ReachableDataDir> {
  const dataDir = resolve(requested);
  if (runAs.uid === undefined) return { dataDir, linkedFrom: null, blockedBy: null };
  const link = await lstat(dataDir).catch(() => null);
  if (link?.isSymbolicLink()) {
    // The link's target may be gone (its cluster removed by hand): initialise a new one there.
    const target = resolve(dirname(dataDir), await readlink(dataDir));
    await mkdir(dirname(target), { recursive: true, mode: 0o755 });
    return { dataDir: target, linkedFrom: dataDir, blockedBy: await firstBlockedFolder(dirname(dataDir), runAs) };
  }

  // The folder holding the cluster is Hookline's data folder (`.data`, 0700 when mkdtemp made it):
  // the postgres user gets traversal of it only (o+x, no listing; credentials.json beside the cluster
  // is 0600). Folders above it are not Hookline's to open.
  const parent = dirname(dataDir);
  await mkdir(parent, { recursive: true });
  if (!(await canReach(parent, runAs)) && (await canReach(dirname(parent), runAs))) {
    await chmod(parent, ((await stat(parent)).mode & 0o777) | 0o001);
  }
  if (await canReach(parent, runAs)) return { dataDir, linkedFrom: null, blockedBy: null };
  const blocked = await firstBlockedFolder(parent, runAs);
  if (link) {
    // A cluster already initialised here (its folder was reachable once, or was made by hand):
    // moving it behind the operator's back is not ours to do.
    throw new Error(
      `The embedded PostgreSQL runs as the system user postgres (PostgreSQL refuses root), which cannot reach ` +
        `${dataDir}: ${blocked ?? parent} is closed to it. Move the data folder somewhere it can reach and set ` +
        `HOOKLINE_DATA_DIR there, or grant that user traversal only: setfacl -m u:postgres:x ${blocked ?? parent}`,
    );
  }
  await ensureRuntimeDir(runtimeDir);
  const id = createHash('sha256').update(dataDir).digest('hex').slice(0, 16);
  const home = join(runtimeDir, 'clusters', id);
  await mkdir(home, { recursive: true, mode: 0o755 });
  await writeFile(join(home, 'ORIGIN'), `Embedded PostgreSQL of the Hookline data folder ${dataDir}\n`);
  const target = join(home, 'postgres');
  await symlink(target, dataDir);
  return { dataDir: target, linkedFrom: dataDir, blockedBy: blocked };
}
