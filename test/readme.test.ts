// The README is the newcomer's guide: its configuration table must list every variable Hookline
// reads, and only those; its map must name every layer and only paths that exist; its commands must be the ones
// package.json and CI run.
import { existsSync, readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { knownMigrations } from '../lib/database/schema-version';
import { configVariables } from '../lib/runtime/env';
import { LAYERS } from '../scripts/architecture/layers.mjs';

const root = resolve(import.meta.dirname, '..');
const readme = readFileSync(resolve(root, 'README.md'), 'utf8');

describe('README', () => {
  const documented = [...readme.matchAll(/^\| `([A-Z][A-Z0-9_]+)` \|/gm)].map((match) => match[1]);

  it('documents every configuration variable in its table', () => {
    expect(configVariables.filter((name) => !documented.includes(name))).toEqual([]);
  });

  it('documents no variable that does not exist', () => {
    expect(documented.filter((name) => !configVariables.includes(name!))).toEqual([]);
  });

  it('maps every layer of scripts/architecture/layers.mjs in "Where things are"', () => {
    const map = readme.slice(readme.indexOf('## Where things are'));
    for (const layer of LAYERS) expect(map).toContain(`| \`${layer.folder}/\` | ${layer.name} |`);
  });

  it('names only files and folders that exist', () => {
    const named = [
      ...readme.matchAll(
        /`((?:lib|app|components|worker|scripts|test|e2e|bench|prisma|examples|public)\/[\w.\-[\]/()]*)`/g,
      ),
    ];
    // What git ignores is made by running something (bench/results/ by a benchmark), not checked out.
    const ignored = readFileSync(resolve(root, '.gitignore'), 'utf8')
      .split('\n')
      .filter((line) => line.endsWith('/') && !line.startsWith('#'))
      .map((line) => line.replace(/^\//, ''));
    const missing = named
      .map((match) => match[1]!)
      .filter((path) => !ignored.some((folder) => path.startsWith(folder)) && !existsSync(resolve(root, path)));
    expect(named.length).toBeGreaterThan(25);
    expect(missing).toEqual([]);
  });

  it("quotes the start banner with the schema version `npm start` prints now: the last migration's", () => {
    // scripts/start.ts prints database.schemaVersion, the last applied migration, which after its own
    // migrate step is the last one in prisma/migrations.
    const banner = readme.slice(readme.indexOf('Hookline is running: http://127.0.0.1:3000'));
    expect(/^ {2}Schema {14}(\S+)$/m.exec(banner)?.[1]).toBe(knownMigrations().at(-1));
  });

  it('gives the test command that CI runs', () => {
    const ci = readFileSync(resolve(root, '.ci/run'), 'utf8');
    expect(ci).toMatch(/^npm test$/m);
    expect(readme).toMatch(/^npm test\b/m);
    expect(readme).toMatch(/^npm start\b/m);
  });
});
