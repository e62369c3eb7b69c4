// `npm start`, `npm run demo`, `npm run worker` and `npm run migrate` come through here: `node scripts/run.mjs start|worker|migrate`.
// After `npm run build`, dist/<name>.js runs with plain node in this very process: no TypeScript is
// compiled at run time, and start-up is faster and lighter (README, "Running it in production").
// Without dist/, as on a fresh clone, tsx runs the TypeScript sources, exactly as before.
// Plain JavaScript on purpose: this file decides whether TypeScript is needed, so it cannot need it.
import { existsSync, readdirSync, statSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import process from 'node:process';
import { fileURLToPath, pathToFileURL } from 'node:url';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const entries = { start: 'scripts/start.ts', worker: 'worker/main.ts', migrate: 'scripts/migrate.ts' };
const name = process.argv[2];
if (!(name in entries)) {
  process.stderr.write(`usage: node scripts/run.mjs ${Object.keys(entries).join('|')} [arguments]\n`);
  process.exit(2);
}
// The entry script sees the arguments after the name (`--demo`), as if it had been run directly.
process.argv.splice(2, 1);

const compiled = join(root, 'dist', `${name}.js`);
if (existsSync(compiled)) {
  warnIfStale(compiled);
  await import(pathToFileURL(compiled).href);
} else {
  // What `node --import tsx` registers: TypeScript for ES modules and for require().
  const [{ register: registerEsm }, { register: registerCjs }] = await Promise.all([
    import('tsx/esm/api'),
    import('tsx/cjs/api'),
  ]);
  registerEsm();
  registerCjs();
  await import(pathToFileURL(join(root, entries[name])).href);
}

// A checkout where someone ran `npm run build` once and kept editing would otherwise run old code
// without a word. Checking the mtimes of ~300 source files takes a few milliseconds.
function warnIfStale(compiledFile) {
  const builtAt = statSync(compiledFile).mtimeMs;
  const newer = ['lib', 'worker', 'scripts']
    .map((dir) => newestSource(join(root, dir)))
    .find((file) => file && file.mtimeMs > builtAt);
  if (newer) {
    process.stderr.write(
      `Note: ${newer.path.slice(root.length + 1)} changed after dist/ was built; running the build anyway. ` +
        'Run `npm run build` to include the change, or delete dist/ to run from the sources.\n',
    );
  }
}

function newestSource(dir) {
  let newest = null;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    if (entry.name === 'generated' || entry.name === 'node_modules') continue;
    const path = join(dir, entry.name);
    const candidate = entry.isDirectory() ? newestSource(path) : { path, mtimeMs: statSync(path).mtimeMs };
    if (candidate && (!newest || candidate.mtimeMs > newest.mtimeMs)) newest = candidate;
  }
  return newest;
}
