'use client';
import { usePathname, useRouter, useSearchParams } from 'next/navigation';
import { useCallback, useEffect, useMemo, useRef } from 'react';

/**
 * Filters live in the URL so a link reproduces exactly what the sender was looking at.
 * Empty values are removed rather than kept as `?x=`.
 */
export function useUrlFilters<Name extends string>(names: readonly Name[]) {
  const params = useSearchParams();
  const router = useRouter();
  const pathname = usePathname();
  // The query of the last change asked for, until the URL shows it. router.replace updates the
  // address bar only when Next commits the navigation, so two changes in a row (a payload field, then
  // its value, each committed with Enter) each read the address bar before the first one landed and
  // the second dropped the first (seen on a loaded machine: "payloadPath is required with
  // payloadValue").
  const pending = useRef<string | null>(null);
  useEffect(() => {
    if (pending.current === params.toString()) pending.current = null;
  }, [params]);
  const values = useMemo(() => {
    const result = {} as Record<Name, string | undefined>;
    for (const name of names) result[name] = params.get(name) ?? undefined;
    return result;
  }, [params, names]);
  const update = useCallback(
    (changes: Partial<Record<Name, string | undefined>>) => {
      const next = new URLSearchParams(pending.current ?? window.location.search);
      for (const [name, value] of Object.entries(changes) as [string, string | undefined][]) {
        if (value === undefined || value === '') next.delete(name);
        else next.set(name, value);
      }
      const query = next.toString();
      pending.current = query;
      router.replace(query ? `${pathname}?${query}` : pathname, { scroll: false });
    },
    [pathname, router],
  );
  return [values, update] as const;
}
