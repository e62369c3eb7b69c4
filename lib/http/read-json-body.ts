import { invalidFields, type FieldProblem } from '../domain/errors';
import { HttpError } from './http-error';
import { findInexactJsonNumbers } from './inexact-json-numbers';

// Postgres jsonb recurses per nesting level and fails with "stack depth limit exceeded" somewhere in the
// thousands; 64 levels is far beyond any real event and keeps that failure from becoming a 500.
const MAX_DEPTH = 64;

/**
 * Reads a JSON body of at most `maxBytes` (413 above, counted while streaming so a lying or missing
 * Content-Length cannot get more through), requires a JSON content type (415), parses it (400, invalid
 * UTF-8 included) and refuses, with a 422 naming the field, strings Postgres cannot store (NUL, lone
 * surrogates) and numbers JavaScript cannot hold exactly (lib/http/inexact-json-numbers.ts).
 * An empty body reads as {} so that operations whose fields are all optional accept no body.
 */
export async function readJsonBody(request: Request, maxBytes: number): Promise<unknown> {
  const declared = Number(request.headers.get('content-length'));
  if (Number.isFinite(declared) && declared > maxBytes) throw tooLarge(maxBytes);
  const text = await readText(request, maxBytes);
  if (text.trim() === '') return {};
  const type = request.headers.get('content-type') ?? '';
  if (!/^application\/([\w.+-]*\+)?json\s*(;|$)/i.test(type.trim())) {
    throw new HttpError(
      'unsupported_media_type',
      `Send the body as JSON (Content-Type: application/json), got "${type.slice(0, 100)}"`,
    );
  }
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    throw new HttpError('invalid_json', `The body is not valid JSON: ${(error as Error).message.slice(0, 200)}`);
  }
  const problems: FieldProblem[] = [];
  checkStorable(value, '', 0, problems);
  if (problems.length === 0) problems.push(...findInexactJsonNumbers(text, 20));
  if (problems.length > 0) throw invalidFields(problems.slice(0, 20));
  return value;
}

async function readText(request: Request, maxBytes: number): Promise<string> {
  if (!request.body) return '';
  const reader = request.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > maxBytes) {
      await reader.cancel().catch(() => {});
      throw tooLarge(maxBytes);
    }
    chunks.push(value);
  }
  return decodeUtf8(Buffer.concat(chunks));
}

// JSON is UTF-8 (RFC 8259). A lenient decoder would turn each bad byte into U+FFFD and store that: an API
// key named "\xc3(" became "\ufffd(". The body is refused instead, saying where.
const utf8 = new TextDecoder('utf-8', { fatal: true });

function decodeUtf8(bytes: Uint8Array): string {
  try {
    return utf8.decode(bytes);
  } catch {
    const at = firstInvalidUtf8Byte(bytes);
    const shown = [...bytes.subarray(at, at + 4)].map((byte) => `0x${byte.toString(16).padStart(2, '0')}`);
    throw new HttpError(
      'invalid_json',
      `The body is not valid UTF-8: the bytes at offset ${at} (${shown.join(' ')}) are not a UTF-8 character`,
    );
  }
}

/** The offset of the first byte that does not begin a well-formed UTF-8 sequence (RFC 3629, table 3-7). */
function firstInvalidUtf8Byte(bytes: Uint8Array): number {
  let at = 0;
  while (at < bytes.length) {
    const lead = bytes[at]!;
    if (lead < 0x80) {
      at += 1;
      continue;
    }
    // The continuation bytes that may follow each lead byte; the first one's range is narrower after
    // 0xe0 and 0xf0 (no overlong forms), 0xed (no surrogates) and 0xf4 (nothing above U+10FFFF).
    let length: number;
    let low = 0x80;
    let high = 0xbf;
    if (lead >= 0xc2 && lead <= 0xdf) length = 2;
    else if (lead >= 0xe0 && lead <= 0xef) {
      length = 3;
      if (lead === 0xe0) low = 0xa0;
      if (lead === 0xed) high = 0x9f;
    } else if (lead >= 0xf0 && lead <= 0xf4) {
      length = 4;
      if (lead === 0xf0) low = 0x90;
      if (lead === 0xf4) high = 0x8f;
    } else return at;
    for (let next = 1; next < length; next += 1) {
      const byte = bytes[at + next];
      if (byte === undefined || byte < (next === 1 ? low : 0x80) || byte > (next === 1 ? high : 0xbf)) return at;
    }
    at += length;
  }
  return bytes.length;
}

function tooLarge(maxBytes: number): HttpError {
  return new HttpError('payload_too_large', `The body is larger than ${maxBytes} bytes (HOOKLINE_MAX_PAYLOAD_BYTES)`);
}

function checkStorable(value: unknown, path: string, depth: number, problems: FieldProblem[]): void {
  if (problems.length >= 20) return;
  if (typeof value === 'string') {
    const problem = stringProblem(value);
    if (problem) problems.push({ path, message: problem });
    return;
  }
  if (value === null || typeof value !== 'object') return;
  if (depth >= MAX_DEPTH) {
    problems.push({ path, message: `is nested more than ${MAX_DEPTH} levels deep` });
    return;
  }
  if (Array.isArray(value)) {
    value.forEach((item, index) => checkStorable(item, path ? `${path}.${index}` : String(index), depth + 1, problems));
    return;
  }
  for (const [key, item] of Object.entries(value)) {
    const child = path ? `${path}.${key}` : key;
    const keyProblem = stringProblem(key);
    if (keyProblem) problems.push({ path: child, message: `key ${keyProblem}` });
    checkStorable(item, child, depth + 1, problems);
  }
}

// Postgres text is UTF-8; a lone UTF-16 surrogate has no UTF-8 form and jsonb refuses its \u escape.
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/** Why Postgres could not store this string, or null. Also used for query and path values. */
export function stringProblem(value: string): string | null {
  if (value.includes('\u0000')) return 'must not contain the NUL character (\\u0000)';
  if (LONE_SURROGATE.test(value)) return 'must not contain unpaired UTF-16 surrogates';
  return null;
}
