// The worker thread behind `openUsageWriterThread`: owns its own SQLite connection and writes the
// batches the gateway's thread posts, so that SQLite's inserts and fsyncs never run on its event loop.
import { parentPort, workerData } from "node:worker_threads";
import type { UsageEventRecord } from "@gateway/contracts";
import { createSqliteStatementRunner } from "./sqlite-statement-runner.js";
import { writeUsageBatch } from "./usage-events.js";
import type { UsageWriterReply, UsageWriterRequest, UsageWriterWorkerData } from "./usage-writer-messages.js";

const settings = workerData as UsageWriterWorkerData;
const statements = createSqliteStatementRunner(settings.url, settings.busyTimeoutMs);
const client = {
  provider: "sqlite" as const,
  runStatements: statements.run,
  queryStatement: statements.query,
};

/** Batches are written one after another, in the order they were posted. */
let previous: Promise<unknown> = Promise.resolve();

parentPort!.on("message", (request: UsageWriterRequest) => {
  previous = previous.then(async () => {
    let reply: UsageWriterReply;
    if (request.kind === "close") {
      await statements.close();
      reply = { id: request.id, written: 0 };
    } else {
      try {
        const written = await writeUsageBatch(client, request.events as UsageEventRecord[], {
          skipStored: request.skipStored,
          ...(request.apiKeysLastUsed === undefined ? {} : { apiKeysLastUsed: request.apiKeysLastUsed }),
        });
        reply = { id: request.id, written };
      } catch (error) {
        reply = { id: request.id, error: { message: error instanceof Error ? error.message : String(error), code: errorCode(error) } };
      }
    }
    parentPort!.postMessage(reply);
  });
});

function errorCode(error: unknown): string | undefined {
  const code = typeof error === "object" && error !== null ? (error as { code?: unknown }).code : undefined;
  return typeof code === "string" ? code : undefined;
}
