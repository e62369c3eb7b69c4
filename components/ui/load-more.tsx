'use client';
import { Button } from './button';

/** What "Load more" needs of a list's infinite query (a useInfiniteQuery result). */
export interface NextPages {
  hasNextPage: boolean;
  isFetchingNextPage: boolean;
  fetchNextPage: () => Promise<unknown>;
}

/** Under a list read a page at a time: its next page, while there is one; disabled while it loads. */
export function LoadMore({ pages, testId }: { pages: NextPages; testId?: string }) {
  if (!pages.hasNextPage) return null;
  return (
    <div className="p-3 text-center">
      <Button
        size="sm"
        disabled={pages.isFetchingNextPage}
        onClick={() => void pages.fetchNextPage()}
        data-testid={testId}
      >
        {pages.isFetchingNextPage ? 'Loading…' : 'Load more'}
      </Button>
    </div>
  );
}
