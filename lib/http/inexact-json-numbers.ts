import type { FieldProblem } from '../domain/errors';

// JSON numbers have any number of digits; JavaScript's have 53 bits. JSON.parse turns 9007199254740993
// into 9007199254740992 and 1e999 into Infinity (null once re-serialised) without a word, so a payload
// accepted through REST would be stored and delivered with other numbers than it was sent with, while
// the same payload through hookline.send keeps its digits. The API refuses such a number, naming where
// it is, instead: the sender can send it as a string. A number whose shortest JavaScript form is the same
// value (0.1, 1.50, 1e2) is delivered as that value and accepted.

// Every decimal of at most 15 significant digits in the normal range prints back as the same value
// (DBL_DIG), so a text with no run of 16 digits or dots and no digit followed by an exponent holds no
// number that could change, and the scan below is skipped. Hex ids and UUIDs often have a digit before
// an "e", so many bodies are scanned all the same: measured on this machine, a 633 KB body of 6,000 rows
// with UUIDs takes 2.5 ms to scan (JSON.parse: 3.0 ms), a 100-byte one 0.5 µs.
const MAY_HOLD_INEXACT = /[0-9.]{16}|[0-9][eE]/;
const NUMBER = /-?\d+(?:\.\d+)?(?:[eE][+-]?\d+)?/y;

const code = (character: string) => character.charCodeAt(0);
const QUOTE = code('"');
const MINUS = code('-');
const DIGIT_0 = code('0');
const DIGIT_9 = code('9');
const OPEN_BRACE = code('{');
const CLOSE_BRACE = code('}');
const OPEN_BRACKET = code('[');
const CLOSE_BRACKET = code(']');
const COMMA = code(',');

// An object's current key is kept as where its literal is, and read only for a path that is reported.
type Frame =
  { kind: 'object'; keyStart: number; keyEnd: number; awaitingKey: boolean } | { kind: 'array'; index: number };

/**
 * Each number of `text` (valid JSON, already parsed) that JSON.parse cannot hold exactly, with its path
 * (`payload.lines.0.amount`, as the other body problems name it); at most `limit`.
 */
export function findInexactJsonNumbers(text: string, limit: number): FieldProblem[] {
  if (!MAY_HOLD_INEXACT.test(text)) return [];
  const problems: FieldProblem[] = [];
  const stack: Frame[] = [];
  let at = 0;
  while (at < text.length && problems.length < limit) {
    const character = text.charCodeAt(at);
    const top = stack.at(-1);
    if (character === QUOTE) {
      const end = endOfString(text, at);
      if (top?.kind === 'object' && top.awaitingKey) {
        top.keyStart = at;
        top.keyEnd = end;
        top.awaitingKey = false;
      }
      at = end;
    } else if (character === MINUS || (character >= DIGIT_0 && character <= DIGIT_9)) {
      NUMBER.lastIndex = at;
      const token = NUMBER.exec(text)![0];
      // At most 15 digits and no exponent: held exactly (see MAY_HOLD_INEXACT).
      if (token.length > 15 || /[eE]/.test(token)) {
        const problem = inexactNumberProblem(token);
        if (problem) problems.push({ path: pathOf(text, stack), message: problem });
      }
      at += token.length;
    } else {
      if (character === OPEN_BRACE) stack.push({ kind: 'object', keyStart: 0, keyEnd: 0, awaitingKey: true });
      else if (character === OPEN_BRACKET) stack.push({ kind: 'array', index: 0 });
      else if (character === CLOSE_BRACE || character === CLOSE_BRACKET) stack.pop();
      else if (character === COMMA && top?.kind === 'object') top.awaitingKey = true;
      else if (character === COMMA && top?.kind === 'array') top.index += 1;
      at += 1;
    }
  }
  return problems;
}

/** The index just past the closing quote of the string that opens at `start`. */
function endOfString(text: string, start: number): number {
  let at = start + 1;
  for (;;) {
    const quote = text.indexOf('"', at);
    if (quote === -1) return text.length;
    let backslashes = 0;
    while (text[quote - 1 - backslashes] === '\\') backslashes += 1;
    if (backslashes % 2 === 0) return quote + 1;
    at = quote + 1;
  }
}

function pathOf(text: string, stack: Frame[]): string {
  return stack
    .map((frame) =>
      frame.kind === 'object' ? (JSON.parse(text.slice(frame.keyStart, frame.keyEnd)) as string) : String(frame.index),
    )
    .join('.');
}

function inexactNumberProblem(token: string): string | null {
  const value = Number(token);
  const shown = token.length > 40 ? `${token.slice(0, 37)}...` : token;
  if (!Number.isFinite(value)) {
    return `${shown} is beyond the range of a JavaScript number (it would become null); send it as a string`;
  }
  if (decimalValue(token) === decimalValue(String(value))) return null;
  return `${shown} cannot be held exactly by a JavaScript number (it would become ${String(value)}); send it as a string`;
}

/** The value of a JSON (or JavaScript) number literal as sign, digits and exponent, without redundant zeros. */
function decimalValue(literal: string): string {
  const [, sign = '', whole = '', fraction = '', exponent = '0'] = /^(-?)(\d+)(?:\.(\d+))?(?:[eE]([+-]?\d+))?$/.exec(
    literal,
  )!;
  const digits = (whole + fraction).replace(/^0+/, '');
  if (digits === '') return '0';
  const significant = digits.replace(/0+$/, '');
  const scale = BigInt(exponent) - BigInt(fraction.length) + BigInt(digits.length - significant.length);
  return `${sign}${significant}e${scale}`;
}
