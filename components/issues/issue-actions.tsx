'use client';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { issueKeys, setIssueStatus } from '@/lib/client/queries/operations';
import type { Issue } from '@/lib/contract/schemas/operations';
import { Button } from '../ui/button';
import { InlineError } from '../ui/states';

/** Acknowledge (while open) and resolve (while unresolved); every issue query refreshes after either. */
export function IssueActions({ issue, size = 'sm' }: { issue: Pick<Issue, 'id' | 'status'>; size?: 'sm' | 'md' }) {
  const queryClient = useQueryClient();
  const change = useMutation({
    mutationFn: (action: 'acknowledge' | 'resolve') => setIssueStatus(issue.id, action),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: issueKeys.all }),
  });
  return (
    <div className="flex flex-wrap items-center justify-end gap-1">
      {issue.status === 'open' ? (
        <Button size={size} disabled={change.isPending} onClick={() => change.mutate('acknowledge')}>
          Acknowledge
        </Button>
      ) : null}
      {issue.status !== 'resolved' ? (
        <Button size={size} variant="primary" disabled={change.isPending} onClick={() => change.mutate('resolve')}>
          Resolve
        </Button>
      ) : null}
      <InlineError error={change.error} />
    </div>
  );
}
