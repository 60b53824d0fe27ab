import { describe, expect, it } from "vitest";
import { databaseTargets, type FreshDatabase } from "./database-targets.js";
import type { Database } from "../src/index.js";

/** Tables, columns and indexes, normalised so SQLite and PostgreSQL can be compared. */
interface Structure {
  tables: Record<string, { columns: Record<string, { type: string; nullable: boolean }>; primaryKey: string[]; indexes: Record<string, { columns: string[]; unique: boolean }> }>;
}

/** Maps both dialects' type names onto one family. */
function typeFamily(type: string): string {
  const normalised = type.toLowerCase();
  if (/^(text|varchar|character varying|char)/.test(normalised)) return "text";
  if (/^(bigint|int8)/.test(normalised)) return "bigint";
  if (/^(integer|int|int4|smallint)/.test(normalised)) return "integer";
  if (/^(boolean|bool)/.test(normalised)) return "boolean";
  if (/^(datetime|timestamp)/.test(normalised)) return "datetime";
  if (/^(jsonb|json)/.test(normalised)) return "json";
  if (/^(real|double|float|numeric|decimal)/.test(normalised)) return "number";
  return normalised;
}

async function sqliteStructure(database: Database): Promise<Structure> {
  const structure: Structure = { tables: {} };
  const tables = await database.prisma.$queryRawUnsafe<{ name: string }[]>(
    `SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' ORDER BY name`,
  );
  for (const { name } of tables) {
    const columns = await database.prisma.$queryRawUnsafe<{ name: string; type: string; notnull: number | bigint; pk: number | bigint }[]>(`PRAGMA table_info("${name}")`);
    const indexList = await database.prisma.$queryRawUnsafe<{ name: string; unique: number | bigint; origin: string }[]>(`PRAGMA index_list("${name}")`);
    const indexes: Structure["tables"][string]["indexes"] = {};
    for (const index of indexList) {
      if (index.origin === "pk") continue;
      const indexColumns = await database.prisma.$queryRawUnsafe<{ name: string; seqno: number | bigint }[]>(`PRAGMA index_info("${index.name}")`);
      indexes[index.name] = { columns: [...indexColumns].sort((left, right) => Number(left.seqno) - Number(right.seqno)).map((column) => column.name), unique: Number(index.unique) === 1 };
    }
    structure.tables[name] = {
      columns: Object.fromEntries(columns.map((column) => [column.name, { type: typeFamily(column.type), nullable: Number(column.notnull) === 0 && Number(column.pk) === 0 }])),
      primaryKey: columns.filter((column) => Number(column.pk) > 0).sort((left, right) => Number(left.pk) - Number(right.pk)).map((column) => column.name),
      indexes,
    };
  }
  return structure;
}

/** Hand-written PostgreSQL indexes SQLite has no counterpart for (GIN over JSON). */
const postgresqlOnlyIndexes = new Set(["usage_events_metadata_idx"]);

async function postgresqlStructure(database: Database, schema: string): Promise<Structure> {
  const structure: Structure = { tables: {} };
  const columns = await database.prisma.$queryRawUnsafe<{ table_name: string; column_name: string; data_type: string; is_nullable: string }[]>(
    // Day partitions of `usage_events` are the parent's storage, not tables of their own.
    `SELECT c.table_name::text AS table_name, c.column_name::text AS column_name, c.data_type::text AS data_type, c.is_nullable::text AS is_nullable
       FROM information_schema.columns c
      WHERE c.table_schema = $1
        AND NOT EXISTS (SELECT 1 FROM pg_class t JOIN pg_namespace n ON n.oid = t.relnamespace WHERE n.nspname = c.table_schema AND t.relname = c.table_name AND t.relispartition)
      ORDER BY c.table_name, c.ordinal_position`,
    schema,
  );
  for (const column of columns) {
    structure.tables[column.table_name] ??= { columns: {}, primaryKey: [], indexes: {} };
    structure.tables[column.table_name]!.columns[column.column_name] = { type: typeFamily(column.data_type), nullable: column.is_nullable === "YES" };
  }
  const indexes = await database.prisma.$queryRawUnsafe<{ table_name: string; index_name: string; is_unique: boolean; is_primary: boolean; columns: string[] }[]>(
    `SELECT t.relname::text AS table_name, i.relname::text AS index_name, ix.indisunique AS is_unique, ix.indisprimary AS is_primary,
            array(SELECT a.attname FROM unnest(ix.indkey) WITH ORDINALITY AS k(attnum, position)
                  JOIN pg_attribute a ON a.attrelid = t.oid AND a.attnum = k.attnum ORDER BY k.position)::text[] AS columns
       FROM pg_index ix JOIN pg_class t ON t.oid = ix.indrelid JOIN pg_class i ON i.oid = ix.indexrelid
       JOIN pg_namespace n ON n.oid = t.relnamespace WHERE n.nspname = $1 AND NOT t.relispartition`,
    schema,
  );
  for (const index of indexes) {
    if (postgresqlOnlyIndexes.has(index.index_name)) continue;
    const table = structure.tables[index.table_name]!;
    if (index.is_primary) table.primaryKey = index.columns;
    else table.indexes[index.index_name] = { columns: index.columns, unique: index.is_unique };
  }
  return structure;
}

const [sqliteTarget, postgresqlTarget] = databaseTargets as [(typeof databaseTargets)[0], (typeof databaseTargets)[0]];

describe.skipIf(postgresqlTarget.skip)("both migration histories", () => {
  it("produce the same tables, columns (name, type family, nullability), primary keys and indexes", async () => {
    const fresh: FreshDatabase[] = [await sqliteTarget.fresh(), await postgresqlTarget.fresh()];
    const [sqlite, postgresql] = fresh.map((database) => database.open()) as [Database, Database];
    try {
      await sqlite.migrate();
      await postgresql.migrate();
      const left = await sqliteStructure(sqlite);
      const right = await postgresqlStructure(postgresql, fresh[1]!.schema!);
      expect(Object.keys(left.tables).length).toBeGreaterThan(20);
      expect(left.tables.usage_events?.columns.cost_micros).toEqual({ type: "bigint", nullable: false });
      expect(right).toEqual(left);
    } finally {
      await sqlite.close();
      await postgresql.close();
      await Promise.all(fresh.map((database) => database.cleanup()));
    }
  });
});
