#!/usr/bin/env node
// Applies the committed migrations to DATABASE_URL (unset: the embedded SQLite file ./data/gateway.db).
//   pnpm --filter @gateway/db migrate     (or, from the root: pnpm db:migrate)
import { createDatabase } from "../dist/index.js";

const database = createDatabase({ url: process.env.DATABASE_URL, dataDirectory: process.env.GATEWAY_DATA_DIR });
try {
  const result = await database.migrate();
  console.log(`${database.provider} ${database.displayUrl}`);
  for (const name of result.applied) console.log(`applied ${name}`);
  console.log(`${result.applied.length} applied, ${result.alreadyApplied.length} already applied`);
  if (result.unknown.length > 0) console.warn(`applied in the database but unknown here: ${result.unknown.join(", ")}`);
} catch (error) {
  console.error(`migration failed: ${error instanceof Error ? error.message : String(error)}`);
  process.exitCode = 1;
} finally {
  await database.close();
}
