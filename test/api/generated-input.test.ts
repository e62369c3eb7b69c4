/* eslint-disable @typescript-eslint/no-explicit-any -- the generator walks untyped JSON Schema */
// Thousands of requests generated from the OpenAPI document (valid ones built from each schema, and
// mutations of them: wrong types, huge and odd strings, bad JSON, missing and extra fields, odd ids
// and credentials), sent to the route modules in-process. The API must answer every one without a 5xx.
import { beforeAll, expect, it } from 'vitest';
import { call, appLimitedKey, setUpApiTest, type ApiTestContext } from './support/api';
import { createApp, createEndpoint, createEventType } from '../support/fixtures';

const REQUESTS_PER_OPERATION = 200;

let ctx: ApiTestContext;
let document: any;
let pools: Record<string, string[]>;
let keys: (string | undefined)[];

// A small deterministic PRNG (mulberry32), so a failure can be reproduced from the seed.
function prng(seed: number) {
  return () => {
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
let random = prng(42);
const pick = <T>(items: readonly T[]): T => items[Math.floor(random() * items.length)]!;
const chance = (p: number) => random() < p;

const ODD_STRINGS = [
  '',
  ' ',
  'x'.repeat(100_000),
  '💥🚀 ünïcödé 中文 עברית',
  '\u202e\u200b\u0301',
  '\u0000nul',
  '\ud800lone',
  "'; DROP TABLE hookline.apps; --",
  '../../etc/passwd',
  '%00%2e%2e',
  '<script>alert(1)</script>',
  'null',
  '{}',
  '-1',
  '1e309',
  'app_00000000000000000000000000000000',
];

function generate(schema: any, name = '', depth = 0): unknown {
  if (!schema || depth > 6) return null;
  if (schema.const !== undefined) return schema.const;
  if (schema.enum) return pick(schema.enum);
  if (schema.anyOf || schema.oneOf) return generate(pick(schema.anyOf ?? schema.oneOf), name, depth + 1);
  const type = Array.isArray(schema.type) ? pick(schema.type) : schema.type;
  switch (type) {
    case 'string':
      return stringFor(schema, name);
    case 'integer':
    case 'number': {
      const min = schema.minimum ?? (schema.exclusiveMinimum ?? -1000) + 1;
      const max = Math.min(schema.maximum ?? 100_000, min + 100_000);
      let value = min + Math.floor(random() * (max - min + 1));
      if (schema.multipleOf)
        value = Math.max(schema.multipleOf, Math.round(value / schema.multipleOf) * schema.multipleOf);
      return value;
    }
    case 'boolean':
      return chance(0.5);
    case 'null':
      return null;
    case 'array': {
      const count = Math.min(schema.maxItems ?? 3, (schema.minItems ?? 0) + Math.floor(random() * 3));
      return Array.from({ length: count }, () => generate(schema.items, name, depth + 1));
    }
    case 'object': {
      const result: Record<string, unknown> = {};
      for (const [key, property] of Object.entries<any>(schema.properties ?? {})) {
        if ((schema.required ?? []).includes(key) || chance(0.6)) result[key] = generate(property, key, depth + 1);
      }
      if (!schema.properties && schema.additionalProperties !== false) {
        for (let i = 0; i < 1 + Math.floor(random() * 3); i++) {
          result[pick(['a', 'b', 'X-Custom', 'nested', 'amount'])] = generate(
            schema.additionalProperties ?? {},
            'value',
            depth + 1,
          );
        }
      }
      return result;
    }
    default:
      // Anything goes (payload values, JSON schemas).
      return pick([1, 'text', true, null, { nested: { deep: [1, 2, 3] } }, [], 3.5]);
  }
}

function stringFor(schema: any, name: string): string {
  if (schema.format === 'date-time') {
    return new Date(Date.now() - Math.floor(random() * 7 * 86_400_000) * (chance(0.5) ? 1 : -1)).toISOString();
  }
  const byName: Record<string, () => string> = {
    url: () =>
      pick(['https://example.com/hook', 'http://127.0.0.1:9/x', 'https://169.254.169.254/', 'ftp://x', 'not a url']),
    eventType: () => pick(['invoice.paid', 'user.created', 'missing.type', 'hookline.test']),
    eventTypeName: () => pick(['invoice.paid', 'user.created', 'missing.type']),
    name: () => pick(['invoice.paid', 'new.type', 'My app', 'x']),
    secret: () => `whsec_${Buffer.from(String(random())).toString('base64').padEnd(32, 'A')}`,
    appId: () => pick(pools.appId!),
    endpointId: () => pick(pools.endpointId!),
    messageId: () => pick(pools.messageId!),
    deliveryId: () => pick(pools.deliveryId!),
    id: () => pick(pools.deliveryId!),
    cursor: () => pick(['eyJpZCI6ImRsdl8xIn0', 'garbage', Buffer.from('{"id":"x"}').toString('base64url')]),
    errorClass: () => pick(['timeout', 'http_5xx', 'dns']),
  };
  const generator = byName[name];
  if (generator) return generator();
  const min = schema.minLength ?? 0;
  const max = Math.min(schema.maxLength ?? 40, 40);
  const length = min + Math.floor(random() * (Math.max(min, max) - min + 1));
  return 'abcdefghij'.repeat(5).slice(0, Math.max(length, min));
}

function mutate(value: unknown, depth = 0): unknown {
  const kind = Math.floor(random() * 8);
  if (value && typeof value === 'object' && !Array.isArray(value) && depth < 3 && kind < 4) {
    const copy: Record<string, unknown> = { ...(value as Record<string, unknown>) };
    const fields = Object.keys(copy);
    if (kind === 0 && fields.length) delete copy[pick(fields)];
    else if (kind === 1) copy[pick(['unexpected', 'url', 'payload', '__proto__'])] = pick(ODD_STRINGS);
    else if (fields.length) copy[pick(fields)] = mutate(copy[pick(fields)], depth + 1);
    return copy;
  }
  return pick<unknown>([
    ...ODD_STRINGS,
    0,
    -1,
    1.5,
    2 ** 53 + 1,
    true,
    null,
    [],
    [null],
    {},
    { a: '\u0000' },
    Array.from({ length: 200 }, (_, i) => i),
    JSON.parse('['.repeat(100) + ']'.repeat(100)),
  ]);
}

// A lone surrogate cannot be percent-encoded; it is sent raw and reaches the route as it is.
function encodePathValue(text: string): string {
  try {
    return encodeURIComponent(text);
  } catch {
    return text.replaceAll('/', '%2F');
  }
}

interface GeneratedRequest {
  path: string;
  init: Parameters<typeof call>[2];
}

function generateRequest(path: string, method: string, operation: any): GeneratedRequest {
  let concretePath = path;
  const query: Record<string, string> = {};
  const headers: Record<string, string> = {};
  for (const parameter of operation.parameters ?? []) {
    let value: unknown = generate(parameter.schema, parameter.name);
    if (chance(0.1)) value = mutate(value);
    const text = typeof value === 'string' ? value : JSON.stringify(value);
    if (parameter.in === 'path')
      concretePath = concretePath.replace(`{${parameter.name}}`, encodePathValue(text ?? ''));
    else if (parameter.in === 'query' && (parameter.required || chance(0.5))) query[parameter.name] = text ?? '';
    else if (parameter.in === 'header' && chance(0.5))
      headers[parameter.name] = text.replace(/[^\x20-\x7e]/g, '') ?? '';
  }
  const init: GeneratedRequest['init'] = { query, headers, key: pick(keys) };
  const bodySchema = operation.requestBody?.content?.['application/json']?.schema;
  if (bodySchema || method !== 'get') {
    const roll = random();
    const body = bodySchema ? generate(bodySchema) : {};
    if (roll < 0.55) init.body = body;
    else if (roll < 0.8) init.body = mutate(body);
    else if (roll < 0.86)
      init.rawBody = JSON.stringify(body).slice(0, -1); // truncated JSON
    else if (roll < 0.9) {
      init.rawBody = JSON.stringify(body);
      headers['content-type'] = pick(['text/plain', 'application/x-www-form-urlencoded', 'multipart/form-data']);
    } else if (roll < 0.93) {
      init.rawBody = `{"eventType":"invoice.paid","payload":{"s":"${'\\ud800'}","n":"\\u0000"}}`;
      headers['content-type'] = 'application/json';
    } else if (roll < 0.96) {
      init.rawBody = new Uint8Array([0xff, 0xfe, 0x00, 0x7b]);
      headers['content-type'] = 'application/json';
    } else {
      init.rawBody = JSON.stringify({ eventType: 'invoice.paid', payload: { big: 'x'.repeat(1_100_000) } });
      headers['content-type'] = 'application/json';
    }
  }
  return { path: `/v1${concretePath}`, init };
}

beforeAll(async () => {
  ctx = await setUpApiTest({ HOOKLINE_MAX_PAYLOAD_BYTES: String(1_048_576) });
  const { pool } = ctx.db;
  const appA = await createApp(pool, 'A');
  const appB = await createApp(pool, 'B');
  for (const app of [appA, appB]) {
    await createEventType(pool, app, 'invoice.paid');
    await createEventType(pool, app, 'user.created');
  }
  const endpointA = (await createEndpoint(pool, appA, 'https://example.com/a')).id;
  const endpointB = (await createEndpoint(pool, appB, 'https://example.com/b')).id;
  const sent = await pool.query<{ a: string; b: string }>(
    `SELECT hookline.send($1, 'invoice.paid', '{"n": 1}') AS a, hookline.send($2, 'invoice.paid', '{"n": 2}') AS b`,
    [appA, appB],
  );
  const deliveries = await pool.query<{ id: string }>(
    `SELECT hookline.public_id('dlv', id) AS id FROM hookline.deliveries`,
  );
  pools = {
    appId: [appA, appA, appA, appA, appA, appB, 'app_missing', 'x'.repeat(300), '💥'],
    endpointId: [endpointA, endpointA, endpointB, 'ep_missing'],
    // Ids are stored as uuid: an id of the right shape that names nothing, and text that is no id at all.
    messageId: [sent.rows[0]!.a, sent.rows[0]!.b, `msg_${'0'.repeat(32)}`, 'msg_missing'],
    deliveryId: [...deliveries.rows.map((row) => row.id), `dlv_${'0'.repeat(32)}`, 'dlv_missing'],
  };
  const limitedToA = await appLimitedKey(appA);
  keys = [...Array<string>(8).fill(ctx.adminKey), limitedToA, limitedToA, undefined, 'hl_wrong', 'not a key'];
  document = (await call('GET', '/v1/openapi.json')).body;
});

it('answers thousands of generated and mutated requests without a single 5xx', async () => {
  const failures: string[] = [];
  const statuses = new Map<number, number>();
  let total = 0;
  // Deletes last, so that the fixtures live for most of the run.
  const operations = Object.entries<any>(document.paths)
    .flatMap(([path, item]) => Object.entries<any>(item).map(([method, operation]) => ({ path, method, operation })))
    .sort((a, b) => Number(a.method === 'delete') - Number(b.method === 'delete'));
  for (const { path, method, operation } of operations) {
    random = prng(path.length * 31 + method.length);
    for (let i = 0; i < REQUESTS_PER_OPERATION; i++) {
      const request = generateRequest(path, method, operation);
      const response = await call(method.toUpperCase(), request.path, request.init);
      total++;
      statuses.set(response.status, (statuses.get(response.status) ?? 0) + 1);
      if (response.status >= 500 && failures.length < 20) {
        failures.push(
          `${method.toUpperCase()} ${request.path.slice(0, 200)} -> ${response.status} ${response.text.slice(0, 300)}`,
        );
      }
      if (response.status >= 400 && response.text !== '') {
        expect(response.body?.error?.code, `${method} ${path}: ${response.text.slice(0, 200)}`).toMatch(/^[a-z_]+$/);
      }
    }
  }
  console.log(
    `generated ${total} requests:`,
    JSON.stringify(Object.fromEntries([...statuses].sort(([a], [b]) => a - b))),
  );
  expect(failures).toEqual([]);
  expect(total).toBeGreaterThan(5000);
  // The generator must reach the handlers, not only the validators.
  const successes = [...statuses].filter(([status]) => status < 300).reduce((sum, [, count]) => sum + count, 0);
  expect(successes).toBeGreaterThan(total / 10);
  for (const status of [400, 401, 404, 413, 415, 422])
    expect(statuses.get(status), `status ${status}`).toBeGreaterThan(0);
}, 600_000);
