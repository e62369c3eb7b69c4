// What PostgreSQL's jsonb refuses of a JSON text that JSON.parse accepts: a payload search casts the
// caller's value to jsonb, and a cast that fails is an error of the whole statement (a 500), not a
// search that matches nothing. No stored payload can hold such a value, so refusing it loses no match.

// numeric's limits (src/backend/utils/adt/numeric.c): the weight of the leading digit is at most 32767
// base-10000 digits (131072 decimal digits before the point), the display scale at most 16383 digits
// after it. Beyond them a number's input fails with 22003 "value overflows numeric format".
const MAX_DECIMAL_WEIGHT = 131071;
const MAX_DISPLAY_SCALE = 16383;

/**
 * Why the JSON value an equals search's payloadValue stands for (itself when it is JSON, else that
 * string: jsonValueOf in lib/domain/search/payload-condition.ts) cannot be cast to jsonb; null when it can.
 */
export function payloadValueJsonbProblem(payloadValue: string): string | null {
  let value: unknown;
  try {
    value = JSON.parse(payloadValue);
  } catch {
    return stringsProblem(payloadValue);
  }
  const stringProblem = stringsProblem(value);
  if (stringProblem) return stringProblem;
  const outsideStrings = payloadValue.replace(/"(?:[^"\\]|\\.)*"/g, '""');
  for (const [number, integer, fraction = '', exponent] of outsideStrings.matchAll(
    /-?(\d+)(?:\.(\d+))?[eE]([+-]?\d+)/g,
  )) {
    if (numberOverflows(integer!, fraction, Number(exponent))) {
      return `holds ${number}, which is beyond what PostgreSQL's numeric can hold`;
    }
  }
  return null;
}

// jsonb stores text in the database's encoding: \u0000 has no place in it (22P05), and a lone UTF-16
// surrogate is no character at all (22P02). Keys count as much as values.
function stringsProblem(value: unknown): string | null {
  for (const text of stringsOf(value)) {
    if (text.includes('\u0000')) return 'holds \\u0000, which PostgreSQL cannot store in jsonb';
    // With the u flag a surrogate pair is one code point (not Cs); only an unpaired one matches.
    if (/\p{Cs}/u.test(text)) return 'holds a lone UTF-16 surrogate (such as \\ud800 without its pair)';
  }
  return null;
}

function stringsOf(value: unknown): string[] {
  if (typeof value === 'string') return [value];
  if (Array.isArray(value)) return value.flatMap(stringsOf);
  if (typeof value !== 'object' || value === null) return [];
  return Object.entries(value).flatMap(([key, inner]) => [key, ...stringsOf(inner)]);
}

function numberOverflows(integer: string, fraction: string, exponent: number): boolean {
  const digits = integer + fraction;
  const leading = digits.search(/[1-9]/);
  const scale = Math.max(0, fraction.length - exponent);
  if (scale > MAX_DISPLAY_SCALE) return true;
  // Zero has no leading digit, and so no weight to overflow.
  return leading !== -1 && integer.length - 1 - leading + exponent > MAX_DECIMAL_WEIGHT;
}
