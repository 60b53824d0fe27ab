// The token-counting thread's module (see `token-counting-thread.ts`): answers each
// `{ id, tokenizer, texts }` with `{ id, result }` or `{ id, error }`.
import { parentPort } from "node:worker_threads";
import { type LocalTokenizer, countTextTokens } from "./local-token-encoder.js";

parentPort?.on("message", (request: { id: number; tokenizer: LocalTokenizer; texts: string[] }) => {
  countTextTokens(request.tokenizer, request.texts).then(
    (result) => parentPort?.postMessage({ id: request.id, result }),
    (error: unknown) => parentPort?.postMessage({ id: request.id, error: error instanceof Error ? error.message : String(error) }),
  );
});
