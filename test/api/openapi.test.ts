/* eslint-disable @typescript-eslint/no-explicit-any -- these tests walk an untyped JSON document */
import { Validator } from '@seriousme/openapi-schema-validator';
import { beforeAll, describe, expect, it } from 'vitest';
import { call, listRouteFiles, setUpApiTest } from './support/api';

const METHODS = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'] as const;

let document: any;

beforeAll(async () => {
  await setUpApiTest();
  const response = await call('GET', '/v1/openapi.json');
  expect(response.status).toBe(200);
  expect(response.headers.get('content-type')).toContain('application/json');
  document = response.body;
});

function openApiPath(dir: string): string {
  return dir.replace(/^\/v1/, '').replace(/\[([^\]]+)\]/g, '{$1}') || '/';
}

describe('GET /api/v1/openapi.json', () => {
  it('is valid against the OpenAPI 3.1 schema, every $ref resolving', async () => {
    const validator = new Validator();
    const result = await validator.validate(structuredClone(document));
    expect(result.errors ?? [], JSON.stringify(result.errors, null, 2)).toEqual([]);
    expect(result.valid).toBe(true);
    expect(validator.version).toBe('3.1');
    // resolveRefs throws on a $ref that points nowhere.
    expect(() => validator.resolveRefs()).not.toThrow();
  });

  it('names the response schemas as components and refers to them', () => {
    const schemas = document.components.schemas;
    for (const name of ['App', 'Endpoint', 'Message', 'Delivery', 'DeliveryDetail', 'Attempt', 'Stats', 'ApiKey']) {
      expect(schemas[name], name).toBeDefined();
    }
    const ok = (path: string, method: string) =>
      document.paths[path][method].responses['200'].content['application/json'].schema;
    expect(ok('/apps/{appId}/deliveries/{deliveryId}', 'get')).toEqual({ $ref: '#/components/schemas/DeliveryDetail' });
    expect(ok('/apps/{appId}/deliveries', 'get')).toEqual({ $ref: '#/components/schemas/DeliveryPage' });
    expect(ok('/stats', 'get')).toEqual({ $ref: '#/components/schemas/Stats' });
    expect(schemas.DeliveryPage.properties.data.items).toEqual({ $ref: '#/components/schemas/Delivery' });
    expect(schemas.DeliveryDetail.properties.attempts.items).toEqual({ $ref: '#/components/schemas/Attempt' });
    // Descriptions survive the naming.
    expect(schemas.Delivery.properties.state.description).toMatch(/^waiting: not tried yet/);
    // Every $ref anywhere points at a component that exists.
    const refs = JSON.stringify(document).match(/"#\/components\/schemas\/[A-Za-z]+"/g) ?? [];
    for (const ref of new Set(refs)) expect(schemas[ref.slice(22, -1)], ref).toBeDefined();
    // Every operation answering a JSON object names its shape: no anonymous object types for clients.
    const anonymous: string[] = [];
    for (const [path, methods] of Object.entries<any>(document.paths)) {
      for (const [method, operation] of Object.entries<any>(methods)) {
        const schema = Object.entries<any>(operation.responses).find(([status]) => status.startsWith('2'))?.[1]
          ?.content?.['application/json']?.schema;
        if (schema && !schema.$ref && schema.type === 'object' && schema.properties)
          anonymous.push(`${method} ${path}`);
      }
    }
    expect(anonymous).toEqual([]);
  });

  it('is an OpenAPI 3.1 document served without credentials', () => {
    expect(document.openapi).toBe('3.1.0');
    expect(document.servers).toEqual([{ url: '/api/v1' }]);
    expect(Object.keys(document.paths).length).toBeGreaterThan(20);
  });

  it('documents every route file under app/api/v1, method by method', async () => {
    const routeFiles = listRouteFiles().filter((route) => route.dir.startsWith('/v1'));
    expect(routeFiles.length).toBeGreaterThan(20);
    const missing: string[] = [];
    for (const route of routeFiles) {
      const module = (await import(route.file)) as Record<string, unknown>;
      const path = openApiPath(route.dir);
      for (const method of METHODS) {
        if (typeof module[method] !== 'function') continue;
        if (!document.paths[path]?.[method.toLowerCase()]) missing.push(`${method} ${path}`);
      }
      expect(module.runtime, route.file).toBe('nodejs');
    }
    expect(missing).toEqual([]);
  });

  it('has a route file exporting every documented operation', async () => {
    const routeFiles = new Map(
      listRouteFiles()
        .filter((r) => r.dir.startsWith('/v1'))
        .map((r) => [openApiPath(r.dir), r.file]),
    );
    const missing: string[] = [];
    for (const [path, item] of Object.entries(document.paths as Record<string, Record<string, unknown>>)) {
      const file = routeFiles.get(path);
      const module = file ? ((await import(file)) as Record<string, unknown>) : {};
      for (const method of Object.keys(item)) {
        if (typeof module[method.toUpperCase()] !== 'function') missing.push(`${method.toUpperCase()} ${path}`);
      }
    }
    expect(missing).toEqual([]);
  });

  it('declares every path template variable as a path parameter, with unique operation ids and resolvable refs', () => {
    const ids = new Set<string>();
    for (const [path, item] of Object.entries(document.paths as Record<string, Record<string, any>>)) {
      const variables = [...path.matchAll(/\{(\w+)\}/g)].map((match) => match[1]);
      for (const operation of Object.values(item)) {
        expect(ids.has(operation.operationId), operation.operationId).toBe(false);
        ids.add(operation.operationId);
        const declared = (operation.parameters ?? []).filter((p: any) => p.in === 'path').map((p: any) => p.name);
        expect(declared.sort(), `${path} ${operation.operationId}`).toEqual([...variables].sort());
      }
    }
    const refs = [...JSON.stringify(document).matchAll(/"\$ref":"#\/([^"]+)"/g)].map((match) => match[1]!);
    for (const ref of refs) {
      const target = ref.split('/').reduce((node: any, key) => node?.[key], document);
      expect(target, ref).toBeDefined();
    }
  });

  it('describes request bodies with the same constraints the routes enforce', () => {
    const createEndpoint = document.paths['/apps/{appId}/endpoints'].post;
    const schema = createEndpoint.requestBody.content['application/json'].schema;
    expect(schema.required).toEqual(['url']);
    expect(schema.additionalProperties).toBe(false);
    expect(schema.properties.maxConcurrency).toMatchObject({ type: 'integer', minimum: 1, maximum: 1000 });
    const createMessage = document.paths['/apps/{appId}/messages'].post;
    expect(createMessage.parameters.some((p: any) => p.in === 'header' && p.name === 'Idempotency-Key')).toBe(true);
    expect(createMessage.responses['202']).toBeDefined();
    const listDeliveries = document.paths['/apps/{appId}/deliveries'].get;
    const state = listDeliveries.parameters.find((p: any) => p.name === 'state');
    expect(state.schema.enum).toEqual([
      'waiting',
      'retrying',
      'delivering',
      'succeeded',
      'dead',
      'cancelled',
      'failed',
      'pending',
    ]);
  });
});
