import { useTranslation } from "react-i18next";

/** LoadMore reads a list's next page, while there is one. */
export function LoadMore({ list }: { list: { hasNextPage: boolean; isFetchingNextPage: boolean; fetchNextPage: () => unknown } }) {
  const { t } = useTranslation();
  if (!list.hasNextPage) return null;
  return (
    <button type="button" onClick={() => void list.fetchNextPage()} disabled={list.isFetchingNextPage}>
      {list.isFetchingNextPage ? t("loading") : t("loadMore")}
    </button>
  );
}
