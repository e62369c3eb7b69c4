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
  // The password was right, and the member has a second factor: send the authenticator's code too.
  'second_factor_required',
  // A single sign-on callback refused (details.reason: lib/domain/auth/sso/sso-error.ts); the
  // browser sees the sign-in page with the reason, not this code.
  'sso_failed',
  // An invitation link that is unknown, expired, revoked or used already (one code for all four).
  'invitation_invalid',
  // A change that would leave no owner (demoting or removing the last one).
  'last_owner',
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
  const bounded = problems.map(withBoundedPath);
  return new DomainError('validation_failed', leadingProblem(bounded, 'body'), bounded);
}

/** Query parameters that cannot be answered; the message leads with the first one's name. */
export function invalidQueryFields(problems: FieldProblem[]): DomainError {
  const bounded = problems.map(withBoundedPath);
  return new DomainError('invalid_query', leadingProblem(bounded, 'query'), bounded);
}

const withBoundedPath = (problem: FieldProblem): FieldProblem => ({ ...problem, path: boundedPath(problem.path) });

function leadingProblem(problems: FieldProblem[], whole: string): string {
  const first = problems[0];
  return first ? `${first.path || whole}: ${first.message}` : 'The request is invalid';
}

// A path is the caller's own keys joined by ".": through the 64 levels a body may nest, or with one key
// of 100,000 characters, it made a 422 of ~10 KB (and more, 20 problems a time) that explains no more
// than its first segments do. Kept: at most 12 segments and 120 characters, then "…".
const PATH_MAX_SEGMENTS = 12;
const PATH_MAX_CHARS = 120;

export function boundedPath(path: string): string {
  const segments = path.split('.');
  if (segments.length <= PATH_MAX_SEGMENTS && path.length <= PATH_MAX_CHARS) return path;
  let kept = segments.slice(0, PATH_MAX_SEGMENTS).join('.');
  if (kept.length > PATH_MAX_CHARS) {
    kept = kept.slice(0, PATH_MAX_CHARS);
    // Never half a UTF-16 pair: a lone surrogate is not text a client can show.
    if (/[\uD800-\uDBFF]$/.test(kept)) kept = kept.slice(0, -1);
  }
  return `${kept}…`;
}

/** One filter parameter cannot be answered; the message leads with its name, as for `invalid`. */
export const invalidQuery = (path: string, message: string) => invalidQueryFields([{ path, message }]);
