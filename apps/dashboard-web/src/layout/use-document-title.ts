import { useEffect } from "react";

/** What every page title ends with (the browser tab, history and bookmarks tell screens apart by the start). */
export const documentTitleSuffix = "AI Gateway";

/** The document title of a screen: `API keys · AI Gateway`. */
export function documentTitleOf(screenTitle: string): string {
  return screenTitle === "" ? documentTitleSuffix : `${screenTitle} · ${documentTitleSuffix}`;
}

/**
 * Names the browser tab after the screen while it is shown, so that tabs, history entries and
 * screen readers' page announcements say which screen this is.
 */
export function useDocumentTitle(screenTitle: string): void {
  useEffect(() => {
    document.title = documentTitleOf(screenTitle);
  }, [screenTitle]);
}
