import { existsSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { Worker } from "node:worker_threads";
import { type LocalTokenizer, type TextTokenCounts, countTextTokens } from "./local-token-encoder.js";

type Waiter = { resolve(result: TextTokenCounts): void; reject(error: Error): void };

const workerUrl = new URL("./count-tokens-worker.js", import.meta.url);
let workerBuilt: boolean | undefined;
let worker: Worker | null = null;
let nextId = 1;
const pending = new Map<number, Waiter>();

function failPending(error: Error): void {
  for (const waiter of pending.values()) waiter.reject(error);
  pending.clear();
}

function startWorker(): Worker {
  const started = new Worker(workerUrl);
  started.unref();
  started.on("message", (reply: { id: number; result?: TextTokenCounts; error?: string }) => {
    const waiter = pending.get(reply.id);
    if (waiter === undefined) return;
    pending.delete(reply.id);
    if (pending.size === 0) started.unref();
    if (reply.result !== undefined) waiter.resolve(reply.result);
    else waiter.reject(new Error(reply.error ?? "token counting failed"));
  });
  const forget = (error: Error) => {
    if (worker === started) worker = null;
    failPending(error);
  };
  started.on("error", forget);
  started.on("exit", (code) => forget(new Error(`The token-counting thread exited (code ${code}).`)));
  return started;
}

/**
 * Counts the tokens of each text on a worker thread, started on first use and kept (unreferenced
 * while idle, so it never holds the process open). Loading a tokenizer's ranks takes about a
 * second of synchronous CPU and encoding takes up to its time budget: on the calling thread
 * either would hold every other request of a server. Where the worker module is not built
 * (the package run from its TypeScript sources), the texts are counted in this thread.
 */
export function countTextTokensOffThread(tokenizer: LocalTokenizer, texts: readonly string[]): Promise<TextTokenCounts> {
  if (texts.length === 0) return Promise.resolve({ counts: [], exact: true });
  workerBuilt ??= existsSync(fileURLToPath(workerUrl));
  if (!workerBuilt) return countTextTokens(tokenizer, texts);
  worker ??= startWorker();
  const thread = worker;
  return new Promise<TextTokenCounts>((resolve, reject) => {
    const id = nextId++;
    pending.set(id, { resolve, reject });
    thread.ref();
    thread.postMessage({ id, tokenizer, texts });
  });
}
