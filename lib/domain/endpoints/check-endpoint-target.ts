// What an endpoint may point at and send. Refused here, at creation, with validation_failed naming the field:
// a clear answer now beats a delivery that fails with blocked_address on every attempt later.
import { getApiSettings } from '../../runtime/api-settings';
import { invalid } from '../errors';
import { checkUrlTarget } from '../webhooks/address-policy';
import { headerProblem, MAX_HEADERS } from '../webhooks/header-problem';
import { isReservedHeader } from '../webhooks/reserved-headers';

/** The normalised URL, or validation_failed. An IP-literal host is judged by the address policy; a DNS name is
 * resolved and checked by the worker at every connection (the answer can change). */
export function checkEndpointUrl(raw: string): string {
  // The URL parser would drop tabs and newlines and encode spaces, so the endpoint would hold another URL
  // than the one given; hookline.http_post refuses them too.
  // eslint-disable-next-line no-control-regex -- control characters are what this refuses
  if (/[\s\x00-\x1f\x7f]/.test(raw)) throw invalid('url', 'must not contain spaces or control characters');
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw invalid('url', `${JSON.stringify(raw.slice(0, 200))} is not a valid URL`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw invalid('url', `must be an http or https URL, got ${url.protocol.slice(0, -1)}`);
  }
  if (url.username || url.password) {
    throw invalid('url', 'must not contain credentials; send them with a custom header instead');
  }
  const settings = getApiSettings();
  const verdict = checkUrlTarget(url, { allowLoopback: settings.allowLoopback, allowPrivate: settings.allowPrivate });
  if (!verdict.allowed) throw invalid('url', `refused: ${verdict.reason}`);
  const host = url.hostname.toLowerCase().replace(/\.$/, '');
  if ((host === 'localhost' || host.endsWith('.localhost')) && !settings.allowLoopback) {
    throw invalid('url', `refused: ${host} is a loopback name; set HOOKLINE_ALLOW_LOOPBACK=true to permit it`);
  }
  return url.href;
}

export function checkEndpointHeaders(headers: Record<string, string>): Record<string, string> {
  if (Object.keys(headers).length > MAX_HEADERS)
    throw invalid('headers', `must not hold more than ${MAX_HEADERS} headers`);
  const seen = new Set<string>();
  for (const [name, value] of Object.entries(headers)) {
    const path = `headers.${name}`;
    const problem = headerProblem(name, value);
    if (problem) throw invalid(path, problem);
    const lower = name.toLowerCase();
    // The worker would silently drop a reserved header (lib/domain/webhooks/reserved-headers.ts); refusing
    // it here tells the operator at once. (hookline.http_post drops it with a NOTICE instead: pg_net
    // accepts it, and an error there would roll back the trigger's insert.)
    if (isReservedHeader(lower)) {
      throw invalid(path, `${name} is set by Hookline and cannot be overridden`);
    }
    if (seen.has(lower)) throw invalid(path, 'is given twice (header names are case-insensitive)');
    seen.add(lower);
  }
  return headers;
}
