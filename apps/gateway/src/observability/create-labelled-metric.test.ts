import { Counter, Histogram, Registry } from "prom-client";
import { describe, expect, it } from "vitest";
import { createLabelledCounter, createLabelledHistogram } from "./create-labelled-metric.js";

const buckets = [0.005, 0.01, 0.1, 1];
const observations: [string, string, number][] = [
  ["/v1/chat/completions", "POST", 0.003],
  ["/v1/chat/completions", "POST", 0.005],
  ["/v1/chat/completions", "POST", 0.07],
  ["/v1/chat/completions", "POST", 4],
  ["/v1/models", "GET", 0.0001],
  ['a "quoted"\\route', "GET", 0.5],
];

describe("labelled counters and histograms", () => {
  it("render the same exposition text as prom-client's own metrics fed the same observations", async () => {
    const reference = new Registry();
    const referenceCounter = new Counter({ name: "requests_total", help: "Requests.", labelNames: ["route", "method"], registers: [reference] });
    const referenceHistogram = new Histogram({ name: "duration_seconds", help: "Durations.", labelNames: ["route", "method"], buckets, registers: [reference] });
    const registry = new Registry();
    const counter = createLabelledCounter({ name: "requests_total", help: "Requests.", labelNames: ["route", "method"], registry });
    const histogram = createLabelledHistogram({ name: "duration_seconds", help: "Durations.", labelNames: ["route", "method"], buckets, registry });
    for (const [route, method, seconds] of observations) {
      referenceCounter.labels(route, method).inc();
      referenceHistogram.labels(route, method).observe(seconds);
      counter(route, method).inc();
      histogram(route, method).observe(seconds);
    }
    referenceCounter.labels("/v1/models", "GET").inc(2.5);
    counter("/v1/models", "GET").inc(2.5);

    const text = await registry.metrics();
    expect(text).toBe(await reference.metrics());
    expect(text).toContain('duration_seconds_bucket{le="0.005",route="/v1/chat/completions",method="POST"} 2');
    expect(text).toContain('duration_seconds_bucket{le="+Inf",route="/v1/chat/completions",method="POST"} 4');
    expect(text).toContain('requests_total{route="/v1/models",method="GET"} 3.5');
  });

  it("refuses a label set of the wrong size, and renders nothing before the first observation", async () => {
    const registry = new Registry();
    const counter = createLabelledCounter({ name: "calls_total", help: "Calls.", labelNames: ["endpoint"], registry });
    expect(() => counter("a", "b")).toThrow(/Expected 1 label values/);
    expect(await registry.metrics()).toBe("# HELP calls_total Calls.\n# TYPE calls_total counter\n");
  });
});
