// An example payload for an event type, derived from its JSON Schema rather than stored beside it: a
// stored example is a second description of the payload that drifts from the schema the first time
// one of them is edited alone. An operator who wants a specific example says so in the schema itself,
// with the standard `examples` (or `default`/`const`) keyword, which wins at any level.
//
// Covers the schema subset event types use in practice: type, properties, items, enum, const, default,
// examples, format, minimum, anyOf/oneOf/allOf (first branch), local $ref is not followed. Depth is
// capped at 8 so a recursive or hostile schema cannot make an example of unbounded size.
type Schema = Record<string, unknown>;

const MAX_DEPTH = 8;

const FORMAT_EXAMPLES: Record<string, string> = {
  'date-time': '2026-01-01T12:00:00Z',
  date: '2026-01-01',
  time: '12:00:00Z',
  email: 'customer@example.com',
  uri: 'https://example.com/',
  url: 'https://example.com/',
  uuid: '3f9c2a64-8a8e-4c1e-9d41-2b7f0c5e6a10',
  hostname: 'example.com',
  ipv4: '192.0.2.1',
  ipv6: '2001:db8::1',
};

function isSchema(value: unknown): value is Schema {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** An example value satisfying `schema`, or null when there is no schema. */
export function exampleFromSchema(schema: unknown, depth = 0): unknown {
  if (!isSchema(schema) || depth > MAX_DEPTH) return null;
  if (Array.isArray(schema.examples) && schema.examples.length > 0) return schema.examples[0];
  if ('const' in schema) return schema.const;
  if ('default' in schema) return schema.default;
  if (Array.isArray(schema.enum) && schema.enum.length > 0) return schema.enum[0];
  for (const key of ['allOf', 'anyOf', 'oneOf'] as const) {
    const branches = schema[key];
    if (Array.isArray(branches) && branches.length > 0) {
      if (key !== 'allOf') return exampleFromSchema(branches[0], depth + 1);
      // allOf: every branch applies; merge the objects they describe.
      const parts = branches.map((branch) => exampleFromSchema(branch, depth + 1));
      if (parts.every(isSchema)) return Object.assign({}, ...parts);
      return parts[0];
    }
  }
  const type = Array.isArray(schema.type) ? schema.type.find((t) => t !== 'null') : schema.type;
  switch (type ?? (isSchema(schema.properties) ? 'object' : undefined)) {
    case 'object': {
      const properties = isSchema(schema.properties) ? schema.properties : {};
      const example: Record<string, unknown> = {};
      for (const [name, property] of Object.entries(properties)) example[name] = exampleFromSchema(property, depth + 1);
      return example;
    }
    case 'array':
      return isSchema(schema.items) ? [exampleFromSchema(schema.items, depth + 1)] : [];
    case 'string':
      return typeof schema.format === 'string' && FORMAT_EXAMPLES[schema.format]
        ? FORMAT_EXAMPLES[schema.format]
        : 'string';
    case 'integer':
      return typeof schema.minimum === 'number' ? Math.ceil(schema.minimum) : 0;
    case 'number':
      return typeof schema.minimum === 'number' ? schema.minimum : 0;
    case 'boolean':
      return true;
    case 'null':
      return null;
    default:
      return null;
  }
}
