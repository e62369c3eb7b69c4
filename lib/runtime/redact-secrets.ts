// What the logger does to every message, field and error before it is written: secrets are replaced,
// by the name of the field that holds them and by their look inside any string (an error message that
// quotes a row, a URL with a password, a Cookie header). Applied to every line, so a future call that
// logs the wrong thing by accident still writes no secret.
export const REDACTED = '[redacted]';

// Field names whose values are secrets whatever they look like: `password`, `adminPassword`,
// `secret`, `signingSecrets`, `token`, `sessionToken`, `apiKey`, `api_key`, `authorization`, `cookie`,
// `set-cookie`. Matched on the end of the name so `passwordHash`-like derived values (hashes, prefixes,
// counts such as `tokens`) stay readable.
const SECRET_FIELD = /(?:password|passwd|secrets?|token|api[-_]?key|authorization|cookie|credentials?)$/i;

const SECRET_PATTERNS: [RegExp, string][] = [
  // Authorization: Bearer … (whatever the token looks like).
  [/\b(Bearer\s+)[A-Za-z0-9._~+/=-]+/gi, `$1${REDACTED}`],
  // API keys: "hl_" and 43 characters; the first 8 are shown in lists anyway and identify the key.
  [/\b(hl_[A-Za-z0-9_-]{8})[A-Za-z0-9_-]+/g, `$1${REDACTED}`],
  // Customer portal session tokens ("hlp_" and 43 characters), in a portal URL or anywhere else.
  [/\bhlp_[A-Za-z0-9_-]+/g, `hlp_${REDACTED}`],
  // Endpoint signing secrets.
  [/\bwhsec_[A-Za-z0-9+/=_-]+/g, `whsec_${REDACTED}`],
  // A password inside a URL: postgresql://user:password@host.
  [/\b([a-z][a-z0-9+.-]*:\/\/[^\s:/@]*:)[^\s@/]+@/gi, `$1${REDACTED}@`],
  // The session cookie, in a Cookie or Set-Cookie header.
  [/\b(hookline_session=)[^\s;,"']+/g, `$1${REDACTED}`],
  // The customer portal's session cookie.
  [/\b(hookline_portal=)[^\s;,"']+/g, `$1${REDACTED}`],
  // password=…, access_token=…, "password": "…" in free text (query strings, libpq strings, JSON). A
  // bare "secret: 42" in prose is left alone.
  [
    /\b([\w-]*?(?:password|passwd|pwd|secret|token|api[-_]?key)(?:\s*=\s*|["']\s*:\s*)["']?)(?!\[redacted\])[^\s"'&;,}]+/gi,
    `$1${REDACTED}`,
  ],
];

/** The string with every secret it contains replaced. */
export function redactString(text: string): string {
  let result = text;
  for (const [pattern, replacement] of SECRET_PATTERNS) result = result.replace(pattern, replacement);
  return result;
}

const MAX_DEPTH = 8;

/**
 * A copy of `value` safe to log: secret-named fields replaced, every string redacted, errors reduced
 * to name, message, code and cause (their stack is left out, as before: the error id and message find
 * it in the code). Cycles and depth beyond 8 are cut rather than followed.
 */
export function redactValue(value: unknown, depth = 0, seen: WeakSet<object> = new WeakSet()): unknown {
  if (typeof value === 'string') return redactString(value);
  if (value === null || typeof value !== 'object') return typeof value === 'bigint' ? value.toString() : value;
  if (seen.has(value)) return '[circular]';
  if (depth >= MAX_DEPTH) return '[too deep]';
  seen.add(value);
  if (value instanceof Error) {
    const withCode = value as Error & { code?: unknown; cause?: unknown };
    const cause = withCode.cause === undefined ? undefined : redactValue(withCode.cause, depth + 1, seen);
    return {
      name: value.name,
      message: redactString(value.message),
      ...(withCode.code === undefined ? {} : { code: redactValue(withCode.code, depth + 1, seen) }),
      ...(cause === undefined ? {} : { cause }),
    };
  }
  if (value instanceof Date) return value.toISOString();
  if (Array.isArray(value)) return value.map((item) => redactValue(item, depth + 1, seen));
  const result: Record<string, unknown> = {};
  for (const [key, item] of Object.entries(value)) {
    result[key] = isSecretField(key, item) ? REDACTED : redactValue(item, depth + 1, seen);
  }
  return result;
}

function isSecretField(key: string, value: unknown): boolean {
  if (value === null || value === undefined || typeof value === 'number' || typeof value === 'boolean') return false;
  return SECRET_FIELD.test(key);
}
