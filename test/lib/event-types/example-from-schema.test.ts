// The example payload the portal shows for an event type, derived from its JSON Schema.
import { describe, expect, it } from 'vitest';
import { exampleFromSchema } from '../../../lib/domain/event-types/example-from-schema';

describe('exampleFromSchema', () => {
  it.each([
    ['no schema', null, null],
    ['an explicit example wins', { type: 'object', examples: [{ id: 'inv_1' }] }, { id: 'inv_1' }],
    ['const', { const: 'fixed' }, 'fixed'],
    ['default', { type: 'integer', default: 7 }, 7],
    ['enum', { type: 'string', enum: ['paid', 'void'] }, 'paid'],
    ['string formats', { type: 'string', format: 'date-time' }, '2026-01-01T12:00:00Z'],
    ['a plain string', { type: 'string' }, 'string'],
    ['integer minimum', { type: 'integer', minimum: 1.5 }, 2],
    ['nullable type list', { type: ['null', 'boolean'] }, true],
    ['array of items', { type: 'array', items: { type: 'number' } }, [0]],
    [
      'oneOf takes the first branch',
      { oneOf: [{ type: 'string', format: 'email' }, { type: 'integer' }] },
      'customer@example.com',
    ],
    [
      'allOf merges objects',
      { allOf: [{ properties: { a: { type: 'integer' } } }, { properties: { b: { const: 'x' } } }] },
      { a: 0, b: 'x' },
    ],
  ])('%s', (_name, schema, expected) => {
    expect(exampleFromSchema(schema)).toEqual(expected);
  });

  it('builds nested objects, with examples at any level', () => {
    const schema = {
      type: 'object',
      properties: {
        invoice: {
          type: 'object',
          properties: { id: { type: 'string', examples: ['inv_42'] }, amount: { type: 'integer', minimum: 1 } },
        },
        tags: { type: 'array', items: { type: 'string' } },
      },
    };
    expect(exampleFromSchema(schema)).toEqual({ invoice: { id: 'inv_42', amount: 1 }, tags: ['string'] });
  });

  it('stops at depth 8 on a deeply nested schema', () => {
    let schema: Record<string, unknown> = { type: 'string' };
    for (let i = 0; i < 50; i += 1) schema = { type: 'object', properties: { next: schema } };
    expect(JSON.stringify(exampleFromSchema(schema)).match(/next/g)).toHaveLength(9);
  });
});
