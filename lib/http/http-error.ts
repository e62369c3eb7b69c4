// What the HTTP layer throws for refusals the domain has no part in: missing credentials, a rate limit,
// a body too large to read. Unlike a DomainError it may carry response headers, the ones a client
// needs to act on the refusal (where to authenticate, when to come back). errorResponse answers both
// kinds with the status lib/http/error-status.ts gives their code.
import type { HttpErrorCode } from './error-status';

export class HttpError extends Error {
  constructor(
    readonly code: HttpErrorCode,
    message: string,
    readonly headers?: Record<string, string>,
  ) {
    super(message);
    this.name = 'HttpError';
  }
}

export const unauthorized = (message: string, headers?: Record<string, string>) =>
  new HttpError('unauthorized', message, headers);

/** Retry-After in whole seconds (RFC 9110 delay-seconds), so a client waits instead of hammering. */
export const rateLimited = (message: string, retryAfterSeconds: number) =>
  new HttpError('rate_limited', message, { 'Retry-After': String(retryAfterSeconds) });
