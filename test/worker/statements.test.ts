// The worker's statements name their parameters twice, in the SQL file's "-- Parameters:" line and in
// worker/statements.ts; loading checks the two agree and that the statement uses exactly $1..$n. These
// cases are what that check exists to catch: a parameter added on one side only.
import { describe, expect, it } from 'vitest';
import { checkParameters, statements } from '../../worker/statements';

describe('worker statements', () => {
  it('each file names its parameters as worker/statements.ts does, and uses them all', () => {
    // Loading the module ran the check for every file; here, that each was loaded with its names.
    for (const statement of Object.values(statements)) {
      expect(statement.text, statement.file).toMatch(/^-- Parameters: /m);
      checkParameters(statement.file, statement.text, statement.names);
    }
    expect(statements.recordResults.names).toHaveLength(27);
    // Each value lands at its own placeholder: { name: name } comes back as the names in order.
    const { names } = statements.recordResults;
    expect(statements.recordResults.values(namedAfterThemselves(names) as never)).toEqual(names);
  });

  it('refuses a file whose "-- Parameters:" line disagrees, naming the file and what it must read', () => {
    const text = '-- Parameters: $1 workerId, $2 limit.\nSELECT $1, $2';
    expect(() => checkParameters('claim', text, ['workerId', 'leaseSeconds'])).toThrow(
      'worker/sql/claim.sql: its "-- Parameters:" line must read "$1 workerId, $2 leaseSeconds"',
    );
    expect(() => checkParameters('claim', 'SELECT $1', ['workerId'])).toThrow('got "(no such line)"');
  });

  it('refuses a statement that uses a placeholder it does not name, or names one it does not use', () => {
    expect(() => checkParameters('claim', '-- Parameters: $1 workerId.\nSELECT $1, $2', ['workerId'])).toThrow(
      'worker/sql/claim.sql uses placeholders $1, $2 but names 1 parameters',
    );
    expect(() =>
      checkParameters('claim', '-- Parameters: $1 workerId, $2 limit.\nSELECT $1 -- $2 only in a comment', [
        'workerId',
        'limit',
      ]),
    ).toThrow('uses placeholders $1 but names 2 parameters');
  });

  it('reads a "-- Parameters:" line wrapped onto lines that start with "--   $"', () => {
    const text = '-- Parameters: $1 workerId,\n--   $2 limit.\nSELECT $1, $2';
    expect(() => checkParameters('claim', text, ['workerId', 'limit'])).not.toThrow();
  });
});

/** { name: name } for each name. */
function namedAfterThemselves<N extends string>(names: readonly N[]): Record<N, N> {
  return Object.fromEntries(names.map((name) => [name, name])) as Record<N, N>;
}
