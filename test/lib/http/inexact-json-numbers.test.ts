// Which JSON numbers the API refuses because JSON.parse would change them, and where it says they are.
import { describe, expect, it } from 'vitest';
import { findInexactJsonNumbers } from '../../../lib/http/inexact-json-numbers';

describe('findInexactJsonNumbers', () => {
  it.each([
    // Held exactly, or printed back as the same value.
    ['0', null],
    ['-0', null],
    ['0.1', null],
    ['1.50', null],
    ['1e2', null],
    ['1E+2', null],
    ['100e-2', null],
    ['0.30000000000000004', null],
    ['9007199254740991', null],
    ['-9007199254740991', null],
    ['9007199254740992', null],
    ['18014398509481984', null],
    ['1.7976931348623157e308', null],
    ['5e-324', null],
    ['0.000000000000000000001', null],
    ['123456789012345.6', null],
    // Changed by JSON.parse.
    ['9007199254740993', '9007199254740992'],
    ['-9007199254740993', '-9007199254740992'],
    ['12345678901234567890', '12345678901234567000'],
    ['1.00000000000000000001', '1'],
    ['0.1000000000000000000001', '0.1'],
    ['1e-400', '0'],
    ['2e-324', '0'],
    ['1e999', 'null'],
    ['-1e309', 'null'],
    ['1' + '0'.repeat(400), 'null'],
  ])('%s becomes %s', (number, becomes) => {
    const problems = findInexactJsonNumbers(`{"n":${number}}`, 20);
    if (becomes === null) expect(problems).toEqual([]);
    else {
      expect(problems).toHaveLength(1);
      expect(problems[0]!.path).toBe('n');
      expect(problems[0]!.message).toContain(`would become ${becomes})`);
    }
  });

  it('names the path through objects and arrays, and reads no number inside a string', () => {
    const text =
      '{"a": [1, 2, {"b": 9007199254740993}], "c\\"d": "9007199254740993 1e999", "e": {"f": [[0.1, 1e999]]},' +
      ' "g": true, "h": null, "1e999": 1e999}';
    expect(findInexactJsonNumbers(text, 20).map((problem) => problem.path)).toEqual(['a.2.b', 'e.f.0.1', '1e999']);
  });

  it('reads a top-level number and stops at the limit', () => {
    expect(findInexactJsonNumbers('9007199254740993', 20)).toEqual([
      { path: '', message: expect.stringContaining('9007199254740993') },
    ]);
    expect(findInexactJsonNumbers(`[${Array(30).fill('1e999').join(',')}]`, 20)).toHaveLength(20);
  });

  it('shortens a long number in its message', () => {
    const [problem] = findInexactJsonNumbers(`{"n":${'9'.repeat(400)}}`, 20);
    expect(problem!.message).toMatch(/^9{37}\.\.\. is beyond/);
  });
});
