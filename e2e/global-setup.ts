// Starts everything the e2e tests talk to, and returns the teardown that stops all of it:
// an embedded PostgreSQL in a temp folder (migrated), a switchable receiver on 127.0.0.1, and the real
// server (`scripts/start.ts`: Next.js production build + delivery worker in one process) on a free
// port, pointed at that database. Seed data goes in through the public REST API with the starter key.
import { spawn, type ChildProcess } from 'node:child_process';
import { createWriteStream } from 'node:fs';
import { mkdir, mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { ensureDatabase, freePort, startEmbeddedPostgres } from '../lib/database/embedded-postgres';
import { migrate } from '../lib/database/migrate';
import { publishE2eEnv } from './support/env';
import { startE2eReceiver } from './support/receiver';
import { startOidcProvider } from '../test/support/oidc-provider';

const ROOT = resolve(import.meta.dirname, '..');
const ADMIN_EMAIL = 'oncall@hookline.test';
const ADMIN_PASSWORD = 'e2e-password-correct-horse';
// start.ts may run `next build` first when the sources are newer than the last build (~1 min here).
const SERVER_START_TIMEOUT_MS = 240_000;

export default async function globalSetup() {
  const cleanups: (() => Promise<void>)[] = [];
  const teardown = async () => {
    for (const cleanup of cleanups.reverse()) await cleanup().catch((error: unknown) => console.error(error));
  };
  try {
    // The screenshots are this run's artifacts: none left over from an earlier run may pass for new.
    await rm(join(ROOT, 'test-results', 'screenshots'), { recursive: true, force: true });
    const tempDir = await mkdtemp(join(tmpdir(), 'hookline-e2e-'));
    cleanups.push(() => rm(tempDir, { recursive: true, force: true }));

    const postgres = await startEmbeddedPostgres({
      dataDir: join(tempDir, 'pg'),
      port: await freePort(),
      settings: { fsync: 'off', synchronous_commit: 'off', full_page_writes: 'off' },
    });
    cleanups.push(() => postgres.stop());
    const databaseUrl = await ensureDatabase(postgres.connectionString, 'hookline_e2e');
    await migrate(databaseUrl);

    const receiver = await startE2eReceiver();
    cleanups.push(() => receiver.close());

    const port = await freePort();
    const baseUrl = `http://127.0.0.1:${port}`;
    // A real OpenID provider for "Sign in with SSO" (e2e/sso.spec.ts); password sign-in stays on.
    const oidc = await startOidcProvider({ redirectUris: [`${baseUrl}/api/auth/sso/callback`] });
    cleanups.push(() => oidc.close());
    const dataDir = join(tempDir, 'data');
    const server = await startServer({
      DATABASE_URL: databaseUrl,
      HOST: '127.0.0.1',
      PORT: String(port),
      HOOKLINE_DATA_DIR: dataDir,
      HOOKLINE_ADMIN_EMAIL: ADMIN_EMAIL,
      HOOKLINE_ADMIN_PASSWORD: ADMIN_PASSWORD,
      HOOKLINE_ALLOW_LOOPBACK: 'true',
      HOOKLINE_METRICS_PORT: '0',
      // Fast retries so a failing receiver produces dead deliveries within seconds.
      HOOKLINE_RETRY_SCHEDULE: '0,1s',
      HOOKLINE_CIRCUIT_FAILURE_THRESHOLD: '1000',
      // Alerts in seconds: failing at 3 in a row, every change of an issue sent at once.
      HOOKLINE_ALERT_FAILING_AFTER_FAILURES: '3',
      HOOKLINE_ALERT_RECOVERED_AFTER: '2s',
      HOOKLINE_ALERT_MIN_INTERVAL: '0',
      HOOKLINE_API_RATE_LIMIT: '0',
      // Background jobs in small, paced batches, so a replay of a few hundred deliveries runs for
      // seconds and its progress bar and Cancel button can be seen and used (e2e/jobs.spec.ts).
      HOOKLINE_JOB_BATCH_SIZE: '20',
      HOOKLINE_JOB_BATCH_PAUSE_MS: '250',
      HOOKLINE_LOG_LEVEL: 'warn',
      HOOKLINE_OIDC_ISSUER: oidc.issuer,
      HOOKLINE_OIDC_CLIENT_ID: oidc.clientId,
      HOOKLINE_OIDC_CLIENT_SECRET: oidc.clientSecret,
      // A payload search answers after one slice of time a request, so "Continue searching" can be
      // seen and used (e2e/search.spec.ts); a search of the last minutes still finds them at once.
      HOOKLINE_SEARCH_BUDGET_MS: '1',
    });
    cleanups.push(() => stopServer(server));

    const { apiKey } = JSON.parse(await readFile(join(dataDir, 'credentials.json'), 'utf8')) as { apiKey: string };
    const seed = await seedThroughApi(baseUrl, apiKey, receiver.url);
    publishE2eEnv({
      baseUrl,
      receiverUrl: receiver.url,
      apiKey,
      adminEmail: ADMIN_EMAIL,
      adminPassword: ADMIN_PASSWORD,
      databaseUrl,
      ...seed,
      oidcIssuer: oidc.issuer,
    });
    return teardown;
  } catch (error) {
    await teardown();
    throw error;
  }
}

async function startServer(env: Record<string, string>): Promise<ChildProcess> {
  await mkdir(join(ROOT, 'test-results'), { recursive: true });
  const log = createWriteStream(join(ROOT, 'test-results', 'e2e-server.log'));
  const child = spawn(process.execPath, ['--import', 'tsx', 'scripts/start.ts'], {
    cwd: ROOT,
    env: { ...process.env, ...env, NEXT_TELEMETRY_DISABLED: '1' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child.stdout!.pipe(log);
  child.stderr!.pipe(log);
  await new Promise<void>((resolvePromise, reject) => {
    let output = '';
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`The server did not start within ${SERVER_START_TIMEOUT_MS} ms:\n${output.slice(-3000)}`));
    }, SERVER_START_TIMEOUT_MS);
    const onData = (chunk: Buffer) => {
      output += chunk.toString();
      if (output.includes('Hookline is running')) {
        clearTimeout(timer);
        resolvePromise();
      }
    };
    child.stdout!.on('data', onData);
    child.stderr!.on('data', onData);
    child.once('exit', (code, signal) => {
      clearTimeout(timer);
      reject(new Error(`The server exited during start-up (${signal ?? `code ${code}`}):\n${output.slice(-3000)}`));
    });
  });
  return child;
}

async function stopServer(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise<void>((resolvePromise) => child.once('exit', () => resolvePromise()));
  child.kill('SIGTERM');
  // start.ts drains the worker for up to 10 s; past that something is stuck and the test run must still end.
  const timer = setTimeout(() => child.kill('SIGKILL'), 15_000);
  await exited;
  clearTimeout(timer);
}

async function seedThroughApi(baseUrl: string, apiKey: string, receiverUrl: string) {
  const call = async <T>(method: string, path: string, body?: unknown): Promise<T> => {
    const response = await fetch(`${baseUrl}/api/v1${path}`, {
      method,
      headers: { authorization: `Bearer ${apiKey}`, 'content-type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await response.text();
    if (!response.ok) throw new Error(`Seeding: ${method} ${path} answered ${response.status}: ${text}`);
    return JSON.parse(text) as T;
  };
  const appName = 'E2E Shop';
  const app = await call<{ id: string }>('POST', '/apps', { name: appName });
  for (const name of ['order.created', 'order.paid']) {
    await call('POST', `/apps/${app.id}/event-types`, { name, description: `${name} for the e2e run` });
  }
  const endpoint = await call<{ id: string }>('POST', `/apps/${app.id}/endpoints`, {
    url: `${receiverUrl}/hooks/orders`,
    description: 'The e2e receiver',
  });
  return { appId: app.id, appName, endpointId: endpoint.id };
}
