import { readdir, readFile, stat, writeFile } from "node:fs/promises";
import path from "node:path";
import { promisify } from "node:util";
import { brotliCompress, constants, gzip } from "node:zlib";
import type { Plugin, ResolvedConfig } from "vite";

const gzipAsync = promisify(gzip);
const brotliAsync = promisify(brotliCompress);

/** Files worth compressing: text formats (images and fonts of the build are compressed already). */
const compressible = /\.(?:js|mjs|css|html|svg|json|txt|webmanifest)$/i;

/** Writes `<file>.gz` and `<file>.br` beside one file when they are smaller; answers the variants written. */
export async function precompressFile(filePath: string): Promise<string[]> {
  const original = await readFile(filePath);
  const [gzipped, brotli] = await Promise.all([
    gzipAsync(original, { level: constants.Z_BEST_COMPRESSION }),
    brotliAsync(original, {
      params: {
        [constants.BROTLI_PARAM_MODE]: constants.BROTLI_MODE_TEXT,
        [constants.BROTLI_PARAM_QUALITY]: constants.BROTLI_MAX_QUALITY,
        [constants.BROTLI_PARAM_SIZE_HINT]: original.length,
      },
    }),
  ]);
  const written: string[] = [];
  for (const [suffix, compressed] of [
    [".gz", gzipped],
    [".br", brotli],
  ] as const) {
    // A variant no smaller than the file is of no use: the server then sends the file itself.
    if (compressed.length >= original.length) continue;
    await writeFile(filePath + suffix, compressed);
    written.push(filePath + suffix);
  }
  return written;
}

async function listFiles(directory: string): Promise<string[]> {
  const entries = await readdir(directory, { withFileTypes: true });
  const nested = await Promise.all(entries.map((entry) => (entry.isDirectory() ? listFiles(path.join(directory, entry.name)) : Promise.resolve([path.join(directory, entry.name)]))));
  return nested.flat();
}

/**
 * A Vite build plugin: after the bundle is written, every text file of the output of at least
 * `minimumBytes` (default 1024) gets a gzip (`.gz`) and a brotli (`.br`) twin, made once at build
 * time, so that the dashboard API sends them without compressing per request.
 */
export function precompressAssets(options: { minimumBytes?: number } = {}): Plugin {
  const minimumBytes = options.minimumBytes ?? 1024;
  let outputDirectory = "";
  return {
    name: "gateway:precompress-assets",
    apply: "build",
    configResolved(config: ResolvedConfig) {
      outputDirectory = path.resolve(config.root, config.build.outDir);
    },
    async closeBundle() {
      const candidates = (await listFiles(outputDirectory)).filter((filePath) => compressible.test(filePath));
      const sizes = await Promise.all(candidates.map(async (filePath) => ({ filePath, size: (await stat(filePath)).size })));
      await Promise.all(sizes.filter((entry) => entry.size >= minimumBytes).map((entry) => precompressFile(entry.filePath)));
    },
  };
}
