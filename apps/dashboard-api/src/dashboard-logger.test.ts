import { Writable } from "node:stream";
import { describe, expect, it } from "vitest";
import { createConsoleLogger } from "./dashboard-logger.js";

describe("createConsoleLogger", () => {
  it("removes key shapes and bearer tokens from messages and field values, and censors secret fields", async () => {
    const lines: string[] = [];
    const destination = new Writable({ write: (chunk: Buffer, _encoding, done) => void (lines.push(chunk.toString("utf8")), done()) });
    const logger = createConsoleLogger({ format: "json", destination });
    logger.warn("Connection test echoed sk-ant-api03-Zu4Ty8Rq2Wp6Nm1Lk5", { error: "upstream said Bearer eyJhbGciOiJIUzI1NiJ9.x", password: "hunter2hunter2" });
    await new Promise((resolve) => setImmediate(resolve));
    const entry = JSON.parse(lines.join("")) as Record<string, unknown>;
    expect(entry).toMatchObject({ msg: "Connection test echoed [redacted]", error: "upstream said Bearer [redacted]", password: "[redacted]" });
    expect(lines.join("")).not.toContain("Zu4Ty8Rq2W");
    expect(lines.join("")).not.toContain("eyJhbGciOi");
  });
});
