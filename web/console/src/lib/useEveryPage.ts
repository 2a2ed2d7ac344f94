import { useInfiniteQuery } from "@tanstack/react-query";
import { useEffect } from "react";

/** useEveryPage reads every page of an API list, one after another, for a page that shows or
 * sums the whole list (a workflow's versions, a client's contacts, the payment queue's
 * totals). `items` stays undefined until the last page is in, so nothing partial is shown
 * as whole. */
export function useEveryPage<T>(key: readonly unknown[], page: (cursor: string) => Promise<{ items: T[]; next_cursor: string }>) {
  const query = useInfiniteQuery({
    queryKey: key,
    initialPageParam: "",
    queryFn: ({ pageParam }) => page(pageParam),
    getNextPageParam: (last) => last.next_cursor || undefined,
  });
  const { hasNextPage, isFetchingNextPage, fetchNextPage } = query;
  useEffect(() => {
    if (hasNextPage && !isFetchingNextPage) void fetchNextPage();
  }, [hasNextPage, isFetchingNextPage, fetchNextPage]);
  return { ...query, items: query.hasNextPage ? undefined : query.data?.pages.flatMap((p) => p.items) };
}
