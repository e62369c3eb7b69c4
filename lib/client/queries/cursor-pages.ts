// How a list the API pages by cursor is read a page at a time (TanStack Query's infinite queries):
// the first page without a cursor, each next one with the nextCursor the last returned, none once it
// is null. Spread into infiniteQueryOptions.
export const cursorPages = {
  initialPageParam: undefined as string | undefined,
  getNextPageParam: (page: { nextCursor: string | null }) => page.nextCursor ?? undefined,
};
