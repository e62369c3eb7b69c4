'use client';
import { formatTime } from '../format';
import { Button } from '../ui/button';

/**
 * Where a payload search got to: the API searches back through time for a bounded time per request
 * and says how far (searchedBackTo); the next page goes on from there. Shown under the rows instead of
 * "Load more", since a page of a search may hold fewer rows than asked for, or none, and still not be
 * the end.
 */
export function SearchProgress({
  searchedBackTo,
  more,
  fetching,
  onContinue,
}: {
  searchedBackTo: string | null | undefined;
  more: boolean;
  fetching: boolean;
  onContinue: () => void;
}) {
  return (
    <div
      className="flex flex-wrap items-center justify-center gap-2 p-3 text-sm text-zinc-600"
      data-testid="search-progress"
    >
      {more ? (
        <>
          <span>Searched back to {formatTime(searchedBackTo)}</span>
          <span aria-hidden>—</span>
          <Button size="sm" disabled={fetching} onClick={onContinue}>
            {fetching ? 'Searching…' : 'Continue searching'}
          </Button>
        </>
      ) : (
        <span>Searched the whole range{searchedBackTo ? ` (back to ${formatTime(searchedBackTo)})` : ''}</span>
      )}
    </div>
  );
}
