// The compiled half of `npm run build`: scripts/start.ts, worker/main.ts and scripts/migrate.ts bundled
// by esbuild into dist/start.js, dist/worker.js and dist/migrate.js, which `npm start` and `npm run worker` run with plain node (no
// tsx, no TypeScript compiled at run time). Our own code is bundled; packages stay in node_modules
// (`packages: 'external'`): dist/start.js is about 180 KB and node_modules is needed for Next.js anyway.
//
// The bundles sit one folder below the project root, as their sources do (lib/, worker/, scripts/),
// so paths resolved from import.meta.dirname + '..' (prisma/migrations, the .next build) are the
// same compiled or not. worker/sql/*.sql is read at run time next to the code that loads it, so it is
// copied to <outDir>/sql.
import { cpSync, mkdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { build } from 'esbuild';

export async function buildServer({ root, outDir }: { root: string; outDir: string }): Promise<string[]> {
  rmSync(outDir, { recursive: true, force: true });
  mkdirSync(outDir, { recursive: true });
  await build({
    absWorkingDir: root,
    entryPoints: { start: 'scripts/start.ts', worker: 'worker/main.ts', migrate: 'scripts/migrate.ts' },
    outdir: outDir,
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20.19',
    packages: 'external',
    // Stack traces name dist/start.js lines; the map turns them back into sources under
    // `node --enable-source-maps` when that is wanted (it costs memory, so it is not the default).
    sourcemap: 'linked',
    logLevel: 'warning',
  });
  cpSync(join(root, 'worker', 'sql'), join(outDir, 'sql'), { recursive: true });
  // The operations pass's statements (worker/operations/sql) are read the same way, from the same folder.
  cpSync(join(root, 'worker', 'operations', 'sql'), join(outDir, 'sql'), { recursive: true });
  return [join(outDir, 'start.js'), join(outDir, 'worker.js'), join(outDir, 'migrate.js')];
}
