// What the domain throws when it refuses a request: a stable snake_case code, a message for people and,
// for some codes, details for programs. The codes are part of the public API (clients switch on them,
// the tests assert them), so one is never renamed. The domain knows no HTTP: lib/http/error-status.ts
// holds the one table from code to status, and a code missing there does not compile.

/** Every code a domain function may throw. */
export const DOMAIN_ERROR_CODES = [
  // The id names nothing the caller may see (another app's resource included: it must not learn that
  // it exists).
  'not_found',
  // A value of the body (or a header) is not acceptable; details name each field.
  'validation_failed',
  // A filter of a list or of the stats cannot be answered; details name the parameter.
  'invalid_query',
  'invalid_cursor',
  // Sign-in with an unknown email or a wrong password (one code for both: it reveals no email).
  'invalid_credentials',
  // The request is well-formed, but the resource's state refuses it now. `conflict` is a unique
  // violation nothing more specific caught.
  'conflict',
  'event_type_exists',
  'idempotency_key_reused',
  'delivery_in_flight',
  'delivery_finished',
  'job_finished',
  'issue_resolved',
  'operations_app',
] as const;

export type DomainErrorCode = (typeof DOMAIN_ERROR_CODES)[number];

export interface FieldProblem {
  path: string;
  message: string;
}

export class DomainError extends Error {
  constructor(
    readonly code: DomainErrorCode,
    message: string,
    readonly details?: unknown,
  ) {
    super(message);
    this.name = 'DomainError';
  }
}

export const notFound = (what: string, id: string) =>
  new DomainError('not_found', `${what} ${JSON.stringify(id)} does not exist`);

/** One value is not acceptable; `path` names it the way the caller sent it (`eventTypes.1`). */
export function invalid(path: string, message: string): DomainError {
  return invalidFields([{ path, message }]);
}

export function invalidFields(problems: FieldProblem[]): DomainError {
  const first = problems[0];
  const message = first ? `${first.path || 'body'}: ${first.message}` : 'The request is invalid';
  return new DomainError('validation_failed', message, problems);
}

/** One filter parameter cannot be answered; the message leads with its name, as for `invalid`. */
export const invalidQuery = (path: string, message: string) =>
  new DomainError('invalid_query', `${path}: ${message}`, [{ path, message }]);
