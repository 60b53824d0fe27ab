#!/usr/bin/env node
// Generates the two Prisma clients (src/generated/sqlite, src/generated/postgresql; gitignored)
// from prisma/schema.prisma. With --if-stale it does nothing when both are newer than the schema,
// so `test` and `typecheck` work on a fresh clone without a separate step.
// DATABASE_URL is always set: without it Prisma 6 tries to download an engine.
import { execFileSync } from "node:child_process";
import { existsSync, statSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { writeDerivedSchemas } from "./prisma-schemas.mjs";

const packageDirectory = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const source = path.join(packageDirectory, "prisma", "schema.prisma");
const outputs = {
  sqlite: { url: "file:./data/generate.db" },
  postgresql: { url: "postgresql://postgres@127.0.0.1:5432/postgres" },
};

const isStale = (provider) => {
  const marker = path.join(packageDirectory, "src", "generated", provider, "client.ts");
  return !existsSync(marker) || statSync(marker).mtimeMs < statSync(source).mtimeMs;
};

if (process.argv.includes("--if-stale") && !Object.keys(outputs).some(isStale)) process.exit(0);

const schemas = writeDerivedSchemas();
const prisma = path.join(packageDirectory, "node_modules", ".bin", "prisma");
for (const [provider, { url }] of Object.entries(outputs)) {
  execFileSync(prisma, ["generate", "--schema", schemas[provider]], {
    cwd: packageDirectory,
    env: { ...process.env, DATABASE_URL: url, PRISMA_SCHEMA: schemas[provider], PRISMA_HIDE_UPDATE_MESSAGE: "1" },
    stdio: ["ignore", "inherit", "inherit"],
  });
}
