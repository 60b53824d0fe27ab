import { useState } from "react";
import type { DeliveryTestOutcome } from "./delivery-test-result.js";
import { useApiMutation } from "./use-api-mutation.js";

/**
 * Test deliveries (`POST …/{id}/test`) to the destinations of a list, one at a time: each
 * destination's last outcome, and the failure of the latest test where it was the one tested.
 */
export function useDeliveryTest<Destination extends { id: string }>(options: { send: (destination: Destination) => Promise<DeliveryTestOutcome>; invalidate: readonly (readonly string[])[] }) {
  const [outcomes, setOutcomes] = useState<Record<string, DeliveryTestOutcome>>({});
  const test = useApiMutation({
    mutationFn: options.send,
    invalidate: options.invalidate,
    onSuccess: (outcome, destination) => setOutcomes((current) => ({ ...current, [destination.id]: outcome })),
  });
  const tested = (destination: Destination) => test.variables?.id === destination.id;
  return {
    send: (destination: Destination) => test.mutate(destination),
    /** A test is under way (tests run one at a time). */
    busy: test.isPending,
    sending: (destination: Destination) => test.isPending && tested(destination),
    outcome: (destination: Destination) => outcomes[destination.id],
    error: (destination: Destination) => (tested(destination) ? test.error : null),
  };
}
