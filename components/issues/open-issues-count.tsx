'use client';
import { useQuery } from '@tanstack/react-query';
import { issueCountsQuery } from '@/lib/client/queries/operations';

/** The nav's badge: open issues (acknowledged ones are being handled and are not counted). */
export function OpenIssuesCount() {
  const counts = useQuery(issueCountsQuery());
  const open = counts.data?.open ?? 0;
  if (open === 0) return null;
  return (
    <span
      data-testid="nav-open-issues"
      aria-label={`${open} open`}
      className="tabular ml-2 rounded-full bg-red-600 px-1.5 py-0.5 text-xs font-semibold text-white"
    >
      {open}
    </span>
  );
}
