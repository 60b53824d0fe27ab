/** Reads the next page of a {@link useCursorPages} list, shown while there is one. */
export function LoadMoreButton(props: { pages: { hasNextPage: boolean; isFetchingNextPage: boolean; fetchNextPage: () => unknown }; label: string }) {
  if (!props.pages.hasNextPage) return null;
  return (
    <div>
      <button type="button" className="button" onClick={() => void props.pages.fetchNextPage()} disabled={props.pages.isFetchingNextPage}>
        {props.pages.isFetchingNextPage ? "Loading…" : props.label}
      </button>
    </div>
  );
}
