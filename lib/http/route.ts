// The route handler wrapper: every REST route is `route(operation, handler)`. It authenticates,
// applies the rate limit and app scoping, validates path, query and body with the operation's zod
// schemas, calls one domain function and sends its result (outside production, after checking it
// against the operation's response schema); every failure goes through errorResponse.
import { z } from 'zod';
import { authenticateRequest } from './auth/authenticate-request';
import { visibleAppIds, type Principal } from '../domain/auth/principal';
import { assertMayCall, assertMayCallOnOperationsApp } from './permissions';
import { OPERATIONS_APP_ID } from '../domain/operational-events/operations-app';
import { DomainError, invalidFields, invalidQueryFields, notFound } from '../domain/errors';
import { HttpError, rateLimited } from './http-error';
import { assertPortalMayCall } from './portal/portal-operations';
import { getApiSettings } from '../runtime/api-settings';
import { errorResponse } from './error-response';
import type { AnyOperation, Parsed } from '../contract/operation';
import { takeToken } from './rate-limit';
import { readJsonBody, stringProblem } from './read-json-body';
import { withReadAfter } from '../database/read-replica';
import { markWritten, readAfterOf } from './read-after';
import { withAuditContext } from '../domain/audit/audit-context';
import { auditActorOf } from '../domain/audit/audit-actor';
import { remoteAddressOf } from './remote-address';

export interface RouteContext<Op extends AnyOperation> {
  request: Request;
  principal: Op['access'] extends 'public' ? Principal | null : Principal;
  params: Parsed<Op['params']>;
  query: Parsed<Op['query']>;
  body: Parsed<Op['body']>;
}

// What Next.js passes as the second argument (params is a Promise since Next 15).
export interface NextRouteArgs {
  params: Promise<Record<string, string | string[] | undefined>>;
}

export function route<Op extends AnyOperation>(
  operation: Op,
  handler: (context: RouteContext<Op>) => Promise<unknown>,
) {
  return async (request: Request, args?: NextRouteArgs): Promise<Response> => {
    try {
      const rawParams = (await args?.params) ?? {};
      const params = parseParams(operation, rawParams);
      const principal = operation.access === 'public' ? null : await authorize(operation, request, params);
      const query = parseQuery(operation, request);
      const body = await parseBody(operation, request);
      // Reads that may lag see at least what this client last wrote (lib/http/read-after.ts).
      // Every change the handler makes records who made it and from where (lib/domain/audit).
      const audit = { actor: auditActorOf(principal), remoteAddress: remoteAddressOf(request) };
      const result = await withReadAfter(readAfterOf(request), () =>
        withAuditContext(audit, () => handler({ request, principal, params, query, body } as RouteContext<Op>)),
      );
      const response = toResponse(operation, result);
      return isChange(request) && response.ok ? await markWritten(response, request) : response;
    } catch (error) {
      return errorResponse(error, request);
    }
  };
}

function toResponse(operation: AnyOperation, result: unknown): Response {
  if (result instanceof Response) return result;
  if (!operation.response) return new Response(null, { status: operation.status });
  if (process.env.NODE_ENV !== 'production') assertResponseMatchesContract(operation, operation.response, result);
  return Response.json(result, { status: operation.status });
}

const isChange = (request: Request) => request.method !== 'GET' && request.method !== 'HEAD';

function parseParams(operation: AnyOperation, raw: Record<string, string | string[] | undefined>): unknown {
  if (!operation.params) return undefined;
  const parsed = operation.params.safeParse(raw);
  const values = Object.values(raw).flat();
  if (!parsed.success || values.some((value) => typeof value === 'string' && stringProblem(value))) {
    throw new DomainError('not_found', 'No resource has this id');
  }
  return parsed.data;
}

async function authorize(operation: AnyOperation, request: Request, params: unknown): Promise<Principal> {
  const principal = await authenticateRequest(request);
  const settings = getApiSettings();
  const waitSeconds = await takeToken(principal.id, settings.rateLimitPerSecond);
  if (waitSeconds > 0) {
    throw rateLimited(
      `More than ${settings.rateLimitPerSecond} requests per second with these credentials (HOOKLINE_API_RATE_LIMIT); retry after ${waitSeconds} s`,
      waitSeconds,
    );
  }
  // An app-limited key, or a member held to some apps, must not learn that another app's resources
  // exist: 404, like an unknown id.
  const appId = (params as { appId?: string } | undefined)?.appId;
  const visible = visibleAppIds(principal);
  if (appId !== undefined && visible !== null && !visible.includes(appId)) {
    throw notFound('App', appId);
  }
  if (principal.kind === 'portal') assertPortalMayCall(operation, principal.readOnly);
  if (operation.access === 'deployment' && visible !== null) {
    throw new HttpError(
      'key_not_allowed',
      principal.kind === 'admin'
        ? 'Your role is held to some apps; this operation concerns the whole deployment'
        : 'This API key is limited to one app; use a deployment-wide key or the dashboard',
    );
  }
  // What the role may do (lib/http/permissions.ts): after the app checks, so another app's resources
  // stay a 404 rather than a 403 that would confirm they exist.
  assertMayCall(operation, principal);
  if (appId === OPERATIONS_APP_ID) assertMayCallOnOperationsApp(operation, principal);
  return principal;
}

function parseQuery(operation: AnyOperation, request: Request): unknown {
  if (!operation.query) return undefined;
  const raw: Record<string, string> = {};
  for (const [name, value] of new URL(request.url).searchParams) {
    const problem = stringProblem(value);
    if (problem) throw invalidQueryFields([{ path: name, message: problem }]);
    if (!(name in raw)) raw[name] = value;
  }
  const parsed = operation.query.safeParse(raw);
  if (!parsed.success) throw invalidQueryFields(toProblems(parsed.error));
  return parsed.data;
}

// An operation that takes no body (enable, replay, cancel, DELETE, ...) reads one all the same: a 2 MB
// or malformed body is the caller's mistake and gets the 413 or 400 any other route gives, not a 200
// that hides it. An empty body or `{}` is fine; fields it would ignore are refused (422), as the
// strict body schemas of the other operations refuse unknown fields.
const NO_BODY = z.strictObject({});

async function parseBody(operation: AnyOperation, request: Request): Promise<unknown> {
  if (!operation.body && (operation.method === 'GET' || request.body === null)) return undefined;
  const schema = operation.body ?? NO_BODY;
  const value = await readJsonBody(request, getApiSettings().maxPayloadBytes);
  const parsed = schema.safeParse(value);
  if (!parsed.success) throw invalidFields(toProblems(parsed.error));
  return operation.body ? parsed.data : undefined;
}

function toProblems(error: z.ZodError) {
  return error.issues.slice(0, 20).map((issue) => ({ path: issue.path.map(String).join('.'), message: issue.message }));
}

/**
 * A handler's answer that its operation's response schema does not describe: what the OpenAPI document,
 * the generated client and the dashboard's types promise, the route no longer sends.
 */
class ResponseContractError extends Error {
  constructor(operation: AnyOperation, problems: string[]) {
    super(
      `${operation.operationId} answered ${operation.status} with a body its response schema does not describe: ${problems.join('; ')}`,
    );
    this.name = 'ResponseContractError';
  }
}

// Outside production every answer is checked before it is sent, so a handler drifting from the contract
// fails the first test (or `next dev` page) that reaches it: a 500, logged by errorResponse with the
// operation and the field. Production skips the check: it serializes every answer twice and walks it
// (a page of 250 deliveries: ~1.5 ms on top of the ~1 ms Response.json takes, measured on the 2-core
// dev machine), and a drift found there could only turn an answer a client may still use into a 500.
function assertResponseMatchesContract(operation: AnyOperation, schema: z.ZodType, result: unknown): void {
  // The schema describes the JSON a client receives (timestamps as ISO strings), not the handler's
  // value (Dates from Prisma): check the value after the JSON round trip Response.json makes.
  const sent: unknown = result === undefined ? undefined : JSON.parse(JSON.stringify(result));
  const parsed = schema.safeParse(sent);
  if (!parsed.success) {
    throw new ResponseContractError(
      operation,
      parsed.error.issues
        .slice(0, 5)
        .map((issue) => `${issue.path.map(String).join('.') || '(body)'}: ${issue.message}`),
    );
  }
  const undeclared = undeclaredField(sent, parsed.data);
  if (undeclared) throw new ResponseContractError(operation, [`${undeclared}: not in the schema`]);
}

/**
 * The first field of `sent` that the schema dropped from `kept`. zod objects strip undeclared keys
 * instead of refusing them, but the document declares the response objects closed
 * (additionalProperties: false), so a field the schema does not name (a leaked column, a renamed
 * field) is as much a drift as a wrong type. Fields typed unknown or as records keep every key.
 */
function undeclaredField(sent: unknown, kept: unknown, path: string[] = []): string | null {
  if (typeof sent !== 'object' || sent === null || typeof kept !== 'object' || kept === null) return null;
  for (const [key, value] of Object.entries(sent)) {
    const at = [...path, key];
    if (!Object.hasOwn(kept, key)) return at.join('.');
    const found = undeclaredField(value, (kept as Record<string, unknown>)[key], at);
    if (found) return found;
  }
  return null;
}
