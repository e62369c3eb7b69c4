// `npm start`: everything Hookline needs in one process. The database (DATABASE_URL, or an embedded
// PostgreSQL kept in the data folder), migrations, the dashboard and REST API (Next.js, production
// build), and a delivery worker. `npm run demo` (--demo) also starts a local receiver and a stream
// of sample events.
//
// Stopping is ordered so nothing is lost: Ctrl-C stops claiming, lets in-flight deliveries finish
// (or releases them without spending an attempt), flushes results, closes the web server, and stops
// the embedded PostgreSQL last. A second Ctrl-C forces: in-flight deliveries are released at once.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { resolve } from 'node:path';
// The part of a key the dashboard's key list shows: enough to recognise it, useless to an attacker.
import { SHOWN_PREFIX_LENGTH } from '../lib/domain/api-keys/create-api-key';
import { getPrisma } from '../lib/database/db';
import { ConfigError, loadConfig, type Config } from '../lib/runtime/env';
import { createLogger } from '../lib/runtime/log';
import { MigrationError } from '../lib/database/migrate';
import { answerHealthProbe, checkReadiness, type Readiness } from '../lib/database/health';
import { createPool, type Pool } from '../lib/database/pg';
import { SchemaVersionError } from '../lib/database/schema-version';
import { generatedKeyWarning, getEncryptionKeys } from '../lib/runtime/secret-box';
import { REMOTE_ADDRESS_HEADER } from '../lib/http/remote-address';
import { startWorkerTracing, workerOptionsFromConfig, writeAlertSettings } from '../worker/start-worker';
import { stopTracing, webTracing, type Tracing } from '../lib/runtime/start-tracing';
import { DeliveryWorker } from '../worker/delivery-worker';
import { answerWhileStarting } from './lib/answer-while-starting';
import { ensureDashboardBuild } from './lib/build-dashboard';
import { answerMalformedApiPath, hasMalformedPath, isApiPath, NOT_FOUND_PATH } from './lib/malformed-path';
import { connectDatabase, redactPassword, StartupError, type Database } from './lib/connect-database';
import { ensureCredentials, type Credentials } from './lib/credentials';
import { startDemo, type Demo } from './demo/run-demo';

const ROOT = resolve(import.meta.dirname, '..');
const log = createLogger({ component: 'start' });
const say = (line: string) => process.stdout.write(`${line}\n`);

// npm forwards the terminal's SIGINT to this process, which also receives it directly: two signals
// arrive within a few milliseconds of one Ctrl-C. Only a signal this much later counts as a second one.
const SECOND_SIGNAL_AFTER_MS = 500;
const DRAIN_DEADLINE_MS = 10_000;

interface Running {
  database: Database | null;
  /** One or two connections for /readyz, apart from the dashboard's and the worker's pools. */
  healthPool: Pool | null;
  stopping: boolean;
  server: Server | null;
  worker: DeliveryWorker | null;
  /** The worker's tracing; the web server's is instrumentation.ts's, registered by Next.js. */
  workerTracing: Tracing | null;
  demo: Demo | null;
}

const running: Running = {
  database: null,
  healthPool: null,
  stopping: false,
  server: null,
  worker: null,
  workerTracing: null,
  demo: null,
};

async function main(): Promise<void> {
  const demoMode = process.argv.includes('--demo');
  const config = loadConfig();
  if (demoMode) {
    // The demo receiver listens on 127.0.0.1, which the address policy refuses by default.
    config.HOOKLINE_ALLOW_LOOPBACK = true;
    process.env.HOOKLINE_ALLOW_LOOPBACK = 'true';
  }
  installSignalHandlers(running);

  // Claim the web port before anything slow, so "port in use" is the first thing a user hears; until
  // the dashboard is ready, every request is answered 503 "starting" (scripts/lib/answer-while-starting.ts).
  let handle: ((request: IncomingMessage, response: ServerResponse) => Promise<void>) | null = null;
  const server = createServer((request, response) => {
    // /livez and /readyz (lib/database/health.ts) answer from the first second, also while starting.
    if (answerHealthProbe(request, response, { live: () => null, ready: () => readiness(handle !== null) })) return;
    if (handle) void handle(request, response);
    else answerWhileStarting(request, response);
  });
  await listen(server, config);
  running.server = server;

  running.database = await connectDatabase(config, say);
  const databaseUrl = running.database.url;
  process.env.DATABASE_URL = databaseUrl;
  running.healthPool = createPool(databaseUrl, { max: 2 });
  if (running.database.appliedMigrations.length > 0)
    say(`Applied migrations: ${running.database.appliedMigrations.join(', ')}`);
  // Once a start, here: the web server's handlers read the same key file without a word.
  const keyWarning = generatedKeyWarning(getEncryptionKeys());
  if (keyWarning) log.warn(keyWarning);
  const { sealed } = running.database;
  if (sealed.encrypted || sealed.rewrapped)
    say(
      `Signing secrets encrypted with the current key: ${sealed.encrypted} new, ${sealed.rewrapped} from the previous key`,
    );

  const credentials = await ensureCredentials(config, getPrisma(databaseUrl));

  await ensureDashboardBuild(ROOT, say);
  // Loaded only now: Next.js takes a second to import, and configuration errors should not wait for it.
  const { default: next } = await import('next');
  const dashboard = next({ dev: false, dir: ROOT, hostname: config.HOST, port: config.PORT });
  await dashboard.prepare();
  const dashboardHandler = dashboard.getRequestHandler();

  await writeAlertSettings(config, databaseUrl);
  running.workerTracing = await startWorkerTracing(config, log);
  running.worker = new DeliveryWorker({
    ...workerOptionsFromConfig(config, databaseUrl),
    log,
    tracerProvider: running.workerTracing?.tracerProvider ?? null,
  });
  await running.worker.start();

  if (demoMode) running.demo = await startDemo(databaseUrl);
  handle = async (request, response) => {
    // Any client can send these; only a proxy Hookline is told to trust (HOOKLINE_TRUST_PROXY) may
    // say the browser used https (the session cookie's Secure flag) or which host it asked for.
    if (!config.HOOKLINE_TRUST_PROXY) {
      for (const name of ['x-forwarded-proto', 'x-forwarded-host', 'x-forwarded-port', 'forwarded'])
        delete request.headers[name];
    }
    // The client's address for the audit log (lib/http/remote-address.ts); never the client's own word.
    request.headers[REMOTE_ADDRESS_HEADER] = request.socket.remoteAddress ?? '';
    if (hasMalformedPath(request.url)) {
      if (isApiPath(request.url)) return answerMalformedApiPath(request, response);
      request.url = NOT_FOUND_PATH;
    }
    await dashboardHandler(request, response);
  };
  printBanner(config, running.database, credentials, running.demo);
}

async function readiness(started: boolean): Promise<Readiness> {
  const notYet = (process: string): Readiness => ({ ready: false, database: { ok: true }, schema: null, process });
  if (running.stopping) return notYet('stopping');
  if (!started || !running.healthPool) return notYet('starting');
  return checkReadiness(running.healthPool);
}

function listen(server: Server, config: Config): Promise<void> {
  return new Promise((resolvePromise, reject) => {
    server.once('error', (error: NodeJS.ErrnoException) => {
      if (error.code === 'EADDRINUSE') {
        reject(
          new StartupError(
            `PORT ${config.PORT} on ${config.HOST} is already in use. Stop what listens there, or set PORT to a free port.`,
          ),
        );
      } else if (error.code === 'EACCES') {
        reject(new StartupError(`Not allowed to listen on ${config.HOST}:${config.PORT}; choose a PORT above 1024.`));
      } else reject(error);
    });
    server.listen(config.PORT, config.HOST, () => resolvePromise());
  });
}

// The banner goes to stdout, which is also the log stream (JSON lines that get shipped and kept), so
// it never holds a secret: it says where the admin password, the API key and the database password
// are. Only an interactive terminal is shown newly generated secrets, once, on the start that made them.
function printBanner(config: Config, database: Database, credentials: Credentials, demo: Demo | null): void {
  const host = config.HOST === '0.0.0.0' || config.HOST === '::' ? '127.0.0.1' : config.HOST;
  const url = `http://${host.includes(':') ? `[${host}]` : host}:${config.PORT}`;
  const file = shellQuote(credentials.file);
  const lines = [
    '',
    `Hookline is running: ${url}`,
    '',
    `  Credentials         ${credentials.file} (mode 0600)`,
    `  Dashboard sign-in   ${credentials.adminEmail}, password ` +
      (credentials.adminPasswordSource === 'generated' ? 'in the credentials file' : 'from HOOKLINE_ADMIN_PASSWORD'),
    `  API key             ${credentials.apiKey.slice(0, SHOWN_PREFIX_LENGTH)}… in the credentials file${credentials.apiKeyCreated ? '  (new)' : ''}`,
    `  Try it              export HOOKLINE_API_KEY="$(node -p 'require(process.argv[1]).apiKey' ${file})"`,
    `                      curl -H "Authorization: Bearer $HOOKLINE_API_KEY" ${url}/api/v1/apps`,
  ];
  if (database.embedded) {
    const { passwordFile, dataDir } = database.embedded;
    const connection = withoutPassword(database.url);
    lines.push(
      `  Database            ${connection}  (embedded PostgreSQL; password in ${passwordFile})`,
      `                      PGPASSWORD="$(cat ${shellQuote(passwordFile)})" psql ${connection}`,
      `  Data                ${dataDir}`,
    );
  } else {
    lines.push(`  Database            ${redactPassword(database.url)}`);
  }
  const keys = getEncryptionKeys();
  lines.push(
    `  Schema              ${database.schemaVersion}`,
    `  Secrets at rest     encrypted, key ${keys.current.id} ` +
      (keys.source === 'HOOKLINE_ENCRYPTION_KEY'
        ? 'from HOOKLINE_ENCRYPTION_KEY'
        : `generated in ${keys.file} (set HOOKLINE_ENCRYPTION_KEY in production)`),
    `  Health              ${url}/livez, ${url}/readyz`,
  );
  lines.push(
    `  Worker              concurrency ${config.HOOKLINE_WORKER_CONCURRENCY}, loopback targets ${config.HOOKLINE_ALLOW_LOOPBACK ? 'allowed' : 'refused'}`,
  );
  if (demo) lines.push(`  Demo                receiver at ${demo.receiver.url}, events flowing into app ${demo.appId}`);
  if (process.stdout.isTTY && (credentials.adminPasswordCreated || credentials.apiKeyCreated)) {
    lines.push('', '  New this start, shown here once (they stay in the credentials file):');
    if (credentials.adminPasswordCreated) lines.push(`    admin password    ${credentials.adminPassword}`);
    if (credentials.apiKeyCreated) lines.push(`    API key           ${credentials.apiKey}`);
  }
  lines.push('', 'Press Ctrl-C to stop.', '');
  say(lines.join('\n'));
}

function withoutPassword(url: string): string {
  const parsed = new URL(url);
  parsed.password = '';
  return parsed.toString();
}

function shellQuote(text: string): string {
  return /^[\w@%+=:,./-]+$/.test(text) ? text : `'${text.replace(/'/g, `'\\''`)}'`;
}

function installSignalHandlers(running: Running): void {
  let firstSignalAt = 0;
  let stopping: Promise<void> | null = null;
  const onSignal = (signal: NodeJS.Signals) => {
    const now = Date.now();
    if (stopping) {
      if (now - firstSignalAt < SECOND_SIGNAL_AFTER_MS) return;
      say('Second signal: releasing in-flight deliveries and stopping now.');
      void running.worker?.stop({ force: true });
      return;
    }
    firstSignalAt = now;
    say(`\n${signal}: stopping (in-flight deliveries finish or are released; Ctrl-C again to force)…`);
    stopping = shutdown(running).then(
      (exitCode) => process.exit(exitCode),
      (error: unknown) => {
        log.error('error while stopping', { error });
        process.exit(1);
      },
    );
  };
  process.on('SIGINT', onSignal);
  process.on('SIGTERM', onSignal);
}

/** Stops everything; resolves with the exit code: 1 when the worker could not write every result. */
async function shutdown(running: Running): Promise<number> {
  running.stopping = true;
  await running.demo?.stop();
  const stopped = await running.worker?.stop({ deadlineMs: DRAIN_DEADLINE_MS });
  await stopTracing(running.workerTracing);
  if (running.server) {
    const server = running.server;
    const closed = new Promise<void>((resolvePromise) => server.close(() => resolvePromise()));
    server.closeIdleConnections();
    // Open dashboard tabs hold keep-alive connections; give running requests a moment, then cut them.
    setTimeout(() => server.closeAllConnections(), 2000).unref();
    await closed;
  }
  await stopTracing(webTracing());
  await running.healthPool?.end().catch(() => {});
  if (running.database) {
    await getPrisma(running.database.url)
      .$disconnect()
      .catch(() => {});
    await running.database.embedded?.stop();
  }
  return stopped && stopped.unwritten > 0 ? 1 : 0;
}

main().catch(async (error: unknown) => {
  // Leave nothing behind: an embedded PostgreSQL started before the failure is stopped.
  await shutdown(running).catch(() => {});
  if (
    error instanceof ConfigError ||
    error instanceof StartupError ||
    error instanceof MigrationError ||
    error instanceof SchemaVersionError
  ) {
    process.stderr.write(`\nHookline did not start.\n${error.message}\n\n`);
  } else {
    process.stderr.write(`\nHookline did not start: ${(error as Error)?.stack ?? String(error)}\n\n`);
  }
  process.exit(1);
});
