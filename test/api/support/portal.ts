// Calls the customer portal's route modules (app/portal) in-process, as Next.js would, with the
// portal cookie; the portal's API mirrors the REST paths below /portal/api.
import { join } from 'node:path';
import { createPortalSession } from '../../../lib/domain/portal/create-portal-session';
import { PORTAL_COOKIE_NAME } from '../../../lib/http/portal/portal-cookie';
import { listRouteFiles, ORIGIN, type CallResult, type RouteFile } from './api';

const PORTAL_ROOT = join(import.meta.dirname, '..', '..', '..', 'app', 'portal', 'api');

type Handler = (request: Request, args: { params: Promise<Record<string, string>> }) => Promise<Response>;

let routes: RouteFile[] | undefined;
export const portalRouteFiles = () => (routes ??= listRouteFiles(PORTAL_ROOT));

function match(path: string) {
  const parts = path.split('/').slice(1);
  let best: { route: RouteFile; params: Record<string, string>; score: string } | null = null;
  for (const route of portalRouteFiles()) {
    if (route.segments.length !== parts.length) continue;
    const params: Record<string, string> = {};
    let score = '';
    let ok = true;
    route.segments.forEach((segment, index) => {
      const part = parts[index]!;
      if (segment.startsWith('[') && part !== '') {
        params[segment.slice(1, -1)] = decodeURIComponent(part);
        score += '0';
      } else if (segment === part) score += '1';
      else ok = false;
    });
    if (ok && (!best || score > best.score)) best = { route, params, score };
  }
  return best;
}

export interface PortalCallOptions {
  token?: string;
  body?: unknown;
  headers?: Record<string, string>;
  /** The Origin header of a state change; the portal's own pages send ours. */
  origin?: string | null;
}

/** Calls `METHOD /portal/api<path>`, e.g. portalCall('GET', '/v1/apps/app_x/endpoints', { token }). */
export async function portalCall(method: string, path: string, options: PortalCallOptions = {}): Promise<CallResult> {
  const found = match(path.split('?')[0]!);
  const headers = new Headers(options.headers);
  if (options.token) headers.set('cookie', `${PORTAL_COOKIE_NAME}=${options.token}`);
  const origin = options.origin === undefined ? ORIGIN : options.origin;
  if (origin !== null && method !== 'GET') headers.set('origin', origin);
  let body: string | undefined;
  if (options.body !== undefined) {
    body = JSON.stringify(options.body);
    headers.set('content-type', 'application/json');
  }
  if (!found) return { status: 404, headers: new Headers(), body: null, text: '' };
  const module = (await import(found.route.file)) as Record<string, unknown>;
  const handler = module[method] as Handler | undefined;
  if (!handler) return { status: 405, headers: new Headers(), body: null, text: '' };
  const request = new Request(new URL(`${ORIGIN}/portal/api${path}`), { method, headers, body });
  const response = await handler(request, { params: Promise.resolve(found.params) });
  const text = await response.text();
  let parsed: unknown;
  try {
    parsed = text ? JSON.parse(text) : null;
  } catch {
    parsed = text;
  }
  return { status: response.status, headers: response.headers, body: parsed, text };
}

/** A live portal session of `appId`; returns its token (the part of the URL the customer opens). */
export async function portalToken(appId: string, { readOnly = false, expiresInSeconds = 3600 } = {}): Promise<string> {
  const created = await createPortalSession({ appId, readOnly, expiresInSeconds, openUrl: `${ORIGIN}/portal/open` });
  return new URL(created.url).searchParams.get('token')!;
}
