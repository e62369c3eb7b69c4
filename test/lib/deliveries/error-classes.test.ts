// The error classes the REST filters accept and the dashboard offers are exactly the ones attempts are
// recorded with: the worker's classifier and 'unknown' (migration 20261124110000_hot_first_attempts).
import { describe, expect, it } from 'vitest';
import { deliveryFilter } from '../../../lib/contract/schemas/deliveries';
import { listMessagesQuery } from '../../../lib/contract/schemas/messages';
import { ERROR_CLASSES, type ErrorClassName } from '../../../lib/domain/deliveries/error-classes';
import { classifyError, classifyStatus, type ErrorClass } from '../../../worker/classify-error';

// Both ways: a class the worker can record that the list lacks, or one the list has that the worker
// never records (besides 'unknown'), does not compile.
const workerClasses: ErrorClass[] = ERROR_CLASSES.filter(
  (name): name is Exclude<ErrorClassName, 'unknown'> => name !== 'unknown',
);
const listed: readonly ErrorClassName[] = workerClasses;

describe('error classes', () => {
  it('lists every class the worker records, and unknown', () => {
    expect(listed).toHaveLength(ERROR_CLASSES.length - 1);
    for (const status of [301, 404, 429, 500, 503]) expect(ERROR_CLASSES).toContain(classifyStatus(status));
    expect(ERROR_CLASSES).toContain(classifyError(new Error('boom'), { receivedHeaders: false }));
  });

  it.each([
    ['deliveries', deliveryFilter],
    ['messages', listMessagesQuery],
  ])('the %s filter refuses a misspelled class, naming the field', (_name, schema) => {
    expect(schema.safeParse({ errorClass: 'timeout' }).success).toBe(true);
    const typo = schema.safeParse({ errorClass: 'timout' });
    expect(typo.success).toBe(false);
    expect(typo.error?.issues[0]?.path).toEqual(['errorClass']);
  });
});
