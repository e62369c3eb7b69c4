// The one place that turns a thrown error into an HTTP answer. ApiError carries its own status and
// code; a few database outcomes that callers can cause are mapped; everything else is an internal
// error: logged with what is needed to debug it, answered with a generic 500 that reveals nothing.
import { randomUUID } from 'node:crypto';
import { Prisma } from '../generated/prisma/client';
import { ApiError } from '../domain/errors';
import { createLogger } from '../runtime/log';

const log = createLogger({ component: 'api' });

export function errorResponse(error: unknown, request: Request): Response {
  const known = toApiError(error);
  if (known) {
    const body = {
      error: {
        code: known.code,
        message: known.message,
        ...(known.details === undefined ? {} : { details: known.details }),
      },
    };
    return Response.json(body, { status: known.status, headers: known.headers });
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
    { status: 500 },
  );
}

function toApiError(error: unknown): ApiError | null {
  if (error instanceof ApiError) return error;
  if (error instanceof Prisma.PrismaClientKnownRequestError) {
    // P2025: the row to update or delete vanished between our check and the write (a concurrent delete).
    if (error.code === 'P2025') return new ApiError(404, 'not_found', 'The resource does not exist');
    if (error.code === 'P2002') return new ApiError(409, 'conflict', 'A resource with these values already exists');
  }
  return null;
}
