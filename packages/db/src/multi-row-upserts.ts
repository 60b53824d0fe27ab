import type { DatabaseProvider } from "./database-url.js";
import { sqlPlaceholder } from "./sql-client.js";
import type { SqlStatement } from "./statement-runner.js";

/**
 * `INSERT INTO table (columns) VALUES (...), (...) ON CONFLICT (conflictColumns) DO UPDATE SET updates`,
 * up to `chunkSize` rows per statement (at most 200, which keeps the widest rollup under SQLite's
 * parameter limit). The rollups add to their rows this way: atomic increments, safe with concurrent
 * writers, the same syntax on both dialects.
 */
export function multiRowUpserts(
  provider: DatabaseProvider,
  table: string,
  columns: readonly string[],
  conflictColumns: readonly string[],
  updates: readonly string[],
  rows: readonly (readonly unknown[])[],
  chunkSize: number,
): SqlStatement[] {
  const head = `INSERT INTO "${table}" (${columns.map((column) => `"${column}"`).join(", ")}) VALUES `;
  const tail = ` ON CONFLICT (${conflictColumns.map((column) => `"${column}"`).join(", ")}) DO UPDATE SET ${updates.join(", ")}`;
  const statements: SqlStatement[] = [];
  const rowsPerStatement = Math.max(1, Math.min(chunkSize, 200));
  for (let start = 0; start < rows.length; start += rowsPerStatement) {
    const args: unknown[] = [];
    const tuples = rows.slice(start, start + rowsPerStatement).map((values) => {
      const placeholders = values.map((value) => {
        args.push(value);
        return sqlPlaceholder(provider, args.length);
      });
      return `(${placeholders.join(", ")})`;
    });
    statements.push({ sql: head + tuples.join(", ") + tail, args });
  }
  return statements;
}
