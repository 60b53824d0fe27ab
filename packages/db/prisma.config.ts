/**
 * Prisma CLI configuration (Prisma 6.19, JavaScript engine: no engine binaries, nothing is
 * downloaded). Always run the CLI with DATABASE_URL set; the package scripts do.
 * Migrations are NOT applied with `prisma migrate deploy` (it fails on PostgreSQL here,
 * prisma/orm#27403): `src/migrate.ts` applies `migrations/<provider>/` itself.
 */
import path from "node:path";
import { defineConfig } from "prisma/config";
import { PrismaLibSQL } from "@prisma/adapter-libsql";
import { PrismaPg } from "@prisma/adapter-pg";

export default defineConfig({
  engine: "js",
  experimental: { adapter: true },
  // The PostgreSQL variant is derived (scripts/prisma-schemas.mjs); scripts select it with PRISMA_SCHEMA.
  schema: process.env.PRISMA_SCHEMA ?? path.join("prisma", "schema.prisma"),
  async adapter() {
    const url = process.env.DATABASE_URL ?? "file:./data/gateway.db";
    if (url.startsWith("postgres://") || url.startsWith("postgresql://")) {
      return new PrismaPg({ connectionString: url });
    }
    return new PrismaLibSQL({ url });
  },
});
