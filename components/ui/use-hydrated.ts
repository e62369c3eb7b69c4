'use client';
import { useSyncExternalStore } from 'react';

const subscribe = () => () => {};

/**
 * false while React hydrates (and on the server), true after. Every dashboard page hydrates in its own
 * Suspense boundary (app/(dashboard)/loading.tsx), after the shell; the shell's nav badge fetches the
 * issue counts as soon as it has hydrated, so a page reading the same query could find data that the
 * server's HTML did not have and fail hydration (React #418 on /issues). Data from a query the shell
 * also reads is shown only once hydrated.
 */
export function useHydrated(): boolean {
  return useSyncExternalStore(
    subscribe,
    () => true,
    () => false,
  );
}
