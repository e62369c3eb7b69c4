// The one place that turns a thrown error into an HTTP answer. A DomainError or HttpError carries a
// code, and lib/http/error-status.ts gives its status; a few database outcomes that callers can cause
// are mapped to codes; everything else is an internal error: logged with what is needed to debug it,
// answered with a generic 500 that reveals nothing.
import { randomUUID } from 'node:crypto';
import { Prisma } from '../generated/prisma/client';
import { DomainError } from '../domain/errors';
import { ERROR_STATUS } from './error-status';
import { HttpError } from './http-error';
import { createLogger } from '../runtime/log';

const log = createLogger({ component: 'api' });

export function errorResponse(error: unknown, request: Request): Response {
  const known = toKnownError(error);
  if (known) {
    const details = known instanceof DomainError ? known.details : undefined;
    const headers = known instanceof HttpError ? known.headers : undefined;
    const body = {
      error: { code: known.code, message: known.message, ...(details === undefined ? {} : { details }) },
    };
    return Response.json(body, { status: ERROR_STATUS[known.code], headers });
  }
  const errorId = randomUUID();
  // The path and method only: headers (Authorization, Cookie) and bodies never reach the log.
  log.error('unhandled error in API route', {
    errorId,
    method: request.method,
    path: new URL(request.url).pathname,
    error,
    stack: error instanceof Error ? error.stack : undefined,
  });
  return Response.json(
    { error: { code: 'internal_error', message: `Something went wrong on our side (error id ${errorId})` } },
    { status: ERROR_STATUS.internal_error },
  );
}

function toKnownError(error: unknown): DomainError | HttpError | null {
  if (error instanceof DomainError || error instanceof HttpError) return error;
  if (error instanceof Prisma.PrismaClientKnownRequestError) {
    // P2025: the row to update or delete vanished between our check and the write (a concurrent delete).
    if (error.code === 'P2025') return new DomainError('not_found', 'The resource does not exist');
    if (error.code === 'P2002') return new DomainError('conflict', 'A resource with these values already exists');
  }
  return null;
}
