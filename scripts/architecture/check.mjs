// `npm run architecture`: prints the layers (scripts/architecture/layers.mjs) with how many files each
// has and which layers each imports, then every forbidden import with its file and line; exits 1 if
// there is one. The ESLint rule `hookline/layers` reports the same, in the editor.
import { readdirSync, readFileSync } from 'node:fs';
import process from 'node:process';
import { dirname, join, relative, resolve } from 'node:path';
import { LAYERS, ROOT, forbiddenImport, layerOf } from './layers.mjs';

const SOURCE = /\.(ts|tsx|mjs|js)$/;
// import … from '…', export … from '…', import('…'), import '…'
const IMPORT =
  /(?:^|\n)\s*(?:import|export)\b[^'"]*?\bfrom\s*['"]([^'"]+)['"]|\bimport\s*\(\s*['"]([^'"]+)['"]\s*\)|(?:^|\n)\s*import\s*['"]([^'"]+)['"]/g;

function filesUnder(folder) {
  const out = [];
  for (const entry of readdirSync(folder, { withFileTypes: true })) {
    const path = join(folder, entry.name);
    if (entry.isDirectory()) out.push(...filesUnder(path));
    else if (SOURCE.test(entry.name)) out.push(path);
  }
  return out;
}

const problems = [];
const say = (line = '') => process.stdout.write(`${line}\n`);
say('Layers (scripts/architecture/layers.mjs), what each holds and which other layers it imports:');
say();
for (const layer of LAYERS) {
  const files = filesUnder(resolve(ROOT, layer.folder));
  const imports = new Set();
  for (const file of files) {
    const text = readFileSync(file, 'utf8');
    for (const match of text.matchAll(IMPORT)) {
      const specifier = match[1] ?? match[2] ?? match[3];
      if (specifier.startsWith('.') || specifier.startsWith('@/')) {
        const target = specifier.startsWith('@/')
          ? resolve(ROOT, specifier.slice(2))
          : resolve(dirname(file), specifier);
        const to = layerOf(target);
        if (to && to !== layer) imports.add(to.name);
      }
      const problem = forbiddenImport(file, specifier);
      if (problem) {
        const line = text.slice(0, match.index).split('\n').length + (text[match.index] === '\n' ? 1 : 0);
        problems.push(`${relative(ROOT, file)}:${line} imports '${specifier}'\n    ${problem}`);
      }
    }
  }
  const order = LAYERS.map((other) => other.name).filter((name) => imports.has(name));
  say(
    `  ${layer.folder.padEnd(13)} ${layer.name.padEnd(10)} ${String(files.length).padStart(4)} files  ${layer.holds}`,
  );
  say(`  ${''.padEnd(13)} ${''.padEnd(10)} ${''.padStart(4)}        imports: ${order.join(', ') || 'no other layer'}`);
  say(`  ${''.padEnd(13)} ${''.padEnd(10)} ${''.padStart(4)}        may not: ${layer.forbidden.join(', ')}`);
}
say();
if (problems.length > 0) {
  say(`${problems.length} forbidden import${problems.length === 1 ? '' : 's'}:`);
  for (const problem of problems) say(`  ${problem}`);
  process.exit(1);
}
say('No forbidden imports.');
