'use client';
import { useQuery } from '@tanstack/react-query';
import Link from 'next/link';
import { issueCountsQuery } from '@/lib/client/queries/operations';
import { formatCount } from '../format';
import { useHydrated } from '../ui/use-hydrated';

/** The overview's line about issues: how many are open, linking to them. */
export function OpenIssuesBanner() {
  const counts = useQuery(issueCountsQuery());
  // The nav's badge reads the same query (components/ui/use-hydrated.ts).
  const hydrated = useHydrated();
  if (!counts.data || !hydrated) return null;
  const { open, acknowledged } = counts.data;
  return (
    <Link
      href="/issues"
      data-testid="overview-open-issues"
      className={
        open > 0
          ? 'block rounded-lg border border-red-200 bg-red-50 px-3 py-2 text-sm text-red-800 hover:bg-red-100'
          : 'block rounded-lg border border-zinc-200 bg-white px-3 py-2 text-sm text-zinc-600 hover:bg-zinc-50'
      }
    >
      <span className="tabular font-semibold">{formatCount(open)}</span> open {open === 1 ? 'issue' : 'issues'}
      {acknowledged > 0 ? <span className="text-zinc-500"> · {formatCount(acknowledged)} acknowledged</span> : null}
    </Link>
  );
}
