import { useMutation, useQueryClient } from "@tanstack/react-query";

/**
 * A mutation that refreshes the listed queries (by key prefix) once it succeeded, so every
 * screen showing the changed resource updates.
 */
export function useApiMutation<Input, Result>(options: { mutationFn: (input: Input) => Promise<Result>; invalidate: readonly (readonly string[])[]; onSuccess?: (result: Result, input: Input) => void }) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: options.mutationFn,
    onSuccess: async (result, input) => {
      await Promise.all(options.invalidate.map((queryKey) => queryClient.invalidateQueries({ queryKey })));
      options.onSuccess?.(result, input);
    },
  });
}
