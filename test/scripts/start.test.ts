// A real `npm start` (scripts/start.ts as a child process, stdout and stderr piped as a log shipper
// would read them) on its own embedded PostgreSQL: what it answers while starting, what its output
// holds (no secret, ever) and what it tells a newcomer to connect to the database.
import { spawn, type ChildProcess } from 'node:child_process';
import { readFile, rm, mkdtemp, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort } from '../../lib/database/embedded-postgres';

const root = resolve(import.meta.dirname, '../..');
// A first start may build the dashboard (about a minute on 2 cores, more on a loaded machine).
const START_TIMEOUT_MS = 240_000;

interface Answer {
  status: number;
  retryAfter: string | null;
  contentType: string | null;
  body: string;
}

let child: ChildProcess;
let output = '';
let dataDir: string;
let baseUrl: string;
let pgPort: number;
const whileStarting: Record<string, Answer> = {};

async function ask(path: string): Promise<Answer> {
  const response = await fetch(`${baseUrl}${path}`, { signal: AbortSignal.timeout(5000) });
  return {
    status: response.status,
    retryAfter: response.headers.get('retry-after'),
    contentType: response.headers.get('content-type'),
    body: await response.text(),
  };
}

beforeAll(async () => {
  dataDir = await mkdtemp(join(tmpdir(), 'hookline-start-'));
  const port = await freePort();
  pgPort = await freePort();
  baseUrl = `http://127.0.0.1:${port}`;
  child = spawn(process.execPath, ['--import', 'tsx', 'scripts/start.ts'], {
    cwd: root,
    env: {
      PATH: process.env.PATH,
      HOME: process.env.HOME,
      NODE_ENV: 'production',
      NEXT_TELEMETRY_DISABLED: '1',
      PORT: String(port),
      HOOKLINE_DATA_DIR: dataDir,
      HOOKLINE_EMBEDDED_PG_PORT: String(pgPort),
      HOOKLINE_METRICS_PORT: '0',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child.stdout!.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr!.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const exited = new Promise<never>((_, reject) =>
    child.once('exit', (code) =>
      reject(new Error(`start.ts exited (${code}) while starting:\n${output.slice(-3000)}`)),
    ),
  );
  exited.catch(() => {});

  // The port opens within a second or two; the dashboard is ready only after the database,
  // migrations and the build. Ask in that window (a request that hangs fails after 5 s).
  const deadline = Date.now() + START_TIMEOUT_MS;
  while (!output.includes('Hookline is running') && Date.now() < deadline) {
    try {
      const api = await ask('/api/v1/apps');
      const page = await ask('/overview');
      const livez = await ask('/livez');
      const readyz = await ask('/readyz');
      if (!output.includes('Hookline is running') && api.status === 503) {
        whileStarting.api = api;
        whileStarting.page = page;
        whileStarting.livez = livez;
        whileStarting.readyz = readyz;
        break;
      }
    } catch (error) {
      if (!String((error as Error).cause ?? error).includes('ECONNREFUSED')) throw error;
    }
    await new Promise((done) => setTimeout(done, 100));
  }
  await Promise.race([
    exited,
    (async () => {
      while (!output.includes('Hookline is running')) {
        if (Date.now() > deadline) throw new Error(`start.ts did not become ready:\n${output.slice(-3000)}`);
        await new Promise((done) => setTimeout(done, 200));
      }
    })(),
  ]);
}, START_TIMEOUT_MS + 10_000);

afterAll(async () => {
  if (child && child.exitCode === null) {
    const exited = new Promise((done) => child.once('exit', done));
    child.kill('SIGTERM');
    const timer = setTimeout(() => child.kill('SIGKILL'), 20_000);
    await exited;
    clearTimeout(timer);
  }
  await rm(dataDir, { recursive: true, force: true });
}, 30_000);

describe('while it starts', () => {
  it('answers the API with a JSON 503 and Retry-After instead of hanging', () => {
    const api = whileStarting.api!;
    expect(api).toBeDefined();
    expect(api.status).toBe(503);
    expect(Number(api.retryAfter)).toBeGreaterThan(0);
    expect(api.contentType).toMatch(/^application\/json/);
    expect(JSON.parse(api.body)).toEqual({
      error: { code: 'starting', message: expect.stringContaining('Hookline is starting') },
    });
  });

  it('answers a dashboard page with a short 503 page saying it is starting', () => {
    const page = whileStarting.page!;
    expect(page.status).toBe(503);
    expect(Number(page.retryAfter)).toBeGreaterThan(0);
    expect(page.contentType).toMatch(/^text\/html/);
    expect(page.body).toContain('Hookline is starting');
  });

  it('serves the real dashboard and API once ready', async () => {
    expect((await ask('/api/v1/apps')).status).toBe(401);
    expect((await ask('/sign-in')).status).toBe(200);
  });
});

describe('health probes', () => {
  it('while starting: live, not ready', () => {
    expect(whileStarting.livez!.status).toBe(200);
    expect(whileStarting.readyz!.status).toBe(503);
    expect(JSON.parse(whileStarting.readyz!.body)).toMatchObject({ status: 'not_ready' });
  });

  it('once running: ready, the database reachable and its schema the one this code knows', async () => {
    expect((await ask('/livez')).status).toBe(200);
    const readyz = await ask('/readyz');
    expect(readyz.status, readyz.body).toBe(200);
    const body = JSON.parse(readyz.body);
    expect(body).toMatchObject({
      status: 'ready',
      database: { ok: true },
      schema: { ok: true, pending: [], unknown: [] },
    });
    expect(body.schema.current).toBe(body.schema.expected);
    expect(output).toContain(`Schema              ${body.schema.expected}`);
  });
});

describe('its output', () => {
  it('holds no admin password, API key or database password, and says where they are', async () => {
    const file = join(dataDir, 'credentials.json');
    expect((await stat(file)).mode & 0o777).toBe(0o600);
    const credentials = JSON.parse(await readFile(file, 'utf8')) as { adminPassword: string; apiKey: string };
    const databasePassword = (await readFile(join(dataDir, 'postgres', 'hookline-password'), 'utf8')).trim();
    expect(credentials.adminPassword.length).toBeGreaterThan(8);
    expect(credentials.apiKey).toMatch(/^hl_/);
    expect(databasePassword.length).toBeGreaterThan(8);
    // Both were created by this start, and stdout is a pipe, not a terminal: shown nowhere.
    for (const secret of [credentials.adminPassword, credentials.apiKey, databasePassword]) {
      expect(output).not.toContain(secret);
    }
    expect(output).toContain(`Credentials         ${file} (mode 0600)`);
    expect(output).toContain(`API key             ${credentials.apiKey.slice(0, 11)}… in the credentials file  (new)`);
  });

  it('gives a connection string that reaches hookline.send with the password from the file it names', async () => {
    const connection = `postgresql://postgres@127.0.0.1:${pgPort}/hookline`;
    const passwordFile = join(dataDir, 'postgres', 'hookline-password');
    expect(output).toContain(`Database            ${connection}  (embedded PostgreSQL; password in ${passwordFile})`);
    // As psql would: the printed string, plus the password from the file (PGPASSWORD).
    const target = { host: '127.0.0.1', port: pgPort, user: 'postgres', database: 'hookline' };
    const client = new pg.Client({ ...target, password: (await readFile(passwordFile, 'utf8')).trim() });
    await client.connect();
    try {
      await client.query(`INSERT INTO hookline.apps (id, name) VALUES ('app_start_test', 'Start test')`);
      await client.query(
        `INSERT INTO hookline.event_types (app_id, name) VALUES ('app_start_test', 'spice.harvested')`,
      );
      const { rows } = await client.query<{ id: string }>(
        `SELECT hookline.send('app_start_test', 'spice.harvested', '{"planet": "Arrakis"}') AS id`,
      );
      expect(rows[0]!.id).toMatch(/^msg_/);
    } finally {
      await client.end();
    }
    // The fixed password of earlier versions does not open it.
    const guess = new pg.Client({ ...target, password: 'hookline' });
    await expect(guess.connect()).rejects.toThrow(/password authentication failed/);
  });

  it('says once, in plain words, that HOOKLINE_ENCRYPTION_KEY is unset, what that means and how to set it', async () => {
    // The start's own steps (sealing secrets, the banner) and the web server's handlers (a new
    // endpoint's secret encrypted, then shown) all use the key: the warning must not come with each.
    const { apiKey } = JSON.parse(await readFile(join(dataDir, 'credentials.json'), 'utf8')) as { apiKey: string };
    const api = (path: string, body?: unknown) =>
      fetch(`${baseUrl}/api/v1${path}`, {
        method: body ? 'POST' : 'GET',
        headers: { Authorization: `Bearer ${apiKey}`, 'Content-Type': 'application/json' },
        body: body ? JSON.stringify(body) : undefined,
      });
    const app = (await (await api('/apps', { name: 'Key warning' })).json()) as { id: string };
    const created = await api(`/apps/${app.id}/endpoints`, { url: 'https://example.com/hooks' });
    expect(created.status).toBe(201);
    const endpoint = (await created.json()) as { id: string };
    expect((await api(`/apps/${app.id}/endpoints/${endpoint.id}/secret`)).status).toBe(200);

    const keyFile = join(dataDir, 'encryption-key');
    const warnings = output.split('\n').filter((line) => line.includes('HOOKLINE_ENCRYPTION_KEY is not set'));
    expect(warnings, output.slice(-3000)).toHaveLength(1);
    // What it means (a key file that must be kept and shared) and how to set one.
    expect(warnings[0]).toContain(keyFile);
    expect(warnings[0]).toMatch(/lost/);
    expect(warnings[0]).toContain('openssl rand -base64 32');
  });
});

describe('a path with malformed percent-encoding', () => {
  it('is a 400 in the API error shape under /api', async () => {
    for (const path of ['/api/v1/apps/%ff%fe', '/api/v1/apps/%', '/api/v1/apps/app_x/endpoints/%zz']) {
      const answer = await ask(path);
      expect(answer.status, path).toBe(400);
      expect(answer.contentType).toMatch(/^application\/json/);
      expect(JSON.parse(answer.body)).toEqual({
        error: { code: 'invalid_path', message: expect.stringContaining('percent-encoding') },
      });
    }
  });

  it("is the dashboard's ordinary not-found page elsewhere", async () => {
    for (const path of ['/apps/%ff%fe', '/%ff%fe?range=24h']) {
      const answer = await ask(path);
      expect(answer.status, path).toBe(404);
      expect(answer.contentType).toMatch(/^text\/html/);
      expect(answer.body).toContain('Nothing lives at this address.');
    }
  });
});

describe('security headers on real responses', () => {
  const page = async (path: string) => {
    const response = await fetch(`${baseUrl}${path}`, { signal: AbortSignal.timeout(10_000) });
    return { response, html: await response.text() };
  };

  it('a page carries a CSP with a fresh nonce that every script it renders holds, and forbids framing', async () => {
    const first = await page('/sign-in');
    expect(first.response.status).toBe(200);
    const policy = first.response.headers.get('content-security-policy') ?? '';
    const nonce = /'nonce-([A-Za-z0-9+/=]+)'/.exec(policy)?.[1];
    expect(nonce, policy).toBeDefined();
    expect(policy).toContain("frame-ancestors 'none'");
    expect(policy).toMatch(/script-src [^;]*'strict-dynamic'/);
    expect(policy).not.toMatch(/script-src [^;]*'unsafe-inline'/);
    const scripts = [...first.html.matchAll(/<script\b[^>]*>/g)].map((match) => match[0]);
    expect(scripts.length).toBeGreaterThan(0);
    for (const script of scripts) expect(script).toContain(`nonce="${nonce}"`);

    const second = await page('/sign-in');
    expect(second.response.headers.get('content-security-policy')).not.toContain(nonce);
  });

  it('every response says nosniff and a Referrer-Policy, the API and static files included', async () => {
    const { html } = await page('/sign-in');
    const asset = /<script\b[^>]*src="(\/_next\/static\/[^"]+)"/.exec(html)?.[1];
    expect(asset).toBeDefined();
    for (const path of ['/sign-in', '/api/v1/apps', asset!]) {
      const response = await fetch(`${baseUrl}${path}`);
      await response.arrayBuffer();
      expect(response.headers.get('x-content-type-options'), path).toBe('nosniff');
      expect(response.headers.get('referrer-policy'), path).toBe('strict-origin-when-cross-origin');
      expect(response.headers.get('x-frame-options'), path).toBe('DENY');
    }
  });

  it('a client claiming X-Forwarded-Proto: https gets no Secure cookie unless HOOKLINE_TRUST_PROXY says so', async () => {
    const { adminPassword } = JSON.parse(await readFile(join(dataDir, 'credentials.json'), 'utf8')) as {
      adminPassword: string;
    };
    const response = await fetch(`${baseUrl}/api/auth/sign-in`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-forwarded-proto': 'https' },
      body: JSON.stringify({ email: 'admin@hookline.local', password: adminPassword }),
    });
    expect(response.status).toBe(204);
    const cookie = response.headers.get('set-cookie') ?? '';
    expect(cookie).toMatch(/^hookline_session=/);
    expect(cookie).not.toContain('Secure');
  });
});

describe('public/', () => {
  it('serves the icons, the logo and the manifest that every page links to', async () => {
    const html = await (await fetch(`${baseUrl}/sign-in`)).text();
    expect(html).toMatch(/<link rel="icon" href="\/favicon.svg" type="image\/svg\+xml"/);
    expect(html).toContain('<link rel="manifest" href="/manifest.webmanifest"');
    expect(html).toContain('<link rel="apple-touch-icon" href="/apple-touch-icon.png"');
    const types: Record<string, RegExp> = {
      '/favicon.ico': /^image\/(x-icon|vnd\.microsoft\.icon)/,
      '/favicon.svg': /^image\/svg\+xml/,
      '/logo.svg': /^image\/svg\+xml/,
      '/apple-touch-icon.png': /^image\/png/,
      '/icon-192.png': /^image\/png/,
      '/icon-512.png': /^image\/png/,
      '/manifest.webmanifest': /^application\/manifest\+json/,
      '/robots.txt': /^text\/plain/,
    };
    for (const [path, type] of Object.entries(types)) {
      const response = await fetch(`${baseUrl}${path}`);
      expect(response.status, path).toBe(200);
      expect(response.headers.get('content-type'), path).toMatch(type);
      expect((await response.arrayBuffer()).byteLength, path).toBeGreaterThan(50);
    }
    const manifest = (await (await fetch(`${baseUrl}/manifest.webmanifest`)).json()) as { icons: { src: string }[] };
    for (const icon of manifest.icons) expect((await fetch(`${baseUrl}${icon.src}`)).status, icon.src).toBe(200);
  });
});
