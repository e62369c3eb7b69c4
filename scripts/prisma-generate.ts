// Runs `prisma generate` on machines that cannot download Prisma's native schema engine. The CLI
// insists on locating that engine before it does anything, although generating the TypeScript client
// (the `prisma-client` generator, with the pg driver adapter) never calls it. Pointing
// PRISMA_SCHEMA_ENGINE_BINARY at a stub satisfies the check; a real engine set by the caller wins.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const env: NodeJS.ProcessEnv = { ...process.env, PRISMA_HIDE_UPDATE_MESSAGE: '1', CHECKPOINT_DISABLE: '1' };
// A folder of its own each run (mkdtemp: 0700, unpredictable name), never a fixed path in the shared
// temp folder, where another user could have planted their own "stub" for us to run.
let stubDir: string | undefined;
if (!env.PRISMA_SCHEMA_ENGINE_BINARY) {
  stubDir = mkdtempSync(join(tmpdir(), 'hookline-prisma-stub-'));
  const stub = join(stubDir, 'schema-engine');
  writeFileSync(stub, '#!/bin/sh\necho "schema engine stub: not available offline" >&2\nexit 1\n', { mode: 0o700 });
  env.PRISMA_SCHEMA_ENGINE_BINARY = stub;
}
const result = spawnSync('prisma', ['generate'], { stdio: 'inherit', env, shell: false });
if (stubDir) rmSync(stubDir, { recursive: true, force: true });
if (result.error) throw result.error;
process.exit(result.status ?? 1);
