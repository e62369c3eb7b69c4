// `npm run build` output run with plain node, as `npm start` and `npm run worker` run it once dist/
// exists: the compiled worker delivers, and the compiled start serves the prebuilt dashboard and the
// API and delivers through its own worker, without building anything. The bundles are built into a
// folder of this test's own beside dist/ (the same depth, so they find prisma/ and .next as dist/ does),
// leaving a developer's dist/ alone.
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort } from '../../lib/database/embedded-postgres';
import { ensureDashboardBuild } from '../../scripts/lib/build-dashboard';
import { buildServer } from '../../scripts/lib/build-server';
import { createTestDatabase, type TestDatabase } from '../support/database';
import { createApp, createEndpoint, createEventType } from '../support/fixtures';
import { startReceiver, waitUntil, type Receiver } from '../support/receiver';
import { fastWorkerEnv } from '../support/worker-process';

const ROOT = resolve(import.meta.dirname, '../..');
const outDir = join(ROOT, `.dist-test-${randomBytes(4).toString('hex')}`);
// Only what a production host would have: no NODE_OPTIONS, nothing that could load tsx.
const baseEnv = {
  PATH: process.env.PATH ?? '',
  HOME: process.env.HOME ?? '',
  NODE_ENV: 'production' as const,
  NEXT_TELEMETRY_DISABLED: '1',
};

let db: TestDatabase;
let receiver: Receiver;
let dataDir: string;
const children: ChildProcess[] = [];

beforeAll(async () => {
  db = await createTestDatabase();
  receiver = await startReceiver();
  dataDir = await mkdtemp(join(tmpdir(), 'hookline-compiled-'));
  await buildServer({ root: ROOT, outDir });
  // The compiled start serves the dashboard `npm run build` built; build it here if no test did yet.
  await ensureDashboardBuild(ROOT, () => {});
}, 300_000);

afterAll(async () => {
  for (const child of children) if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  await receiver?.close();
  await rm(outDir, { recursive: true, force: true });
  await rm(dataDir, { recursive: true, force: true });
});

function run(file: string, env: Record<string, string>) {
  const child = spawn(process.execPath, [file], {
    cwd: ROOT,
    env: { ...baseEnv, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  children.push(child);
  let output = '';
  child.stdout!.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr!.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const exited = new Promise<number | null>((done) => child.once('exit', (code) => done(code)));
  return { child, output: () => output, exited };
}

describe('the compiled build', () => {
  it('bundles no TypeScript loader', async () => {
    for (const name of ['start.js', 'worker.js']) {
      const bundle = await readFile(join(outDir, name), 'utf8');
      expect(bundle).not.toMatch(/from\s*["']tsx|import\(["']tsx/);
      expect(bundle).not.toMatch(/from\s*["'][^"']+\.ts["']/);
    }
  });

  it('dist/worker.js starts with plain node and delivers', async () => {
    const appId = await createApp(db.pool, 'Compiled worker');
    await createEventType(db.pool, appId, 'spice.compiled');
    await createEndpoint(db.pool, appId, receiver.url);
    const worker = run(join(outDir, 'worker.js'), { ...fastWorkerEnv, DATABASE_URL: db.url });
    await waitUntil(() => worker.output().includes('"msg":"worker started"'), {
      what: `the compiled worker to start:\n${worker.output()}`,
    });
    await db.pool.query(`SELECT hookline.send($1, 'spice.compiled', '{"tonnes": 3}')`, [appId]);
    await waitUntil(() => receiver.requests.length === 1, { what: 'the delivery' });
    expect(JSON.parse(receiver.requests[0]!.body)).toMatchObject({ type: 'spice.compiled', data: { tonnes: 3 } });
    worker.child.kill('SIGTERM');
    expect(await worker.exited).toBe(0);
  }, 60_000);

  it('dist/start.js serves the prebuilt dashboard and the API, builds nothing, and its worker delivers', async () => {
    const port = await freePort();
    const baseUrl = `http://127.0.0.1:${port}`;
    const start = run(join(outDir, 'start.js'), {
      DATABASE_URL: db.url,
      PORT: String(port),
      HOOKLINE_DATA_DIR: dataDir,
      HOOKLINE_ALLOW_LOOPBACK: 'true',
      HOOKLINE_METRICS_PORT: '0',
      HOOKLINE_API_RATE_LIMIT: '0',
    });
    await waitUntil(
      () => {
        if (start.child.exitCode !== null) throw new Error(`the compiled start exited:\n${start.output()}`);
        return start.output().includes('Hookline is running');
      },
      { timeoutMs: 60_000, what: 'the compiled start' },
    );
    expect(start.output()).not.toContain('Building the dashboard');

    const signIn = await fetch(`${baseUrl}/sign-in`);
    expect(signIn.status).toBe(200);
    expect(await signIn.text()).toContain('Hookline');
    const { apiKey } = JSON.parse(await readFile(join(dataDir, 'credentials.json'), 'utf8')) as { apiKey: string };
    const api = async (path: string, body: unknown) => {
      const response = await fetch(`${baseUrl}/api/v1${path}`, {
        method: 'POST',
        headers: { authorization: `Bearer ${apiKey}`, 'content-type': 'application/json' },
        body: JSON.stringify(body),
      });
      expect(response.status, await response.clone().text()).toBeLessThan(300);
      return (await response.json()) as { id: string };
    };
    const app = await api('/apps', { name: 'Compiled start' });
    await api(`/apps/${app.id}/event-types`, { name: 'spice.served' });
    await api(`/apps/${app.id}/endpoints`, { url: `${receiver.url}/served` });
    const before = receiver.requests.length;
    await api(`/apps/${app.id}/messages`, { eventType: 'spice.served', payload: { ok: true } });
    await waitUntil(() => receiver.requests.length === before + 1, { what: 'the delivery by the compiled start' });

    start.child.kill('SIGTERM');
    expect(await start.exited).toBe(0);
  }, 120_000);
});
