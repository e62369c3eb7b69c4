// `npm run build`: everything production runs, compiled ahead of time: the dashboard (next build, into
// .next/) and the start script and worker (esbuild, into dist/). Afterwards `npm start` and
// `npm run worker` run dist/ with plain node and serve .next as built; nothing compiles at run time.
import { resolve } from 'node:path';
import { ensureDashboardBuild } from './lib/build-dashboard';
import { buildServer } from './lib/build-server';

const ROOT = resolve(import.meta.dirname, '..');
const say = (line: string) => process.stdout.write(`${line}\n`);

await ensureDashboardBuild(ROOT, say, { force: true });
const started = performance.now();
const files = await buildServer({ root: ROOT, outDir: resolve(ROOT, 'dist') });
say(
  `Compiled ${files.map((file) => file.slice(ROOT.length + 1)).join(' and ')} in ${Math.round(performance.now() - started)} ms.`,
);
