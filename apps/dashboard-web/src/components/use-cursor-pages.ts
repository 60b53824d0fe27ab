import { useInfiniteQuery } from "@tanstack/react-query";
import type { QueryState } from "./query-view.js";

/** One page of a cursor-paginated list (`next_cursor` is passed back as `cursor`). */
export interface CursorPage<Item> {
  data: Item[];
  next_cursor?: string | null;
}

/**
 * A cursor-paginated list read page by page: the pages read so far as one list (a
 * {@link QueryState} for {@link ResourceList}) and the state of reading the next page.
 */
export function useCursorPages<Item>(options: { queryKey: readonly unknown[]; fetchPage: (cursor: string | undefined) => Promise<CursorPage<Item>> }): QueryState<{ data: Item[] }> & {
  hasNextPage: boolean;
  isFetchingNextPage: boolean;
  fetchNextPage: () => unknown;
} {
  const query = useInfiniteQuery({
    queryKey: options.queryKey,
    initialPageParam: undefined as string | undefined,
    queryFn: ({ pageParam }) => options.fetchPage(pageParam),
    getNextPageParam: (page) => page.next_cursor ?? undefined,
  });
  return {
    isPending: query.isPending,
    isError: query.isError,
    error: query.error,
    data: query.data ? { data: query.data.pages.flatMap((page) => page.data) } : undefined,
    refetch: query.refetch,
    hasNextPage: query.hasNextPage,
    isFetchingNextPage: query.isFetchingNextPage,
    fetchNextPage: query.fetchNextPage,
  };
}
