// Turns what went wrong in an attempt into a short, stable error class for the dashboard and the
// rollups, plus the precise message for the attempt log. pg_net records only strings such as
// "Server returned nothing"; an operator needs to tell a timeout from a refused connection at a glance.
export type ErrorClass =
  | 'timeout'
  | 'connect_refused'
  | 'connection_reset'
  | 'empty_reply'
  | 'dns'
  | 'tls'
  | 'blocked_address'
  | 'invalid_url'
  | 'invalid_header'
  | 'http_3xx'
  | 'http_4xx'
  | 'http_5xx'
  | 'network';

export class BlockedAddressError extends Error {
  readonly code = 'HOOKLINE_BLOCKED_ADDRESS';
  constructor(message: string) {
    super(message);
    this.name = 'BlockedAddressError';
  }
}

/**
 * A header the HTTP client would refuse while building the request. Found before the request reaches
 * the endpoint's pool: undici's own refusal left a connection of the pool marked busy for good.
 */
export class InvalidHeaderError extends Error {
  readonly code = 'HOOKLINE_INVALID_HEADER';
  constructor(message: string) {
    super(message);
    this.name = 'InvalidHeaderError';
  }
}

export class DeadlineError extends Error {
  readonly code = 'HOOKLINE_DEADLINE';
  constructor(readonly timeoutMs: number) {
    super(`no complete response within ${timeoutMs} ms`);
    this.name = 'DeadlineError';
  }
}

export function classifyStatus(status: number): ErrorClass | null {
  if (status >= 200 && status < 300) return null;
  if (status >= 300 && status < 400) return 'http_3xx';
  if (status >= 400 && status < 500) return 'http_4xx';
  return 'http_5xx';
}

const codeClasses: Record<string, ErrorClass> = {
  HOOKLINE_BLOCKED_ADDRESS: 'blocked_address',
  HOOKLINE_DEADLINE: 'timeout',
  UND_ERR_CONNECT_TIMEOUT: 'timeout',
  UND_ERR_HEADERS_TIMEOUT: 'timeout',
  UND_ERR_BODY_TIMEOUT: 'timeout',
  ETIMEDOUT: 'timeout',
  ECONNREFUSED: 'connect_refused',
  ECONNRESET: 'connection_reset',
  EPIPE: 'connection_reset',
  ENOTFOUND: 'dns',
  EAI_AGAIN: 'dns',
  EAI_NONAME: 'dns',
  EAI_NODATA: 'dns',
  ERR_INVALID_URL: 'invalid_url',
  HOOKLINE_INVALID_HEADER: 'invalid_header',
  EHOSTUNREACH: 'network',
  ENETUNREACH: 'network',
};

/** Walks the cause chain; undici wraps socket errors in its own. */
function* causes(error: unknown): Generator<Error & { code?: string }> {
  let current: unknown = error;
  for (let depth = 0; current instanceof Error && depth < 5; depth++) {
    yield current as Error & { code?: string };
    current = (current as { cause?: unknown }).cause;
  }
}

export function classifyError(error: unknown, context: { receivedHeaders: boolean }): ErrorClass {
  // The most specific cause wins: undici wraps ECONNRESET in its own UND_ERR_SOCKET, so every cause
  // is looked at before the generic socket error decides.
  const chain = [...causes(error)];
  for (const cause of chain) {
    const mapped = codeClasses[cause.code ?? ''];
    if (mapped) return mapped;
  }
  for (const cause of chain) {
    const code = cause.code ?? '';
    if (code.startsWith('ERR_TLS') || code.startsWith('ERR_SSL') || code.includes('CERT') || code === 'EPROTO') {
      return 'tls';
    }
    if (/certificate|ssl|tls/i.test(cause.message) && !code.startsWith('UND_ERR')) return 'tls';
  }
  // The peer closed the socket before a status line: curl's "Server returned nothing (no headers,
  // no data)"; after the headers it is a reset in the middle of the body.
  if (chain.some((cause) => cause.code === 'UND_ERR_SOCKET')) {
    return context.receivedHeaders ? 'connection_reset' : 'empty_reply';
  }
  return 'network';
}

export function describeError(error: unknown): string {
  const parts: string[] = [];
  for (const cause of causes(error)) {
    const text = cause.code ? `${cause.message} (${cause.code})` : cause.message;
    if (!parts.includes(text)) parts.push(text);
  }
  return parts.join(': ') || String(error);
}
