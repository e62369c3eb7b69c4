// The OpenAPI 3.1 document of /api/v1, generated from the operation registry and its zod schemas
// (z.toJSONSchema emits JSON Schema 2020-12, the dialect of OpenAPI 3.1).
import { z } from 'zod';
import type { AnyOperation } from '../operation';
import { errorBody } from '../schemas/common';
import { OPERATIONAL_EVENT_TYPES, operationalEventEnvelopes } from '../schemas/operations';
import { operations } from '../operations';
import { nameListResponse, namedSchemas } from './schema-registry';

const STATUS_TEXT: Record<number, string> = {
  400: 'Malformed JSON or invalid query parameters',
  401: 'Missing, unknown or revoked credentials',
  403: 'Not allowed for these credentials (app-limited key, or CSRF check of a session)',
  404: 'No such resource in the apps these credentials can see',
  409: 'Conflict with the current state',
  413: 'Body larger than HOOKLINE_MAX_PAYLOAD_BYTES',
  415: 'Body is not application/json',
  422: 'Valid JSON with invalid values; details lists { path, message }',
  429: 'Rate limited; see Retry-After',
};

type JsonSchema = Record<string, unknown>;

const COMPONENT = '#/components/schemas/';
const noNames = z.registry<{ id: string }>();

/**
 * The JSON Schema of a request or response. In responses, a schema named in schema-registry.ts becomes
 * a $ref to #/components/schemas/<Name> and its body is added to `components` (zod writes it under
 * $defs with #/$defs/ refs; those are moved and rewritten). Descriptions live in zod's global registry
 * and are copied over, since a named conversion reads metadata from the names registry.
 */
function jsonSchema(schema: z.ZodType, io: 'input' | 'output', components?: Record<string, JsonSchema>): JsonSchema {
  const converted = z.toJSONSchema(schema, {
    io,
    unrepresentable: 'any',
    metadata: io === 'output' && components ? namedSchemas : noNames,
    override: (ctx) => {
      const description = z.globalRegistry.get(ctx.zodSchema as unknown as z.ZodType)?.description;
      if (description && ctx.jsonSchema.description === undefined) ctx.jsonSchema.description = description;
    },
  }) as JsonSchema;
  const {
    $schema: _dialect,
    $defs,
    ...rest
  } = JSON.parse(JSON.stringify(converted).replaceAll('"#/$defs/', `"${COMPONENT}`)) as JsonSchema & {
    $defs?: Record<string, JsonSchema>;
  };
  for (const [name, body] of Object.entries($defs ?? {})) components![name] ??= body;
  return rest;
}

function objectShape(schema: z.ZodType | undefined): Record<string, z.ZodType> {
  if (!schema) return {};
  return (schema as unknown as { shape?: Record<string, z.ZodType> }).shape ?? {};
}

function operationObject(operation: AnyOperation, components: Record<string, JsonSchema>) {
  const parameters = [
    ...Object.entries(objectShape(operation.params)).map(([name, schema]) => ({
      name,
      in: 'path',
      required: true,
      schema: jsonSchema(schema, 'input'),
    })),
    ...Object.entries(objectShape(operation.query)).map(([name, schema]) => {
      const { description, ...rest } = jsonSchema(schema, 'input');
      return { name, in: 'query', required: !schema.safeParse(undefined).success, description, schema: rest };
    }),
    ...(operation.headers ?? []).map((header) => ({
      name: header.name,
      in: 'header',
      required: false,
      description: header.description,
      schema: jsonSchema(header.schema, 'input'),
    })),
  ];
  if (operation.response) nameListResponse(operation.response);
  const success = operation.response
    ? {
        description: 'OK',
        content: { 'application/json': { schema: jsonSchema(operation.response, 'output', components) } },
      }
    : { description: 'No content' };
  const errors = Object.fromEntries(
    operation.errors.map((status) => [status, { $ref: `#/components/responses/Error${status}` }]),
  );
  return {
    operationId: operation.operationId,
    summary: operation.summary,
    ...(operation.description ? { description: operation.description } : {}),
    tags: [operation.tag],
    ...(parameters.length ? { parameters } : {}),
    ...(operation.body
      ? {
          requestBody: {
            required: true,
            content: { 'application/json': { schema: jsonSchema(operation.body, 'input') } },
          },
        }
      : {}),
    responses: { [operation.status]: success, ...errors, 500: { $ref: '#/components/responses/Error500' } },
    ...(operation.access === 'public' ? { security: [] } : {}),
  };
}

export function buildOpenApiDocument() {
  const paths: Record<string, Record<string, unknown>> = {};
  const schemas: Record<string, JsonSchema> = {};
  // Named Error: every error response refers to it.
  jsonSchema(errorBody, 'output', schemas);
  for (const operation of Object.values(operations) as AnyOperation[]) {
    (paths[operation.path] ??= {})[operation.method.toLowerCase()] = operationObject(operation, schemas);
  }
  // Operational events (issue 14): what Hookline POSTs to operational endpoints, one webhook per type,
  // each body a named component. A payload template replaces the body with the rendered template.
  const webhooks: Record<string, unknown> = {};
  for (const type of OPERATIONAL_EVENT_TYPES) {
    webhooks[type] = {
      post: {
        operationId: `operationalEvent_${type.replace(/[.]/g, '_')}`,
        summary: `Operational event ${type}`,
        tags: ['Operational events'],
        description:
          'Signed with Standard Webhooks headers (webhook-id, webhook-timestamp, webhook-signature) by the ' +
          "operational endpoint's secret, retried like every delivery.",
        requestBody: {
          required: true,
          content: { 'application/json': { schema: jsonSchema(operationalEventEnvelopes[type], 'output', schemas) } },
        },
        responses: { 200: { description: 'Any 2xx acknowledges the event' } },
      },
    };
  }
  const errorResponse = (description: string) => ({
    description,
    content: { 'application/json': { schema: { $ref: '#/components/schemas/Error' } } },
  });
  return {
    openapi: '3.1.0',
    info: {
      title: 'Hookline REST API',
      version: '1.0.0',
      description:
        'Reliable outbound webhooks from PostgreSQL. Authenticate with "Authorization: Bearer hl_..." ' +
        '(an API key) or the dashboard session cookie. Lists are newest first with cursor pagination.',
    },
    servers: [{ url: '/api/v1' }],
    security: [{ apiKey: [] }, { session: [] }],
    paths,
    webhooks,
    components: {
      securitySchemes: {
        apiKey: { type: 'http', scheme: 'bearer', description: 'An API key, hl_...' },
        session: { type: 'apiKey', in: 'cookie', name: 'hookline_session' },
      },
      schemas: Object.fromEntries(Object.entries(schemas).sort(([a], [b]) => a.localeCompare(b))),
      responses: {
        ...Object.fromEntries(
          Object.entries(STATUS_TEXT).map(([status, text]) => [`Error${status}`, errorResponse(text)]),
        ),
        Error500: errorResponse('Internal error; the message carries an error id found in the server log'),
      },
    },
  };
}
