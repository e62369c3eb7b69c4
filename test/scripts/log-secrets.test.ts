// A full run of `npm start` (scripts/start.ts: dashboard, REST API and worker in one process, at debug
// level) used the way an operator would: sign in, create a key, an endpoint with a signing secret,
// deliver to it, and provoke errors, including a database error whose message quotes the secret
// (as constraint and trigger errors do). Everything the process wrote is then searched for each
// secret.
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort } from '../../lib/database/embedded-postgres';
import { createTestDatabase, type TestDatabase } from '../support/database';
import { startReceiver, waitUntil, type Receiver } from '../support/receiver';

const ROOT = resolve(import.meta.dirname, '../..');
const ADMIN_EMAIL = 'ops@hookline.test';
const ADMIN_PASSWORD = 'log-test-Tr0ub4dor&3-horse';
const ENDPOINT_SECRET = 'whsec_' + Buffer.from('a signing secret of 32 bytes!!!!').toString('base64');
// start.ts runs `next build` first when the dashboard was never built or its sources changed.
const START_TIMEOUT_MS = 300_000;

let db: TestDatabase;
let receiver: Receiver;
let dataDir: string;
let server: ChildProcess | undefined;
let output = '';

beforeAll(async () => {
  db = await createTestDatabase();
  receiver = await startReceiver();
  dataDir = await mkdtemp(join(tmpdir(), 'hookline-log-secrets-'));
  // An audit rule of the kind operators add: it rejects a row and quotes it in the error message.
  await db.pool.query(`
    CREATE FUNCTION public.audit_endpoint_secret() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      IF (SELECT description FROM hookline.endpoints WHERE id = NEW.endpoint_id) = 'audit me' THEN
        RAISE EXCEPTION 'audit rejected row %', row_to_json(NEW);
      END IF;
      RETURN NEW;
    END $$;
    CREATE TRIGGER audit_endpoint_secret BEFORE INSERT ON hookline.endpoint_secrets
      FOR EACH ROW EXECUTE FUNCTION public.audit_endpoint_secret();`);
});

afterAll(async () => {
  if (server && server.exitCode === null && server.signalCode === null) server.kill('SIGKILL');
  await receiver?.close();
  await rm(dataDir, { recursive: true, force: true });
});

async function startServer(port: number): Promise<void> {
  server = spawn(process.execPath, ['--import', 'tsx', 'scripts/start.ts'], {
    cwd: ROOT,
    env: {
      ...process.env,
      DATABASE_URL: db.url,
      HOST: '127.0.0.1',
      PORT: String(port),
      HOOKLINE_DATA_DIR: dataDir,
      HOOKLINE_ADMIN_EMAIL: ADMIN_EMAIL,
      HOOKLINE_ADMIN_PASSWORD: ADMIN_PASSWORD,
      HOOKLINE_ALLOW_LOOPBACK: 'true',
      HOOKLINE_METRICS_PORT: '0',
      HOOKLINE_API_RATE_LIMIT: '0',
      HOOKLINE_LOG_LEVEL: 'debug',
      NEXT_TELEMETRY_DISABLED: '1',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  server.stdout!.on('data', (chunk: Buffer) => (output += chunk.toString()));
  server.stderr!.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const child = server;
  await waitUntil(
    () => {
      if (child.exitCode !== null) throw new Error(`the server exited during start-up:\n${output.slice(-3000)}`);
      return output.includes('Hookline is running');
    },
    { timeoutMs: START_TIMEOUT_MS, what: 'the server to start' },
  );
}

async function stopServer(): Promise<void> {
  const child = server!;
  const exited = new Promise<void>((done) => child.once('exit', () => done()));
  child.kill('SIGTERM');
  await exited;
}

describe('a full run writes no secret', () => {
  it(
    'keeps API keys, whsec_ secrets, passwords and session cookies out of everything it prints',
    async () => {
      const port = await freePort();
      const baseUrl = `http://127.0.0.1:${port}`;
      await startServer(port);
      const starter = JSON.parse(await readFile(join(dataDir, 'credentials.json'), 'utf8')) as { apiKey: string };

      // Sign in, and create a key with the session, as the dashboard does.
      const signIn = await fetch(`${baseUrl}/api/auth/sign-in`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ email: ADMIN_EMAIL, password: ADMIN_PASSWORD }),
      });
      expect(signIn.status).toBe(204);
      const cookie = signIn.headers.get('set-cookie')!.split(';')[0]!;
      const sessionToken = cookie.split('=')[1]!;
      const created = await fetch(`${baseUrl}/api/v1/api-keys`, {
        method: 'POST',
        headers: { cookie, origin: baseUrl, 'content-type': 'application/json' },
        body: JSON.stringify({ name: 'log test' }),
      });
      expect(created.status).toBe(201);
      const apiKey = ((await created.json()) as { key: string }).key;

      const api = (method: string, path: string, body?: unknown, key = apiKey) =>
        fetch(`${baseUrl}/api/v1${path}`, {
          method,
          headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
          body: body === undefined ? undefined : JSON.stringify(body),
        });
      const app = (await (await api('POST', '/apps', { name: 'Log secrets' })).json()) as { id: string };
      expect((await api('POST', `/apps/${app.id}/event-types`, { name: 'vault.opened' })).status).toBe(201);
      const endpoint = await api('POST', `/apps/${app.id}/endpoints`, { url: receiver.url, secret: ENDPOINT_SECRET });
      expect(endpoint.status).toBe(201);
      expect(
        (await api('POST', `/apps/${app.id}/messages`, { eventType: 'vault.opened', payload: { n: 1 } })).status,
      ).toBe(202);
      await waitUntil(() => receiver.requests.length === 1, { what: 'the delivery' });

      // Errors: a database error quoting the secret (500, logged), unknown and wrong credentials, a
      // cross-site request with the cookie.
      const rejected = await api('POST', `/apps/${app.id}/endpoints`, {
        url: receiver.url,
        secret: ENDPOINT_SECRET,
        description: 'audit me',
      });
      expect(rejected.status).toBe(500);
      expect((await api('GET', '/apps', undefined, `${apiKey.slice(0, -4)}AAAA`)).status).toBe(401);
      const wrongPassword = await fetch(`${baseUrl}/api/auth/sign-in`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ email: ADMIN_EMAIL, password: `${ADMIN_PASSWORD}-wrong` }),
      });
      expect(wrongPassword.status).toBe(401);
      const crossSite = await fetch(`${baseUrl}/api/v1/apps`, {
        method: 'POST',
        headers: { cookie, origin: 'https://evil.example', 'content-type': 'application/json' },
        body: JSON.stringify({ name: 'csrf' }),
      });
      expect(crossSite.status).toBe(403);

      // A customer portal link: created, opened (token in the URL, then in the cookie), used, and
      // opened again once revoked; and a forged token.
      const portal = (await (await api('POST', `/apps/${app.id}/portal-sessions`, {})).json()) as {
        id: string;
        url: string;
      };
      const portalToken = new URL(portal.url).searchParams.get('token')!;
      const opened = await fetch(portal.url, { redirect: 'manual' });
      expect(opened.status).toBe(303);
      const portalCookie = opened.headers.get('set-cookie')!.split(';')[0]!;
      expect((await fetch(`${baseUrl}/portal`, { headers: { cookie: portalCookie } })).status).toBe(200);
      const portalApi = await fetch(`${baseUrl}/portal/api/v1/apps/${app.id}/endpoints`, {
        headers: { cookie: portalCookie },
      });
      expect(portalApi.status).toBe(200);
      expect((await api('DELETE', `/apps/${app.id}/portal-sessions/${portal.id}`)).status).toBe(200);
      expect((await fetch(portal.url, { redirect: 'manual' })).status).toBe(401);
      expect(
        (await fetch(`${baseUrl}/portal/api/v1/apps/${app.id}/endpoints`, { headers: { cookie: portalCookie } }))
          .status,
      ).toBe(401);
      await stopServer();

      // The 500 was logged, with the database's message, and the secret in it redacted.
      const logged = output
        .split('\n')
        .filter((line) => line.startsWith('{'))
        .map((line) => JSON.parse(line) as { msg: string; error?: { message?: string } });
      const failure = logged.find((line) => line.msg === 'unhandled error in API route');
      expect(failure?.error?.message).toContain('audit rejected row');
      expect(failure?.error?.message).toContain('"secret":"[redacted]"');
      expect(logged.some((line) => line.msg === 'stopped')).toBe(true);

      for (const [what, secret] of Object.entries({
        'the new API key': apiKey,
        'the endpoint secret': ENDPOINT_SECRET,
        'the session token': sessionToken,
        'the portal token': portalToken,
        'the mistyped password': `${ADMIN_PASSWORD}-wrong`,
      })) {
        expect(output.includes(secret), `${what} is in the output`).toBe(false);
      }
      // The start banner (scripts/start.ts, owned by the banner change) is outside the log stream; the
      // starter key and admin password must appear nowhere else.
      const banner = /Hookline is running:[\s\S]*?Press Ctrl-C to stop\./.exec(output)?.[0] ?? '';
      const outsideBanner = output.replace(banner, '');
      expect(outsideBanner.includes(starter.apiKey), 'the starter API key is in the output').toBe(false);
      expect(outsideBanner.includes(ADMIN_PASSWORD), 'the admin password is in the output').toBe(false);
    },
    START_TIMEOUT_MS + 60_000,
  );
});
