// Calls the real route modules of app/api in-process, as Next.js would: a web-standard Request and
// `{ params: Promise<...> }`. The database is real (a clone of the migrated template per test file).
import { readdirSync, statSync } from 'node:fs';
import { join, relative, sep } from 'node:path';
import { resetApiSettings } from '../../../lib/runtime/api-settings';
import { resetRateLimits } from '../../../lib/http/rate-limit';
import { createApiKey } from '../../../lib/domain/api-keys/create-api-key';
import { createTestDatabase, type TestDatabase } from '../../support/database';

export const ORIGIN = 'http://127.0.0.1:3000';
const API_ROOT = join(import.meta.dirname, '..', '..', '..', 'app', 'api');

type Handler = (request: Request, args: { params: Promise<Record<string, string>> }) => Promise<Response>;

export interface RouteFile {
  /** e.g. "/v1/apps/[appId]/endpoints" */
  dir: string;
  segments: string[];
  file: string;
}

export function listRouteFiles(root = API_ROOT): RouteFile[] {
  const found: RouteFile[] = [];
  const walk = (dir: string) => {
    for (const name of readdirSync(dir)) {
      const path = join(dir, name);
      if (statSync(path).isDirectory()) walk(path);
      else if (name === 'route.ts') {
        const rel = relative(root, dir).split(sep).filter(Boolean);
        found.push({ dir: `/${rel.join('/')}`, segments: rel, file: path });
      }
    }
  };
  walk(root);
  return found;
}

const modules = new Map<string, Promise<Record<string, unknown>>>();

function loadModule(file: string) {
  let module = modules.get(file);
  if (!module) {
    module = import(file) as Promise<Record<string, unknown>>;
    modules.set(file, module);
  }
  return module;
}

/** The route file for a path below /api, static segments winning over dynamic ones as in Next.js. */
export function matchRoute(path: string): { route: RouteFile; params: Record<string, string> } | null {
  const parts = path.split('/').slice(1);
  let best: { route: RouteFile; params: Record<string, string>; score: string } | null = null;
  for (const route of listRouteFilesCached()) {
    if (route.segments.length !== parts.length) continue;
    const params: Record<string, string> = {};
    let score = '';
    let ok = true;
    route.segments.forEach((segment, index) => {
      const part = parts[index]!;
      if (segment.startsWith('[') && part !== '') {
        params[segment.slice(1, -1)] = safeDecode(part);
        score += '0';
      } else if (segment === part) score += '1';
      else ok = false;
    });
    if (ok && (!best || score > best.score)) best = { route, params, score };
  }
  return best;
}

function safeDecode(part: string): string {
  try {
    return decodeURIComponent(part);
  } catch {
    return part;
  }
}

let cachedRoutes: RouteFile[] | undefined;
function listRouteFilesCached() {
  return (cachedRoutes ??= listRouteFiles());
}

export interface CallOptions {
  key?: string;
  cookie?: string;
  body?: unknown;
  rawBody?: string | Uint8Array;
  headers?: Record<string, string>;
  query?: Record<string, string | number | boolean | undefined>;
}

export interface CallResult {
  status: number;
  headers: Headers;
  // Tests read whatever shape the operation answers.
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  body: any;
  text: string;
}

/** Calls `METHOD /api<path>`, e.g. call('GET', '/v1/apps'). */
export async function call(method: string, path: string, options: CallOptions = {}): Promise<CallResult> {
  const [pathname = '', search = ''] = path.split('?');
  const match = matchRoute(pathname);
  const url = new URL(`${ORIGIN}/api${pathname}${search ? `?${search}` : ''}`);
  for (const [name, value] of Object.entries(options.query ?? {})) {
    if (value !== undefined) url.searchParams.set(name, String(value));
  }
  const headers = new Headers(options.headers);
  if (options.key) headers.set('authorization', `Bearer ${options.key}`);
  if (options.cookie) headers.set('cookie', options.cookie);
  let body: string | Uint8Array | undefined = options.rawBody;
  if (options.body !== undefined) {
    body = JSON.stringify(options.body);
    if (!headers.has('content-type')) headers.set('content-type', 'application/json');
  }
  const request = new Request(url, { method, headers, body: body as BodyInit | undefined });
  // Next.js itself answers 404 when no route file matches (an empty segment, for instance).
  if (!match) return { status: 404, headers: new Headers(), body: null, text: '' };
  // Matched on the path as given: a URL would normalise away segments such as "..".
  const module = await loadModule(match.route.file);
  const handler = module[method] as Handler | undefined;
  if (!handler) return { status: 405, headers: new Headers(), body: null, text: '' };
  const response = await handler(request, { params: Promise.resolve(match.params) });
  const text = await response.text();
  let parsed: unknown;
  try {
    parsed = text ? JSON.parse(text) : null;
  } catch {
    parsed = text;
  }
  return { status: response.status, headers: response.headers, body: parsed, text };
}

/** Answers a web-standard Request with the route module Next.js would run: a `fetch` for clients
 * (such as the typed client in examples/) that should reach the API in-process. */
export async function handle(request: Request): Promise<Response> {
  const pathname = new URL(request.url).pathname.replace(/^\/api/, '');
  const match = matchRoute(pathname);
  if (!match) return new Response(null, { status: 404 });
  const module = await loadModule(match.route.file);
  const handler = module[request.method] as Handler | undefined;
  if (!handler) return new Response(null, { status: 405 });
  return handler(request, { params: Promise.resolve(match.params) });
}

export interface ApiTestContext {
  db: TestDatabase;
  adminKey: string;
}

/** A fresh database for this file, DATABASE_URL pointing at it, and a deployment-wide key. */
export async function setUpApiTest(env: Record<string, string> = {}): Promise<ApiTestContext> {
  const db = await createTestDatabase();
  process.env.DATABASE_URL = db.url;
  process.env.HOOKLINE_API_RATE_LIMIT = '0';
  for (const [name, value] of Object.entries(env)) process.env[name] = value;
  resetApiSettings();
  await resetRateLimits();
  const { key } = await createApiKey({ name: 'test admin', appId: null });
  return { db, adminKey: key };
}

export async function appLimitedKey(appId: string): Promise<string> {
  return (await createApiKey({ name: `key of ${appId}`, appId })).key;
}
