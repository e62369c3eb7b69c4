'use client';
import { usePathname, useRouter, useSearchParams } from 'next/navigation';
import { useCallback, useMemo } from 'react';

/**
 * Filters live in the URL so a link reproduces exactly what the sender was looking at.
 * Empty values are removed rather than kept as `?x=`.
 */
export function useUrlFilters<Name extends string>(names: readonly Name[]) {
  const params = useSearchParams();
  const router = useRouter();
  const pathname = usePathname();
  const values = useMemo(() => {
    const result = {} as Record<Name, string | undefined>;
    for (const name of names) result[name] = params.get(name) ?? undefined;
    return result;
  }, [params, names]);
  const update = useCallback(
    (changes: Partial<Record<Name, string | undefined>>) => {
      // The address bar, not the `params` snapshot: two changes in a row (before Next re-renders with
      // the first) must both land.
      const next = new URLSearchParams(window.location.search);
      for (const [name, value] of Object.entries(changes) as [string, string | undefined][]) {
        if (value === undefined || value === '') next.delete(name);
        else next.set(name, value);
      }
      const query = next.toString();
      router.replace(query ? `${pathname}?${query}` : pathname, { scroll: false });
    },
    [pathname, router],
  );
  return [values, update] as const;
}
