import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { brotliDecompressSync, gunzipSync } from "node:zlib";
import { afterAll, describe, expect, it } from "vitest";
import { precompressFile } from "../scripts/precompress-assets.js";

describe("precompressFile (the build's .gz and .br twins)", () => {
  const directory = mkdtempSync(path.join(tmpdir(), "precompress-"));
  afterAll(() => rmSync(directory, { recursive: true, force: true }));

  it("writes gzip and brotli twins that decode to the very file", async () => {
    const file = path.join(directory, "app.js");
    const source = `export const rows = ${JSON.stringify(Array.from({ length: 200 }, (_, index) => ({ index, label: `row ${index}` })))};\n`;
    writeFileSync(file, source);
    expect((await precompressFile(file)).map((written) => path.basename(written)).sort()).toEqual(["app.js.br", "app.js.gz"]);
    expect(gunzipSync(readFileSync(`${file}.gz`)).toString("utf8")).toBe(source);
    expect(brotliDecompressSync(readFileSync(`${file}.br`)).toString("utf8")).toBe(source);
    expect(readFileSync(`${file}.br`).length).toBeLessThan(Buffer.byteLength(source));
  });

  it("writes no twin that would not be smaller than the file", async () => {
    const file = path.join(directory, "tiny.css");
    writeFileSync(file, "a{}");
    expect(await precompressFile(file)).toEqual([]);
    expect(existsSync(`${file}.gz`)).toBe(false);
    expect(existsSync(`${file}.br`)).toBe(false);
  });
});
