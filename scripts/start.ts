// `npm start`: everything Hookline needs in one process. The database (DATABASE_URL, or an embedded
// PostgreSQL kept in the data folder), migrations, the dashboard and REST API (Next.js, production
// build), and a delivery worker. `npm run demo` (--demo) also starts a local receiver and a stream
// of sample events.
//
// Stopping is ordered so nothing is lost: Ctrl-C stops claiming, lets in-flight deliveries finish
// (or releases them without spending an attempt), flushes results, closes the web server, and stops
// the embedded PostgreSQL last. A second Ctrl-C forces: in-flight deliveries are released at once.
import { createServer, type Server } from 'node:http';
import { resolve } from 'node:path';
import { getPrisma } from '../lib/db';
import { ConfigError, loadConfig, type Config } from '../lib/env';
import { createLogger } from '../lib/log';
import { MigrationError } from '../lib/migrate';
import { workerOptionsFromConfig } from '../worker/config';
import { DeliveryWorker } from '../worker/delivery-worker';
import { ensureDashboardBuild } from './lib/build-dashboard';
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
  server: Server | null;
  worker: DeliveryWorker | null;
  demo: Demo | null;
}

const running: Running = { database: null, server: null, worker: null, demo: null };

async function main(): Promise<void> {
  const demoMode = process.argv.includes('--demo');
  const config = loadConfig();
  if (demoMode) {
    // The demo receiver listens on 127.0.0.1, which the address policy refuses by default.
    config.HOOKLINE_ALLOW_LOOPBACK = true;
    process.env.HOOKLINE_ALLOW_LOOPBACK = 'true';
  }
  installSignalHandlers(running);

  // Claim the web port before anything slow, so "port in use" is the first thing a user hears.
  const server = createServer();
  await listen(server, config);
  running.server = server;

  running.database = await connectDatabase(config, say);
  const databaseUrl = running.database.url;
  process.env.DATABASE_URL = databaseUrl;
  if (running.database.appliedMigrations.length > 0) say(`Applied migrations: ${running.database.appliedMigrations.join(', ')}`);

  const credentials = await ensureCredentials(config, getPrisma(databaseUrl));

  await ensureDashboardBuild(ROOT, say);
  // Loaded only now: Next.js takes a second to import, and configuration errors should not wait for it.
  const { default: next } = await import('next');
  const dashboard = next({ dev: false, dir: ROOT, hostname: config.HOST, port: config.PORT });
  await dashboard.prepare();
  const handle = dashboard.getRequestHandler();
  server.on('request', (request, response) => void handle(request, response));

  running.worker = new DeliveryWorker({ ...workerOptionsFromConfig(config, databaseUrl), log });
  await running.worker.start();

  if (demoMode) running.demo = await startDemo(databaseUrl);
  printBanner(config, running.database, credentials, running.demo);
}

function listen(server: Server, config: Config): Promise<void> {
  return new Promise((resolvePromise, reject) => {
    server.once('error', (error: NodeJS.ErrnoException) => {
      if (error.code === 'EADDRINUSE') {
        reject(new StartupError(`PORT ${config.PORT} on ${config.HOST} is already in use. Stop what listens there, or set PORT to a free port.`));
      } else if (error.code === 'EACCES') {
        reject(new StartupError(`Not allowed to listen on ${config.HOST}:${config.PORT}; choose a PORT above 1024.`));
      } else reject(error);
    });
    server.listen(config.PORT, config.HOST, () => resolvePromise());
  });
}

function printBanner(config: Config, database: Database, credentials: Credentials, demo: Demo | null): void {
  const host = config.HOST === '0.0.0.0' || config.HOST === '::' ? '127.0.0.1' : config.HOST;
  const url = `http://${host.includes(':') ? `[${host}]` : host}:${config.PORT}`;
  const lines = [
    '',
    `Hookline is running: ${url}`,
    '',
    `  Dashboard sign-in   ${credentials.adminEmail} / ${credentials.adminPassword}` +
      (credentials.adminPasswordSource === 'generated' ? `  (generated, kept in ${config.HOOKLINE_DATA_DIR}/credentials.json)` : ''),
    `  API key             ${credentials.apiKey}${credentials.apiKeyCreated ? '  (new)' : ''}`,
    `  Try it              curl -H "Authorization: Bearer ${credentials.apiKey}" ${url}/api/v1/apps`,
    `  Database            ${database.embedded ? `embedded PostgreSQL, data in ${database.embedded.dataDir}` : redactPassword(database.url)}`,
    `  Worker              concurrency ${config.HOOKLINE_WORKER_CONCURRENCY}, loopback targets ${config.HOOKLINE_ALLOW_LOOPBACK ? 'allowed' : 'refused'}`,
  ];
  if (demo) lines.push(`  Demo                receiver at ${demo.receiver.url}, events flowing into app ${demo.appId}`);
  lines.push('', 'Press Ctrl-C to stop.', '');
  say(lines.join('\n'));
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
      () => process.exit(0),
      (error: unknown) => {
        log.error('error while stopping', { error });
        process.exit(1);
      },
    );
  };
  process.on('SIGINT', onSignal);
  process.on('SIGTERM', onSignal);
}

async function shutdown(running: Running): Promise<void> {
  await running.demo?.stop();
  await running.worker?.stop({ deadlineMs: DRAIN_DEADLINE_MS });
  if (running.server) {
    const server = running.server;
    const closed = new Promise<void>((resolvePromise) => server.close(() => resolvePromise()));
    server.closeIdleConnections();
    // Open dashboard tabs hold keep-alive connections; give running requests a moment, then cut them.
    setTimeout(() => server.closeAllConnections(), 2000).unref();
    await closed;
  }
  if (running.database) {
    await getPrisma(running.database.url).$disconnect().catch(() => {});
    await running.database.embedded?.stop();
  }
}

main().catch(async (error: unknown) => {
  // Leave nothing behind: an embedded PostgreSQL started before the failure is stopped.
  await shutdown(running).catch(() => {});
  if (error instanceof ConfigError || error instanceof StartupError || error instanceof MigrationError) {
    process.stderr.write(`\nHookline did not start.\n${error.message}\n\n`);
  } else {
    process.stderr.write(`\nHookline did not start: ${(error as Error)?.stack ?? String(error)}\n\n`);
  }
  process.exit(1);
});
