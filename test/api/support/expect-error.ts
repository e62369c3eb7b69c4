// The one wire shape of every error: { error: { code, message, details? } } and nothing else.
import { expect } from 'vitest';
import type { CallResult } from './api';

/** Asserts status, code and the error shape; with `field`, that details name that field. */
export function expectError(response: CallResult, status: number, code: string, field?: string): void {
  expect(response.status, response.text).toBe(status);
  expect(Object.keys(response.body ?? {}), response.text).toEqual(['error']);
  const { error } = response.body as { error: Record<string, unknown> };
  expect(Object.keys(error).filter((key) => !['code', 'message', 'details'].includes(key))).toEqual([]);
  expect(error.code).toBe(code);
  expect(typeof error.message).toBe('string');
  expect((error.message as string).length).toBeGreaterThan(0);
  if (field !== undefined) {
    const paths = (error.details as { path: string }[] | undefined)?.map((problem) => problem.path);
    expect(paths, response.text).toContain(field);
    // The message leads with the field too, for clients that only show the message.
    expect(error.message as string).toContain(field);
  }
}
