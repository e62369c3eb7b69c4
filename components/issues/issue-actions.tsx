'use client';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { issueKeys, muteIssue, setIssueStatus } from '@/lib/client/queries/operations';
import type { Issue } from '@/lib/contract/schemas/operations';
import { Button } from '../ui/button';
import { InlineError } from '../ui/states';
import { useCan } from '../auth/member-context';

type Action = 'acknowledge' | 'resolve' | 'reopen' | { mute: number | null };

const MUTE_FOR: { minutes: number; label: string }[] = [
  { minutes: 60, label: '1 hour' },
  { minutes: 240, label: '4 hours' },
  { minutes: 1440, label: '1 day' },
  { minutes: 10_080, label: '1 week' },
];

/**
 * Acknowledge (while open), resolve (while unresolved), reopen (while not open), and mute the issue's
 * notifications for a chosen time (or unmute it); every issue query refreshes after each.
 */
export function IssueActions({
  issue,
  size = 'sm',
}: {
  issue: Pick<Issue, 'id' | 'status' | 'mutedUntil'>;
  size?: 'sm' | 'md';
}) {
  const queryClient = useQueryClient();
  const canManage = useCan('operations.manage');
  const change = useMutation({
    mutationFn: (action: Action) =>
      typeof action === 'string' ? setIssueStatus(issue.id, action) : muteIssue(issue.id, action.mute),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: issueKeys.all }),
  });
  // mutedUntil is compared with the clock only after a click or a refetch, never while rendering on
  // the server: an issue whose mute ended still shows "Unmute", which does no harm.
  const muted = issue.mutedUntil !== null;
  if (!canManage) return null;
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
      {issue.status !== 'open' ? (
        <Button size={size} disabled={change.isPending} onClick={() => change.mutate('reopen')}>
          Reopen
        </Button>
      ) : null}
      {muted ? (
        <Button size={size} variant="ghost" disabled={change.isPending} onClick={() => change.mutate({ mute: null })}>
          Unmute
        </Button>
      ) : (
        <select
          aria-label="Mute notifications for"
          className="rounded-md border border-zinc-200 bg-white px-2 py-1 text-sm text-zinc-700"
          disabled={change.isPending}
          value=""
          onChange={(event) => {
            if (event.target.value) change.mutate({ mute: Number(event.target.value) });
          }}
        >
          <option value="">Mute…</option>
          {MUTE_FOR.map((option) => (
            <option key={option.minutes} value={option.minutes}>
              for {option.label}
            </option>
          ))}
        </select>
      )}
      <InlineError error={change.error} />
    </div>
  );
}
