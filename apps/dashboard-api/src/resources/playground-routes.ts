import { GatewayError, normalizeError, renderGatewayErrorBody } from "@gateway/errors";
import { z } from "zod";
import { canUseProject } from "../auth/dashboard-principal.js";
import { resourceId } from "../routing/common-schemas.js";
import { defineRoute, type DashboardRoute } from "../routing/dashboard-route.js";
import type { DashboardServices } from "../services/dashboard-services.js";
import { found } from "./resource-helpers.js";

const message = z.looseObject({
  role: z.enum(["system", "developer", "user", "assistant", "tool"]).default("user"),
  content: z.string().max(1_000_000),
});
const playgroundBody = z.looseObject({
  model: z.string().min(1).max(1000),
  messages: z.array(message).min(1).max(500),
  api_key_id: resourceId.describe("The API key to act as: its policies, limits and budgets apply, and usage is attributed to it and to you"),
  stream: z.boolean().default(false),
});

/** Playground route: `POST /api/playground/chat`. */
export function createPlaygroundRoutes(services: DashboardServices): DashboardRoute[] {
  return [
    defineRoute({
      method: "post",
      path: "/api/playground/chat",
      operationId: "playground_chat",
      summary: "Run one chat through the gateway as an API key",
      description:
        "Runs the chat through the gateway's normal inference pipeline (the same as `POST /v1/chat/completions`) as the " +
        "key `api_key_id`: project access, model policies, guardrails, routing, rate limits, budgets and usage attribution " +
        "apply, and the usage event records you as the user. Extra OpenAI chat fields pass through. Answers the " +
        "provider's chat completion, or with `stream: true` a server-sent event stream of chat completion chunks ending " +
        "with `data: [DONE]`; failures after the stream started arrive as an `event: error` whose data is the gateway " +
        "error body. The key must belong to one of your projects (owners and admins: any). Answers 503 " +
        "`service_unavailable` when this process has no gateway pipeline.",
      tag: "Playground",
      access: "playground:use",
      body: playgroundBody,
      exampleBody: { model: "demo/demo/echo", messages: [{ role: "user", content: "Hello" }], api_key_id: "key_example" },
      responses: [{ status: 200, description: "The chat completion (JSON) or its event stream", schema: z.record(z.string(), z.unknown()), eventStream: true }],
      async handler({ principal, body, request, response, requestId }) {
        const apiKey = found(
          await services.prisma.apiKey.findFirst({ where: { id: body.api_key_id, organizationId: principal.organization.id } }),
          "API key",
        );
        if (!canUseProject(principal, apiKey.projectId)) {
          throw new GatewayError("permission_denied", { message: "You may only use API keys of your own projects.", param: "api_key_id" });
        }
        if (services.playground === null) {
          throw new GatewayError("service_unavailable", { message: "The gateway pipeline is not available in this dashboard process." });
        }
        const { api_key_id: apiKeyId, ...chatBody } = body;
        const controller = new AbortController();
        response.on("close", () => {
          if (!response.writableFinished) controller.abort();
        });
        const result = await services.playground.chat({
          requestId,
          organizationId: principal.organization.id,
          apiKeyId,
          userId: principal.userId,
          body: chatBody,
          headers: request.headers,
          signal: controller.signal,
        });
        if (result.kind === "json") {
          const { "x-request-id": _ignored, ...headers } = result.headers;
          return { status: result.status, body: result.body, headers };
        }
        response.status(result.status);
        for (const [name, value] of Object.entries(result.headers)) if (name !== "x-request-id") response.setHeader(name, value);
        response.setHeader("content-type", "text/event-stream; charset=utf-8");
        response.setHeader("cache-control", "no-cache");
        response.setHeader("x-accel-buffering", "no");
        response.flushHeaders();
        try {
          for await (const event of result.events) {
            if (controller.signal.aborted) break;
            let frame = "";
            if (event.event) frame += `event: ${event.event}\n`;
            if (event.id) frame += `id: ${event.id}\n`;
            for (const line of event.data.split("\n")) frame += `data: ${line}\n`;
            if (!response.write(`${frame}\n`)) await new Promise((resolve) => response.once("drain", resolve));
          }
        } catch (error) {
          const gatewayError = normalizeError(error);
          if (gatewayError.status >= 500 && gatewayError.code === "internal_error") services.logger.error("playground stream failed", { request_id: requestId });
          if (!controller.signal.aborted) response.write(`event: error\ndata: ${JSON.stringify(renderGatewayErrorBody(gatewayError, requestId))}\n\n`);
        }
        response.end();
        return undefined;
      },
    }),
  ];
}
