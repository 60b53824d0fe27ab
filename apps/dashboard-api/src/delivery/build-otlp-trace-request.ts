// Moved to `@gateway/pipeline` (the gateway's background exporter uses it too); re-exported for the dashboard's routes.
export { buildOtlpTraceRequest, createTraceId } from "@gateway/pipeline";
export type { ExportSpan } from "@gateway/pipeline";
