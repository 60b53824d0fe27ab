import { useState } from "react";

/** Whether a create-or-edit dialog is open, and for which item (`null`: a new one). */
export function useEditDialog<Item>() {
  const [editing, setEditing] = useState<{ item: Item | null } | null>(null);
  return {
    open: editing !== null,
    item: editing?.item ?? null,
    create: () => setEditing({ item: null }),
    edit: (item: Item) => setEditing({ item }),
    close: () => setEditing(null),
  };
}
