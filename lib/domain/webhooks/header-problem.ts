// What a custom request header may be, whichever way an endpoint is made: the REST API
// (lib/domain/endpoints/check-endpoint-target.ts) and hookline.http_post's headers (hookline.header_problem,
// prisma/functions/header-problem.sql). test/api/ways-in-agree.test.ts runs the same headers through
// both. A header undici refuses to send fails every attempt of the endpoint until it is dead (~28 hours on
// the default schedule), so it is refused where it comes in instead.

// Far more than any receiver needs; every header is sent with every attempt.
export const MAX_HEADERS = 50;
export const MAX_HEADER_NAME_LENGTH = 256;
export const MAX_HEADER_VALUE_LENGTH = 4096;

// RFC 9110 token characters.
const HEADER_NAME = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;

/** Why this header cannot be sent, or null. Reserved names and duplicates are the caller's to judge. */
export function headerProblem(name: string, value: string): string | null {
  if (name.length > MAX_HEADER_NAME_LENGTH) return `name must be at most ${MAX_HEADER_NAME_LENGTH} characters`;
  if (!HEADER_NAME.test(name)) return "is not a valid header name (letters, digits and !#$%&'*+.^_`|~- only)";
  if (value.length > MAX_HEADER_VALUE_LENGTH) return `must be at most ${MAX_HEADER_VALUE_LENGTH} characters`;
  // CR/LF would split the header (request smuggling); undici refuses the other control characters when
  // sending. A tab is allowed inside a value (RFC 9110 field-value).
  if (/[\r\n]/.test(value)) return 'must not contain CR or LF';
  // eslint-disable-next-line no-control-regex -- control characters are what this refuses
  if (/[\x00-\x08\x0b-\x1f\x7f]/.test(value)) return 'must not contain control characters';
  // HTTP/1.1 sends a value as bytes, one per character (Latin-1): undici refuses any character above
  // U+00FF ("Łódź", an en dash, a smart quote, an emoji) while building the request, and such a refusal
  // left the endpoint's connection marked busy; max_concurrency of them jammed every later delivery to it.
  // Without the u flag an emoji is two UTF-16 units, both in this range.
  if (/[\u0100-\uffff]/.test(value)) {
    return 'must not contain characters above U+00FF (an HTTP header value is Latin-1 bytes: percent-encode or base64 other text)';
  }
  return null;
}
