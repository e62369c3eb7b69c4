// The dashboard's only way to the server: same-origin fetches to the public REST API, authenticated by
// the admin session cookie. The browser adds the Origin header to every POST/PATCH/DELETE, which the
// API's CSRF check requires for cookie-authenticated state changes.

export interface ApiErrorDetail {
  path: string;
  message: string;
}

/**
 * A request to the API that failed: an answer in its `{ error: { code, message, details } }` shape, or
 * no answer at all (status 0, code network_error). Not the server's ApiError (lib/domain/errors.ts),
 * which is what a route throws before it becomes that answer.
 */
export class ApiRequestError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly details?: unknown,
  ) {
    super(message);
    this.name = 'ApiRequestError';
  }
}

export type QueryValue = string | number | boolean | null | undefined;

export interface ApiRequest {
  method?: 'GET' | 'POST' | 'PATCH' | 'PUT' | 'DELETE';
  query?: Record<string, QueryValue>;
  body?: unknown;
  signal?: AbortSignal;
}

export function buildQueryString(query: Record<string, QueryValue> | undefined): string {
  if (!query) return '';
  const params = new URLSearchParams();
  for (const [name, value] of Object.entries(query)) {
    if (value === undefined || value === null || value === '') continue;
    params.set(name, String(value));
  }
  const text = params.toString();
  return text ? `?${text}` : '';
}

// The customer portal (app/portal) reuses the dashboard's query factories and components; its pages
// reach the same REST paths below /portal/api, where the portal cookie (Path=/portal) is sent and the
// portal's session, not the admin's, decides (lib/http/portal/authenticate-portal-request.ts).
function portalPrefix(path: string): string {
  if (typeof window === 'undefined' || !path.startsWith('/api/')) return '';
  return isPortalPage() ? '/portal' : '';
}

/** Whether this page is the customer portal's (below /portal), not the admin dashboard's. */
export function isPortalPage(): boolean {
  return /^\/portal(\/|$)/.test(window.location.pathname);
}

export async function apiFetch<T>(path: string, request: ApiRequest = {}): Promise<T> {
  const { method = 'GET', query, body, signal } = request;
  let response: Response;
  try {
    response = await fetch(`${portalPrefix(path)}${path}${buildQueryString(query)}`, {
      method,
      signal,
      credentials: 'same-origin',
      headers:
        body === undefined
          ? { accept: 'application/json' }
          : { accept: 'application/json', 'content-type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
      cache: 'no-store',
    });
  } catch (error) {
    if ((error as Error).name === 'AbortError') throw error;
    throw new ApiRequestError(0, 'network_error', `The server did not answer (${(error as Error).message}).`);
  }
  if (response.status === 204) return undefined as T;
  const text = await response.text();
  let parsed: unknown = undefined;
  if (text) {
    try {
      parsed = JSON.parse(text);
    } catch {
      parsed = undefined;
    }
  }
  if (!response.ok) {
    const error = (parsed as { error?: { code?: string; message?: string; details?: unknown } } | undefined)?.error;
    const requestError = new ApiRequestError(
      response.status,
      error?.code ?? `http_${response.status}`,
      error?.message ?? `The server answered ${response.status} ${response.statusText}.`,
      error?.details,
    );
    // The API's message already names the first field ("statusCode: Invalid input"): add only the others.
    const details = Array.isArray(requestError.details) ? (requestError.details as ApiErrorDetail[]) : [];
    const others = details
      .map((detail) => `${detail.path}: ${detail.message}`)
      .filter((line) => line !== requestError.message);
    if (others.length) requestError.message = `${requestError.message} (${others.join('; ')})`;
    throw requestError;
  }
  return parsed as T;
}
