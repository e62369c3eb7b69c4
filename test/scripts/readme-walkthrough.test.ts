// The README's REST examples, run as a newcomer pastes them: every `sh` block of its "REST API" section
// up to "A typed client", then every `sh` block of "The customer's portal" (a portal link made with a key
// of the walkthrough's app, opened as a browser would, revoked), in order, in one bash (the blocks share
// their shell variables: a later block may only use what an earlier one set), from a folder
// whose `.data/` is the one Hookline writes its credentials to. Hookline is started once, as the README
// says (`HOOKLINE_ALLOW_LOOPBACK=true npm start`, here scripts/start.ts on a free port and a test
// database), and so is the receiver it says to run (`npm run receiver`, on a free port). The only
// edits to the text are those two addresses.
//
// curl answers 4xx with exit status 0, so every request is logged (status, method, URL) through a curl
// function wrapped around the blocks; the test fails on any status of 400 or more that the README
// does not say to expect, and on any command that fails (`set -e`, `pipefail`: jq given an error
// instead of an object, say).
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdir, mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort } from '../../lib/database/embedded-postgres';
import { createTestDatabase } from '../support/database';
import { waitUntil } from '../support/receiver';

const root = resolve(import.meta.dirname, '../..');
// A first start may build the dashboard (about a minute on 2 cores, more on a loaded machine).
const START_TIMEOUT_MS = 240_000;
const README_HOOKLINE = 'http://127.0.0.1:3000';
const README_RECEIVER = 'http://127.0.0.1:4000';

/** The error answers the README's comments announce: [status, method, URL pattern, where it says so,
 * whether it always happens]. Cancelling the walkthrough's job answers 409 only when the job has
 * already run, which depends on the worker's timing. */
const EXPECTED_ERRORS: [number, string, RegExp, string, boolean][] = [
  [401, 'GET', /\/api\/v1\/apps$/, 'Authentication: "# 401: revoked"', true],
  [409, 'POST', /\/jobs\/job_[^/]+\/cancel$/, 'Walkthrough: "# or 409 job_finished once it has run"', false],
  [422, 'POST', /\/apps\/app_[^/]+\/endpoints$/, 'Errors: "# HTTP/1.1 422 … Host is set by Hookline"', true],
  [409, 'POST', /\/apps\/app_[^/]+\/messages$/, 'Idempotency: "idempotency_key_reused"', true],
  [401, 'GET', /\/portal\/open\?token=hlp_/, 'Portal: "# now a 401 page saying so"', true],
];

const children: ChildProcess[] = [];
let workdir: string;
let baseUrl: string;
let receiverUrl: string;
let receiverOutput = '';
let serverOutput = '';

/** Every `sh` block from one heading to the next one named. */
function shBlocks(readme: string, from: string, to: string): string[] {
  const start = readme.indexOf(`\n${from}\n`);
  const end = readme.indexOf(`\n${to}\n`, start);
  expect(start).toBeGreaterThan(0);
  expect(end).toBeGreaterThan(start);
  return [...readme.slice(start, end).matchAll(/^```sh\n([\s\S]*?)^```$/gm)].map((match) => match[1]!);
}

function startChild(command: string, args: string[], env: NodeJS.ProcessEnv, onOutput: (text: string) => void) {
  // A process group of its own: `npm run receiver` is npm, a shell, tsx and node, and a signal to npm
  // alone left the receiver running; the whole group is stopped after the test.
  const child = spawn(command, args, { cwd: root, env, stdio: ['ignore', 'pipe', 'pipe'], detached: true });
  children.push(child);
  child.stdout!.on('data', (chunk: Buffer) => onOutput(chunk.toString()));
  child.stderr!.on('data', (chunk: Buffer) => onOutput(chunk.toString()));
  return child;
}

beforeAll(async () => {
  const db = await createTestDatabase();
  workdir = await mkdtemp(join(tmpdir(), 'hookline-readme-'));
  await mkdir(join(workdir, '.data'));
  const port = await freePort();
  const receiverPort = await freePort();
  baseUrl = `http://127.0.0.1:${port}`;
  receiverUrl = `http://127.0.0.1:${receiverPort}`;

  const readme = await readFile(join(root, 'README.md'), 'utf8');
  // The commands the README gives for the two terminals, run as given (with a port of the test's own).
  expect(readme).toContain('npm run receiver ');
  expect(readme).toContain('HOOKLINE_ALLOW_LOOPBACK=true npm start');
  startChild('npm', ['run', 'receiver', '--', '--port', String(receiverPort)], process.env, (text) => {
    receiverOutput += text;
  });
  const server = startChild(
    process.execPath,
    ['--import', 'tsx', 'scripts/start.ts'],
    {
      PATH: process.env.PATH,
      HOME: process.env.HOME,
      NODE_ENV: 'production',
      NEXT_TELEMETRY_DISABLED: '1',
      DATABASE_URL: db.url,
      PORT: String(port),
      HOOKLINE_DATA_DIR: join(workdir, '.data'),
      HOOKLINE_METRICS_PORT: '0',
      HOOKLINE_ALLOW_LOOPBACK: 'true',
    },
    (text) => {
      serverOutput += text;
    },
  );
  const exited = new Promise<never>((_, reject) =>
    server.once('exit', (code) => reject(new Error(`start.ts exited (${code}):\n${serverOutput.slice(-3000)}`))),
  );
  exited.catch(() => {});
  await Promise.race([
    waitUntil(() => serverOutput.includes('Hookline is running'), {
      timeoutMs: START_TIMEOUT_MS,
      intervalMs: 200,
      what: 'Hookline to start',
    }),
    exited,
  ]);
  await waitUntil(() => receiverOutput.includes('Receiver listening'), { what: 'the receiver' });
}, START_TIMEOUT_MS + 30_000);

afterAll(async () => {
  for (const child of children.reverse()) {
    if (child.exitCode !== null || child.signalCode !== null) continue;
    const exited = new Promise((done) => child.once('exit', done));
    const signalGroup = (signal: NodeJS.Signals) => {
      try {
        process.kill(-child.pid!, signal);
      } catch {
        // The group is gone already.
      }
    };
    signalGroup('SIGTERM');
    const timer = setTimeout(() => signalGroup('SIGKILL'), 15_000);
    await exited;
    clearTimeout(timer);
  }
  if (workdir) await rm(workdir, { recursive: true, force: true });
}, 60_000);

describe('the README', () => {
  it('runs its REST walkthrough and its portal section as pasted against a started Hookline and a local receiver', async () => {
    const readme = await readFile(join(root, 'README.md'), 'utf8');
    const restBlocks = shBlocks(readme, '## REST API', '### A typed client');
    const portalBlocks = shBlocks(readme, "## The customer's portal", '## Receiving webhooks');
    expect(restBlocks.length).toBeGreaterThanOrEqual(6);
    expect(portalBlocks.length).toBeGreaterThanOrEqual(3);
    const blocks = [...restBlocks, ...portalBlocks];
    const script = [
      'set -eo pipefail',
      // Every request's outcome, on a line of its own in stderr.
      `curl() { command curl -w '%{stderr}HOOKLINE-TEST %{http_code} %{method} %{url_effective}\\n' "$@"; }`,
      ...blocks.map((block) => block.replaceAll(README_HOOKLINE, baseUrl).replaceAll(README_RECEIVER, receiverUrl)),
    ].join('\n');
    const { code, stdout, stderr } = await new Promise<{ code: number | null; stdout: string; stderr: string }>(
      (done) => {
        const bash = spawn('bash', ['-c', script], {
          cwd: workdir,
          env: { PATH: process.env.PATH, HOME: workdir, NODE_ENV: 'production' },
        });
        let out = '';
        let err = '';
        bash.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
        bash.stderr.on('data', (chunk: Buffer) => (err += chunk.toString()));
        bash.once('exit', (exitCode) => done({ code: exitCode, stdout: out, stderr: err }));
      },
    );
    const context = `stdout:\n${stdout.slice(-4000)}\nstderr:\n${stderr.slice(-4000)}`;
    expect(code, context).toBe(0);

    const requests = [...stderr.matchAll(/^HOOKLINE-TEST (\d{3}) (\S+) (\S+)$/gm)].map((match) => ({
      status: Number(match[1]),
      method: match[2]!,
      url: match[3]!,
    }));
    expect(requests.length, context).toBeGreaterThan(30);
    const unexpected = requests.filter(
      ({ status, method, url }) =>
        status >= 400 &&
        !EXPECTED_ERRORS.some(
          ([expected, expectedMethod, pattern]) =>
            expected === status && expectedMethod === method && pattern.test(url),
        ),
    );
    expect(unexpected, context).toEqual([]);
    // Each announced error happened: the README's comments are true too.
    for (const [status, method, pattern, where, always] of EXPECTED_ERRORS) {
      if (!always) continue;
      expect(
        requests.some((request) => request.status === status && request.method === method && pattern.test(request.url)),
        where,
      ).toBe(true);
    }
    // The portal link was made, opened (its redirect followed to the portal's first page) and revoked.
    const portalSessions = `${baseUrl}/api/v1/apps/`;
    expect(
      requests.filter(
        ({ method, url }) => method === 'POST' && url.startsWith(portalSessions) && url.endsWith('/portal-sessions'),
      ),
      context,
    ).toEqual([expect.objectContaining({ status: 201 })]);
    expect(requests, context).toContainEqual({ status: 200, method: 'GET', url: `${baseUrl}/portal` });
    expect(stdout, context).toMatch(/^<title>Endpoints · [^<]+<\/title>$/m);
    expect(
      requests.filter(({ method, url }) => method === 'DELETE' && /\/portal-sessions\/psess_\w+$/.test(url)),
      context,
    ).toEqual([expect.objectContaining({ status: 200 })]);
    // The walkthrough's event reached the receiver the README runs.
    await waitUntil(
      () => /POST \/webhooks webhook-id=msg_\S+ \{"type":"invoice\.paid",.*"invoice": "in_1042"/.test(receiverOutput),
      {
        timeoutMs: 15_000,
        what: `the walkthrough's event at the receiver; it printed:\n${receiverOutput}`,
      },
    );
  }, 180_000);
});
