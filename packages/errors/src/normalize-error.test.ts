import { describe, expect, it } from "vitest";
import { normalizeError } from "./normalize-error.js";
import { renderDashboardErrorBody } from "./render-error.js";

describe("normalizeError", () => {
  it("answers a busy or unreachable database with 503 and Retry-After, never a 500", () => {
    // What Prisma throws when SQLite's write lock is held by another process past its timeout.
    const timedOut = Object.assign(new Error("Invalid `prisma.mcpServer.update()` invocation: Operations timed out"), {
      name: "PrismaClientKnownRequestError",
      code: "P1008",
    });
    for (const thrown of [timedOut, Object.assign(new Error("database is locked"), { code: "SQLITE_BUSY" }), Object.assign(new Error("terminating connection"), { code: "57P01" })]) {
      const error = normalizeError(thrown);
      expect(error.status).toBe(503);
      expect(error.code).toBe("service_unavailable");
      expect(error.retryAfter).toBe(1);
      // The driver's message (which can name tables and values) is never rendered.
      expect(JSON.stringify(renderDashboardErrorBody(error))).not.toContain("prisma");
    }
  });

  it("keeps other unknown errors a generic 500", () => {
    const error = normalizeError(Object.assign(new Error("boom"), { code: "P2002" }));
    expect(error.status).toBe(500);
    expect(error.code).toBe("internal_error");
  });
});
