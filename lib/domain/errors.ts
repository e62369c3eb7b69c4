// The one error type of the domain and the API. Domain functions throw it with the HTTP status and a
// stable snake_case code; lib/http/error-response.ts turns it (and anything else) into the wire shape
// `{ error: { code, message, details } }`. Anything that is not an ApiError is an internal error: it
// is logged and answered with a generic 500 that reveals nothing.

export interface FieldProblem {
  path: string;
  message: string;
}

export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly details?: unknown,
    readonly headers?: Record<string, string>,
  ) {
    super(message);
    this.name = 'ApiError';
  }
}

export const badRequest = (code: string, message: string, details?: unknown) =>
  new ApiError(400, code, message, details);

export const unauthorized = (message = 'Send an API key as "Authorization: Bearer hl_..." or sign in.') =>
  new ApiError(401, 'unauthorized', message);

export const forbidden = (code: string, message: string) => new ApiError(403, code, message);

export const notFound = (what: string, id: string) =>
  new ApiError(404, 'not_found', `${what} ${JSON.stringify(id)} does not exist`);

export const conflict = (code: string, message: string, details?: unknown) => new ApiError(409, code, message, details);

/** 422: the JSON was well-formed, but a value is not acceptable. */
export function invalid(path: string, message: string): ApiError {
  return invalidFields([{ path, message }]);
}

export function invalidFields(problems: FieldProblem[]): ApiError {
  const first = problems[0];
  const message = first ? `${first.path || 'body'}: ${first.message}` : 'The request is invalid';
  return new ApiError(422, 'validation_failed', message, problems);
}
