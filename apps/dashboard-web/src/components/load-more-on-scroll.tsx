import { useEffect, useRef } from "react";
import { LoadMoreButton } from "./load-more-button.js";

/**
 * Reads the next page of a {@link useCursorPages} list when the end of the list scrolls into view
 * (the page's own scrolling); the {@link LoadMoreButton} stays below it for the keyboard and for
 * screen readers, and says when everything is loaded.
 */
export function LoadMoreOnScroll(props: {
  pages: { hasNextPage: boolean; isFetchingNextPage: boolean; isError?: boolean; fetchNextPage: () => unknown };
  label: string;
  /** Said once the last page is in ("All 120 calls are shown."). */
  endLabel?: string;
}) {
  const sentinel = useRef<HTMLDivElement>(null);
  const { hasNextPage, isFetchingNextPage, fetchNextPage } = props.pages;
  // A page that failed is not read again by itself (no loop of failing requests): the button retries.
  const failed = props.pages.isError ?? false;
  useEffect(() => {
    const element = sentinel.current;
    if (!element || !hasNextPage || isFetchingNextPage || failed) return;
    // Starts reading a little before the end is visible, so scrolling rarely waits.
    const observer = new IntersectionObserver((entries) => {
      if (entries.some((entry) => entry.isIntersecting)) void fetchNextPage();
    }, { rootMargin: "0px 0px 400px 0px" });
    observer.observe(element);
    return () => observer.disconnect();
  }, [hasNextPage, isFetchingNextPage, failed, fetchNextPage]);
  return (
    <>
      <div ref={sentinel} aria-hidden="true" data-testid="load-more-sentinel" />
      <LoadMoreButton pages={props.pages} label={props.label} />
      {!hasNextPage && props.endLabel ? <p className="small muted">{props.endLabel}</p> : null}
    </>
  );
}
