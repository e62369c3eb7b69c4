// One REST operation: method, path, access rule and zod schemas. The same object drives request
// validation in the route wrapper (lib/http/route.ts) and the OpenAPI document (lib/contract/openapi).
import type { z } from 'zod';

export type HttpMethod = 'GET' | 'POST' | 'PATCH' | 'PUT' | 'DELETE';

/** public: no credentials; principal: any key or admin; deployment: admin or a deployment-wide key. */
export type Access = 'public' | 'principal' | 'deployment';

export interface HeaderParameter {
  name: string;
  description: string;
  schema: z.ZodType;
}

export interface Operation<
  P extends z.ZodType | undefined = z.ZodType | undefined,
  Q extends z.ZodType | undefined = z.ZodType | undefined,
  B extends z.ZodType | undefined = z.ZodType | undefined,
> {
  operationId: string;
  method: HttpMethod;
  /** OpenAPI path below /api/v1 for v1 operations, e.g. "/apps/{appId}". */
  path: string;
  summary: string;
  description?: string;
  tag: string;
  access: Access;
  params?: P;
  query?: Q;
  body?: B;
  headers?: HeaderParameter[];
  /** The success status and its body schema; no schema means an empty body. */
  status: number;
  response?: z.ZodType;
  /** Error statuses this operation can answer, for the document. */
  errors: number[];
}

export type AnyOperation = Operation<z.ZodType | undefined, z.ZodType | undefined, z.ZodType | undefined>;

// Operation properties are optional, so their types include undefined; an absent schema parses to undefined.
export type Parsed<S> = [NonNullable<S>] extends [never]
  ? undefined
  : NonNullable<S> extends z.ZodType
    ? z.output<NonNullable<S>>
    : undefined;

export function defineOperation<
  P extends z.ZodType | undefined = undefined,
  Q extends z.ZodType | undefined = undefined,
  B extends z.ZodType | undefined = undefined,
>(operation: Operation<P, Q, B>): Operation<P, Q, B> {
  return operation;
}
