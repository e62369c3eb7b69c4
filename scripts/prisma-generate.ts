// Runs `prisma generate` on machines that cannot download Prisma's native schema engine. The CLI
// insists on locating that engine before it does anything, although generating the TypeScript client
// (the `prisma-client` generator, with the pg driver adapter) never calls it. Pointing
// PRISMA_SCHEMA_ENGINE_BINARY at a stub satisfies the check; a real engine set by the caller wins.
import { spawnSync } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const env: NodeJS.ProcessEnv = { ...process.env, PRISMA_HIDE_UPDATE_MESSAGE: '1', CHECKPOINT_DISABLE: '1' };
if (!env.PRISMA_SCHEMA_ENGINE_BINARY) {
  const dir = join(tmpdir(), 'hookline-prisma-stub');
  const stub = join(dir, 'schema-engine');
  if (!existsSync(stub)) {
    mkdirSync(dir, { recursive: true });
    writeFileSync(stub, '#!/bin/sh\necho "schema engine stub: not available offline" >&2\nexit 1\n');
    chmodSync(stub, 0o755);
  }
  env.PRISMA_SCHEMA_ENGINE_BINARY = stub;
}
const result = spawnSync('prisma', ['generate'], { stdio: 'inherit', env, shell: false });
if (result.error) throw result.error;
process.exit(result.status ?? 1);
