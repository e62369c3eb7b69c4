// The one table from error code to HTTP status. The domain throws codes (lib/domain/errors.ts); the
// HTTP layer adds its own below them (credentials, rate limits, reading the body); errorResponse
// answers each with the status it finds here. The table is typed by the domain's codes, so a code
// added there without a status here does not compile, and HttpError takes only the codes listed here:
// no code can fall through to a 500.
import type { DomainErrorCode } from '../domain/errors';

/** The statuses the API answers errors with. */
type ErrorStatus = 400 | 401 | 403 | 404 | 409 | 413 | 415 | 422 | 429 | 500;

export const ERROR_STATUS = {
  // The domain's codes.
  invalid_query: 400,
  invalid_cursor: 400,
  invalid_credentials: 401,
  second_factor_required: 401,
  sso_failed: 401,
  invitation_invalid: 404,
  last_owner: 409,
  // Also what an app-limited key gets for another app's resources: it must not learn they exist.
  not_found: 404,
  conflict: 409,
  event_type_exists: 409,
  idempotency_key_reused: 409,
  delivery_in_flight: 409,
  delivery_finished: 409,
  job_finished: 409,
  issue_resolved: 409,
  operations_app: 409,
  validation_failed: 422,

  // The HTTP layer's own (lib/http/http-error.ts).
  invalid_json: 400,
  unauthorized: 401,
  key_not_allowed: 403,
  // The caller's role lacks the permission the operation needs (lib/http/permissions.ts).
  forbidden: 403,
  csrf_rejected: 403,
  // HOOKLINE_PASSWORD_SIGN_IN=false: members sign in by SSO only.
  password_sign_in_disabled: 403,
  portal_read_only: 403,
  payload_too_large: 413,
  unsupported_media_type: 415,
  rate_limited: 429,
  // Anything that is not one of the errors above: logged, and answered without detail.
  internal_error: 500,
} as const satisfies Record<DomainErrorCode, ErrorStatus> & Record<string, ErrorStatus>;

export type ErrorCode = keyof typeof ERROR_STATUS;

/**
 * The codes only the HTTP layer throws: those of the table the domain does not know, except
 * internal_error, which errorResponse alone answers.
 */
export type HttpErrorCode = Exclude<ErrorCode, DomainErrorCode | 'internal_error'>;
