// Starts the machine's Debian PostgreSQL 15 (/usr/lib/postgresql/15/bin) for
// `npm run bench -- --database-url=...`, with the same settings as the embedded benchmark server
// (BENCH_POSTGRES_SETTINGS: durable, same buffers and WAL size), so the two versions are compared
// on equal terms. Data lives in a new folder under /tmp; the server listens on 127.0.0.1 only, with a
// random password. As root, initdb and pg_ctl run as the `postgres` OS user (PostgreSQL refuses root).
//
//   npx tsx bench/start-debian-postgres.ts --port=5415      prints the URL to pass to --database-url
//   npx tsx bench/start-debian-postgres.ts --port=5416 --locale=en_US.UTF-8
//       the collation most servers are created with (Debian's initdb takes it from LANG; managed
//       services default to it): text keys then compare through strcoll, not byte by byte
//   npx tsx bench/start-debian-postgres.ts --stop=/tmp/hookline-bench-pg15-XXXXXX
import { execFile, execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { appendFile, chmod, chown, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { BENCH_POSTGRES_SETTINGS } from './bench-database';

const VERSION = process.env.HOOKLINE_DEBIAN_PG_VERSION ?? '15';
const BIN = `/usr/lib/postgresql/${VERSION}/bin`;
const LIB = `/usr/lib/postgresql/${VERSION}/lib`;
const USER = 'postgres';

interface RunAs {
  uid?: number;
  gid?: number;
}

function runAsPostgres(): RunAs {
  if (process.getuid?.() !== 0) return {};
  try {
    return {
      uid: Number(execFileSync('id', ['-u', USER], { encoding: 'utf8' }).trim()),
      gid: Number(execFileSync('id', ['-g', USER], { encoding: 'utf8' }).trim()),
    };
  } catch {
    throw new Error(
      `running as root needs a "${USER}" OS user to run PostgreSQL as (apt-get install postgresql-${VERSION} creates it)`,
    );
  }
}

function run(binary: string, args: string[], runAs: RunAs): Promise<void> {
  return new Promise((resolve, reject) => {
    execFile(join(BIN, binary), args, { ...runAs, env: { ...process.env, LC_ALL: 'C' } }, (error, _stdout, stderr) => {
      if (error) reject(new Error(`${binary} ${args.join(' ')} failed:\n${stderr.trim() || error.message}`));
      else resolve();
    });
  });
}

/** The benchmark's settings as postgresql.conf lines; pg_stat_statements only if this build ships it. */
function configuration(port: number, dataDir: string): { lines: string; notes: string[] } {
  const settings: Record<string, string> = { ...BENCH_POSTGRES_SETTINGS };
  const notes: string[] = [];
  if (!existsSync(join(LIB, 'pg_stat_statements.so'))) {
    delete settings.shared_preload_libraries;
    delete settings['pg_stat_statements.track'];
    notes.push(`pg_stat_statements is not in ${LIB}: --profile will show no statement table`);
  }
  // Debian's build puts sockets in /var/run/postgresql, which may not exist or be writable here.
  Object.assign(settings, { port: String(port), listen_addresses: '127.0.0.1', unix_socket_directories: dataDir });
  const lines = Object.entries(settings)
    .map(([name, value]) => `${name} = '${value.replace(/'/g, "''")}'`)
    .join('\n');
  return { lines: `\n# npm run bench: bench/start-debian-postgres.ts\n${lines}\n`, notes };
}

async function start(port: number, locale: string): Promise<void> {
  if (!existsSync(join(BIN, 'pg_ctl'))) {
    throw new Error(`${BIN}/pg_ctl not found: install the server with apt-get install postgresql-${VERSION}`);
  }
  const runAs = runAsPostgres();
  const folder = await mkdtemp(`/tmp/hookline-bench-pg${VERSION}-`);
  const dataDir = join(folder, 'pg');
  const password = randomBytes(12).toString('hex');
  const passwordFile = join(folder, 'password');
  await writeFile(passwordFile, `${password}\n`, { mode: 0o600 });
  if (runAs.uid !== undefined) {
    await chmod(folder, 0o755);
    await chown(folder, runAs.uid, runAs.gid!);
    await chown(passwordFile, runAs.uid, runAs.gid!);
  }
  await run(
    'initdb',
    [
      `--pgdata=${dataDir}`,
      `--username=${USER}`,
      `--pwfile=${passwordFile}`,
      '--auth=scram-sha-256',
      '--encoding=UTF8',
      `--locale=${locale}`,
      '--no-sync',
    ],
    runAs,
  );
  await rm(passwordFile);
  const { lines, notes } = configuration(port, dataDir);
  await appendFile(join(dataDir, 'postgresql.conf'), lines);
  await run('pg_ctl', ['start', '-D', dataDir, '-w', '-t', '60', '-l', join(dataDir, 'server.log')], runAs);
  for (const note of notes) console.error(`note: ${note}`);
  console.log(`PostgreSQL ${VERSION} (locale ${locale}) is running on 127.0.0.1:${port}, data in ${dataDir}`);
  console.log(`\n  npm run bench -- --database-url=postgresql://${USER}:${password}@127.0.0.1:${port}/postgres\n`);
  console.log(`Stop it and remove its data with: npx tsx bench/start-debian-postgres.ts --stop=${folder}`);
}

async function stop(folder: string): Promise<void> {
  const dataDir = join(folder, 'pg');
  if (!folder.startsWith('/tmp/hookline-bench-pg') || !existsSync(join(dataDir, 'PG_VERSION'))) {
    throw new Error(
      `--stop expects a folder this script printed (/tmp/hookline-bench-pg${VERSION}-...), got "${folder}"`,
    );
  }
  await run('pg_ctl', ['stop', '-D', dataDir, '-m', 'fast', '-w', '-t', '60'], runAsPostgres());
  await rm(folder, { recursive: true, force: true });
  console.log(`Stopped the server in ${dataDir} and removed ${folder}`);
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: { port: { type: 'string' }, stop: { type: 'string' }, locale: { type: 'string' } },
  });
  if (values.stop) return stop(values.stop);
  const port = Number(values.port ?? 5415);
  if (!Number.isInteger(port) || port < 1024 || port > 65535) {
    throw new Error(`--port must be a port number from 1024 to 65535, got "${values.port}"`);
  }
  const locale = values.locale ?? 'C';
  const installed = execFileSync('locale', ['-a'], { encoding: 'utf8' }).split('\n');
  const normalized = (name: string) => name.toLowerCase().replace(/[-_.]/g, '');
  if (!installed.some((name) => normalized(name) === normalized(locale))) {
    throw new Error(
      `--locale=${locale} is not installed here (locale -a lists ${installed.filter(Boolean).join(', ')}); ` +
        'on Debian: apt-get install locales, add it to /etc/locale.gen, run locale-gen',
    );
  }
  await start(port, locale);
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
