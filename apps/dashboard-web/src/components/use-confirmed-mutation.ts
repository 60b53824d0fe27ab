import { useState } from "react";
import { useApiMutation } from "./use-api-mutation.js";

/**
 * A destructive call on one item (delete, revoke, remove) that is confirmed first: `ask(item)`
 * opens the confirmation, `dialog` is what a {@link ConfirmDialog} needs (open, confirm, close,
 * pending, error). The dialog closes once the call succeeded and the listed queries were
 * refreshed; closing it by hand forgets a failure.
 */
export function useConfirmedMutation<Item, Result>(options: { mutationFn: (item: Item) => Promise<Result>; invalidate: readonly (readonly string[])[] }) {
  const [item, setItem] = useState<Item | null>(null);
  const mutation = useApiMutation({ mutationFn: options.mutationFn, invalidate: options.invalidate, onSuccess: () => setItem(null) });
  return {
    /** The item awaiting confirmation. */
    item,
    ask: (next: Item) => setItem(next),
    dialog: {
      open: item !== null,
      onClose: () => {
        setItem(null);
        mutation.reset();
      },
      onConfirm: () => {
        if (item !== null) mutation.mutate(item);
      },
      pending: mutation.isPending,
      error: mutation.error,
    },
  };
}
