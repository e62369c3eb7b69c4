import { ssoFailed } from './sso-error';

// A provider that hangs must not hold a sign-in (and a Node.js request) open indefinitely.
const TIMEOUT_MS = 10_000;

/** Fetches a JSON object from the provider; any failure is the provider's (provider_error). */
export async function fetchProviderJson(url: string, init: RequestInit = {}): Promise<Record<string, unknown>> {
  let response: Response;
  try {
    response = await fetch(url, { ...init, redirect: 'error', signal: AbortSignal.timeout(TIMEOUT_MS) });
  } catch (error) {
    throw ssoFailed('provider_error', `${url} could not be reached: ${(error as Error).message}`);
  }
  const text = await response.text();
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    body = null;
  }
  if (!response.ok || typeof body !== 'object' || body === null || Array.isArray(body)) {
    throw ssoFailed('provider_error', `${url} answered ${response.status}: ${text.slice(0, 200)}`);
  }
  return body as Record<string, unknown>;
}
