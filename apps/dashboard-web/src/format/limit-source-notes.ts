/** What the figures are, by where they come from (`source` of the statuses). */
export const limitSourceNotes = {
  shared_counters: "the counters every gateway admits against (shared through Redis)",
  instance_counters: "the counters of the gateway running with this dashboard; other gateway instances without Redis keep their own",
  recorded_usage: "recorded usage, per gateway instance and approximate while several gateways run without Redis",
} as const;
