// What an endpoint may point at and send. Refused here, at creation, with validation_failed naming the field:
// a clear answer now beats a delivery that fails with blocked_address on every attempt later.
import { getApiSettings } from '../../runtime/api-settings';
import { invalid } from '../errors';
import { checkUrlTarget } from '../webhooks/address-policy';
import { isReservedHeader } from '../webhooks/reserved-headers';

/** The normalised URL, or validation_failed. An IP-literal host is judged by the address policy; a DNS name is
 * resolved and checked by the worker at every connection (the answer can change). */
export function checkEndpointUrl(raw: string): string {
  let url: URL;
  try {
    url = new URL(raw.trim());
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

// Far more than any receiver needs; every header is sent with every attempt.
const MAX_HEADERS = 50;

// RFC 9110 token characters.
const HEADER_NAME = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;

export function checkEndpointHeaders(headers: Record<string, string>): Record<string, string> {
  if (Object.keys(headers).length > MAX_HEADERS)
    throw invalid('headers', `must not hold more than ${MAX_HEADERS} headers`);
  const seen = new Set<string>();
  for (const [name, value] of Object.entries(headers)) {
    const path = `headers.${name}`;
    if (!HEADER_NAME.test(name))
      throw invalid(path, "is not a valid header name (letters, digits and !#$%&'*+.^_`|~- only)");
    const lower = name.toLowerCase();
    // The worker would silently drop a reserved header (lib/domain/webhooks/reserved-headers.ts); refusing
    // it here tells the operator at once.
    if (isReservedHeader(lower)) {
      throw invalid(path, `${name} is set by Hookline and cannot be overridden`);
    }
    if (seen.has(lower)) throw invalid(path, 'is given twice (header names are case-insensitive)');
    seen.add(lower);
    // CR/LF would split the header (request smuggling); other control characters are refused by
    // undici when sending, so they are refused before they are stored.
    if (/[\r\n]/.test(value)) throw invalid(path, 'must not contain CR or LF');
    if ([...value].some(isControlCharacter)) throw invalid(path, 'must not contain control characters');
  }
  return headers;
}

function isControlCharacter(character: string): boolean {
  const code = character.charCodeAt(0);
  return (code < 0x20 && code !== 0x09) || code === 0x7f;
}
