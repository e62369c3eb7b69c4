// On an interactive terminal, and only there, the start that generates the admin password and the
// starter API key shows them once, below the banner; later starts do not (they are in the credentials
// file). `script` gives scripts/start.ts a real pseudo-terminal, as a developer's shell would.
import { spawn } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort } from '../../lib/database/embedded-postgres';
import { createTestDatabase, type TestDatabase } from '../support/database';

const root = resolve(import.meta.dirname, '../..');
const START_TIMEOUT_MS = 240_000;

let db: TestDatabase;
let dataDir: string;

beforeAll(async () => {
  db = await createTestDatabase();
  dataDir = await mkdtemp(join(tmpdir(), 'hookline-terminal-'));
});

afterAll(async () => {
  await rm(dataDir, { recursive: true, force: true });
});

/** Runs start.ts on a pseudo-terminal until its banner is out, then presses Ctrl-C; its output. */
async function startInTerminal(): Promise<string> {
  const port = String(await freePort());
  const child = spawn('script', ['-qec', `${process.execPath} --import tsx scripts/start.ts`, '/dev/null'], {
    cwd: root,
    env: {
      PATH: process.env.PATH,
      HOME: process.env.HOME,
      TERM: 'dumb',
      NODE_ENV: 'production',
      NEXT_TELEMETRY_DISABLED: '1',
      DATABASE_URL: db.url,
      PORT: port,
      HOOKLINE_DATA_DIR: dataDir,
      HOOKLINE_METRICS_PORT: '0',
    },
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const exited = new Promise<void>((done) => child.once('exit', () => done()));
  const deadline = Date.now() + START_TIMEOUT_MS;
  while (!output.includes('Press Ctrl-C to stop.')) {
    if (Date.now() > deadline || child.exitCode !== null) {
      child.kill('SIGKILL');
      throw new Error(`start.ts did not become ready:\n${output.slice(-3000)}`);
    }
    await new Promise((done) => setTimeout(done, 200));
  }
  child.stdin.write('\x03');
  const timer = setTimeout(() => child.kill('SIGKILL'), 30_000);
  await exited;
  clearTimeout(timer);
  return output;
}

describe('on an interactive terminal', () => {
  it(
    'shows newly generated credentials once, on the start that made them',
    async () => {
      const first = await startInTerminal();
      const { adminPassword, apiKey } = JSON.parse(await readFile(join(dataDir, 'credentials.json'), 'utf8')) as {
        adminPassword: string;
        apiKey: string;
      };
      expect(first).toContain('New this start, shown here once');
      expect(first).toContain(`admin password    ${adminPassword}`);
      expect(first).toContain(`API key           ${apiKey}`);

      const second = await startInTerminal();
      expect(second).toContain('password in the credentials file');
      expect(second).not.toContain('New this start');
      expect(second).not.toContain(adminPassword);
      expect(second).not.toContain(apiKey);
    },
    2 * START_TIMEOUT_MS,
  );
});
