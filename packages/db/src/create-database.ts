import { createClient, type Client, type Config } from "@libsql/client";
import { PrismaLibSQL } from "@prisma/adapter-libsql";
import { PrismaPg } from "@prisma/adapter-pg";
import { PrismaClient as SqlitePrismaClient } from "./generated/sqlite/client";
import { PrismaClient as PostgresqlPrismaClient } from "./generated/postgresql/client";
import { resolveDatabaseUrl, type DatabaseProvider } from "./database-url.js";
import type { MigrationResult } from "./migrate-database.js";
import { openSqlConnections } from "./open-data-plane-database.js";
import type { SqlClient } from "./sql-client.js";
import { rememberListenConnection } from "./subscribe-control-plane-changes.js";

/**
 * The Prisma client type of both providers. The two generated clients (one per provider, from
 * the same model) expose the same API; the SQLite one is used as the common type.
 */
export type GatewayPrismaClient = SqlitePrismaClient;

/** What the Prisma repository functions need: the Prisma client and which SQL dialect it speaks. */
export interface DatabaseClient {
  readonly prisma: GatewayPrismaClient;
  readonly provider: DatabaseProvider;
}

/**
 * An open database: Prisma for the repositories plus the raw driver (`SqlClient`) for the
 * data-plane functions (snapshot, version, usage writes), which never go through Prisma.
 */
export interface Database extends DatabaseClient, SqlClient {
  /** The URL it was opened with (`file:` URL for SQLite; for PostgreSQL the password is masked). */
  readonly displayUrl: string;
  /** Applies the committed migrations of this provider (see `migrateDatabase`). */
  migrate(): Promise<MigrationResult>;
  /** Closes the Prisma client and its connections. */
  close(): Promise<void>;
}

/** Options of `createDatabase`. */
export interface CreateDatabaseOptions {
  /** `DATABASE_URL`; unset -> SQLite `<dataDirectory>/gateway.db`. */
  url?: string;
  /** Directory of the embedded default (created when missing). Default `./data`. */
  dataDirectory?: string;
  /**
   * SQLite busy timeout in milliseconds (waiting for another process's write lock). Default 5000.
   * libSQL waits synchronously, so open ONE Database per SQLite file per process.
   */
  sqliteBusyTimeoutMs?: number;
  /** PostgreSQL pool size. Default 10. */
  postgresqlPoolSize?: number;
}

/**
 * Opens the database named by `url` with the right driver adapter. Does not migrate: call
 * `migrate()` (the embedded default does so on start).
 */
export function createDatabase(options: CreateDatabaseOptions = {}): Database {
  const resolved = resolveDatabaseUrl(options.url, options.dataDirectory);
  const connections = openSqlConnections(resolved, options);
  if (connections.pool === null) {
    const busyTimeoutMs = options.sqliteBusyTimeoutMs ?? 5_000;
    const adapter = new BusyTimeoutLibSql({ url: resolved.url }, busyTimeoutMs);
    const prisma = new SqlitePrismaClient({ adapter });
    return {
      prisma,
      provider: "sqlite",
      displayUrl: connections.displayUrl,
      runStatements: connections.runStatements,
      queryStatement: connections.queryStatement,
      migrate: connections.migrate,
      close: async () => {
        await prisma.$disconnect();
        await connections.close();
      },
    };
  }
  // One pool for Prisma and the raw statements.
  const adapter = new PrismaPg(connections.pool, { schema: connections.schema ?? "public" });
  const prisma = new PostgresqlPrismaClient({ adapter }) as unknown as GatewayPrismaClient;
  const database: Database = {
    prisma,
    provider: "postgresql",
    displayUrl: connections.displayUrl,
    runStatements: connections.runStatements,
    queryStatement: connections.queryStatement,
    migrate: connections.migrate,
    close: async () => {
      await prisma.$disconnect();
      await connections.close();
    },
  };
  // For `subscribeControlPlaneChanges` (a dedicated LISTEN connection); not a property, the URL may hold a password.
  rememberListenConnection(database, { connectionString: resolved.url, schema: connections.schema ?? "public" });
  return database;
}

/**
 * libSQL opens a fresh SQLite connection after every transaction and offers no busy-timeout
 * option, so a second process's write would fail at once with SQLITE_BUSY. This adapter
 * factory sets `PRAGMA busy_timeout` on each new connection before it is used.
 */
type AdapterConfig = ConstructorParameters<typeof PrismaLibSQL>[0];
type AdapterClient = ReturnType<PrismaLibSQL["createClient"]>;

class BusyTimeoutLibSql extends PrismaLibSQL {
  readonly #busyTimeoutMs: number;

  constructor(config: Config, busyTimeoutMs: number) {
    super(config as AdapterConfig);
    this.#busyTimeoutMs = busyTimeoutMs;
  }

  // The adapter is typed against its own (older) @libsql/client; the client API it uses is the same.
  override createClient(config: AdapterConfig): AdapterClient {
    return withBusyTimeout(createClient(config as Config), this.#busyTimeoutMs) as unknown as AdapterClient;
  }
}

/** Wraps a libSQL client so each (lazily re-opened) connection gets a busy timeout. */
export function withBusyTimeout(client: Client, busyTimeoutMs: number): Client {
  let connectionNeedsPragma = true;
  const pragma = `PRAGMA busy_timeout = ${Math.max(0, Math.floor(busyTimeoutMs))}`;
  const prepare = async (): Promise<void> => {
    if (!connectionNeedsPragma) return;
    await client.execute(pragma);
    connectionNeedsPragma = false;
  };
  return new Proxy(client, {
    get(target, property, receiver) {
      const value = Reflect.get(target, property, receiver);
      if (typeof value !== "function") return value;
      if (property === "execute" || property === "batch" || property === "executeMultiple" || property === "migrate") {
        return async (...parameters: unknown[]) => {
          await prepare();
          return (value as (...values: unknown[]) => unknown).apply(target, parameters);
        };
      }
      if (property === "transaction") {
        return async (...parameters: unknown[]) => {
          await prepare();
          // The client hands this connection to the transaction and opens a new one afterwards.
          connectionNeedsPragma = true;
          return (value as (...values: unknown[]) => unknown).apply(target, parameters);
        };
      }
      return (value as (...values: unknown[]) => unknown).bind(target);
    },
  });
}
