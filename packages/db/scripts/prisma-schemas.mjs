#!/usr/bin/env node
// Derives the PostgreSQL schema from the one model definition (prisma/schema.prisma) by
// swapping the datasource provider and the generator output. Prints the derived path.
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

const packageDirectory = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const source = readFileSync(path.join(packageDirectory, "prisma", "schema.prisma"), "utf8");

/** Returns the schema text for `provider`, with the generator writing next to it. */
export function deriveSchema(provider) {
  let text = source.replace(/(datasource db \{\s*provider\s*=\s*)"sqlite"/, `$1"${provider}"`);
  // The derived schema lives in src/generated/, so the output path becomes "./<provider>".
  text = text.replace(/output\s*=\s*"\.\.\/src\/generated\/sqlite"/, `output       = "./${provider}"`);
  if (!new RegExp(`datasource db \\{\\s*provider\\s*=\\s*"${provider}"`).test(text) || !text.includes(`"./${provider}"`)) {
    throw new Error("prisma-schemas: could not rewrite the datasource provider or generator output");
  }
  return text;
}

export function writeDerivedSchemas() {
  const directory = path.join(packageDirectory, "src", "generated");
  mkdirSync(directory, { recursive: true });
  const written = {};
  for (const provider of ["sqlite", "postgresql"]) {
    const file = path.join(directory, `schema.${provider}.prisma`);
    writeFileSync(file, `// GENERATED from prisma/schema.prisma by scripts/prisma-schemas.mjs. Do not edit.\n${deriveSchema(provider)}`);
    written[provider] = file;
  }
  return written;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const written = writeDerivedSchemas();
  for (const file of Object.values(written)) console.log(path.relative(packageDirectory, file));
}
