// route() checks every answer against its operation's response schema outside production, so a handler
// that drifts from the contract (and from the OpenAPI document, the typed client and the dashboard's
// types derived from it) fails the test that reaches it. Through the real wrapper, with a real schema
// of the contract; the operation is public, so no database is involved.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { defineOperation } from '../../lib/contract/operation';
import { page } from '../../lib/contract/schemas/common';
import { delivery } from '../../lib/contract/schemas/deliveries';
import { route } from '../../lib/http/route';

const listDeliveries = defineOperation({
  operationId: 'listDeliveriesForTheContractTest',
  method: 'GET',
  path: '/contract-test/deliveries',
  tag: 'Test',
  summary: 'A page of deliveries',
  access: 'public',
  status: 200,
  response: page(delivery),
  errors: [],
});

const createdAt = new Date('2026-01-02T03:04:05.678Z');

/** A delivery as a domain function returns it: Dates where the wire has ISO strings. */
function deliveryView(id: string) {
  return {
    id,
    appId: 'app_1',
    messageId: 'msg_1',
    endpointId: 'ep_1',
    endpointUrl: 'https://example.com/hook',
    eventType: 'order.created',
    state: 'dead',
    attemptCount: 8,
    nextAttemptAt: null,
    lastAttemptAt: createdAt,
    lastStatusCode: 500,
    lastErrorClass: 'http_5xx',
    lastDurationMs: 42,
    createdAt,
    updatedAt: createdAt,
  };
}

const matchingPage = () => ({ data: [deliveryView('dlv_1'), deliveryView('dlv_2')], nextCursor: null });

let logged: string[];

beforeEach(() => {
  logged = [];
  // The structured logger writes to stdout; the expected error lines are read here instead of printed.
  vi.spyOn(process.stdout, 'write').mockImplementation((chunk: string | Uint8Array) => {
    logged.push(typeof chunk === 'string' ? chunk : Buffer.from(chunk).toString('utf8'));
    return true;
  });
});

afterEach(() => {
  vi.restoreAllMocks();
  vi.unstubAllEnvs();
});

async function answer(handler: () => Promise<unknown>) {
  const response = await route(listDeliveries, handler)(new Request('http://127.0.0.1:3000/api/contract-test'));
  return { status: response.status, body: (await response.json()) as Record<string, unknown> };
}

describe('a response checked against its schema (NODE_ENV test)', () => {
  it('sends an answer the schema describes as it is, timestamps serialized', async () => {
    const { status, body } = await answer(async () => matchingPage());
    expect(status).toBe(200);
    expect(body).toEqual(JSON.parse(JSON.stringify(matchingPage())));
    expect((body.data as { createdAt: string }[])[0]!.createdAt).toBe('2026-01-02T03:04:05.678Z');
    expect(logged).toEqual([]);
  });

  const drifts: [string, (result: ReturnType<typeof matchingPage>) => unknown, string][] = [
    [
      'a value outside an enum',
      (result) => ({ ...result, data: [{ ...result.data[0], state: 'pending' }] }),
      'data.0.state: Invalid option',
    ],
    [
      'a missing field',
      (result) => ({ ...result, data: [result.data[0], { ...result.data[1], endpointUrl: undefined }] }),
      'data.1.endpointUrl: Invalid input: expected string, received undefined',
    ],
    [
      'null where the schema has no null',
      (result) => ({ ...result, data: [{ ...result.data[0], createdAt: null }] }),
      'data.0.createdAt: Invalid input: expected string, received null',
    ],
    [
      'a field the schema does not name',
      (result) => ({ ...result, data: [{ ...result.data[0], leaseOwner: 'worker-1' }] }),
      'data.0.leaseOwner: not in the schema',
    ],
    ['no body at all', () => undefined, '(body): Invalid input: expected object, received undefined'],
  ];

  it.each(drifts)('fails with a 500 on %s, logging the operation and the field', async (_, drift, problem) => {
    const { status, body } = await answer(async () => drift(matchingPage()));
    expect(status).toBe(500);
    // The client learns nothing of it: the generic internal error, with an id to find the log line by.
    expect(body).toEqual({
      error: { code: 'internal_error', message: expect.stringMatching(/error id [0-9a-f-]{36}/) },
    });
    const errorLine = logged.join('');
    expect(errorLine).toContain('listDeliveriesForTheContractTest answered 200 with a body its response schema');
    expect(errorLine).toContain(problem);
  });
});

describe('in production', () => {
  it('sends what the handler returned without checking it', async () => {
    vi.stubEnv('NODE_ENV', 'production');
    const { status, body } = await answer(async () => ({ data: [{ id: 'dlv_1', leaseOwner: 'worker-1' }] }));
    expect(status).toBe(200);
    expect(body).toEqual({ data: [{ id: 'dlv_1', leaseOwner: 'worker-1' }] });
    expect(logged).toEqual([]);
  });
});
