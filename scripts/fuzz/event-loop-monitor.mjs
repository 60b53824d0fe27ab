// Preloaded into a server process by `pnpm fuzz` (`node --import ./event-loop-monitor.mjs ...`):
// measures the process's own event loop with perf_hooks.monitorEventLoopDelay and reports,
// every 250 ms over the IPC channel, the longest delay since the last report and the RSS. Only
// in the main thread of a process started with an IPC channel; otherwise it does nothing.
import { monitorEventLoopDelay } from "node:perf_hooks";
import { isMainThread } from "node:worker_threads";

if (isMainThread && typeof process.send === "function") {
  const histogram = monitorEventLoopDelay({ resolution: 10 });
  histogram.enable();
  const timer = setInterval(() => {
    if (!process.connected) return;
    let rssBytes = Number.NaN;
    try {
      // Reads /proc: fails (EMFILE) while a flood holds every file descriptor of the process.
      rssBytes = process.memoryUsage.rss();
    } catch {
      // reported as NaN
    }
    process.send({ type: "event-loop", maxMs: histogram.max / 1e6, p99Ms: histogram.percentile(99) / 1e6, rssBytes });
    histogram.reset();
  }, 250);
  timer.unref();
  // The channel must not keep the server alive once it is asked to stop.
  process.channel?.unref();
}
