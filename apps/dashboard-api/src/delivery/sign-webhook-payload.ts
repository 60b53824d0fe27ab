// Moved to `@gateway/pipeline` (the gateway signs its webhooks the same way); re-exported for the dashboard's routes.
export { signWebhookPayload, verifyWebhookSignature, webhookSignatureHeader } from "@gateway/pipeline";
