import path from "node:path";
import { pathToFileURL } from "node:url";

/** Which database a URL points at. */
export type DatabaseProvider = "sqlite" | "postgresql";

/** A parsed `DATABASE_URL`. */
export interface ResolvedDatabaseUrl {
  provider: DatabaseProvider;
  /** For SQLite: the `file:` URL for libSQL. For PostgreSQL: the connection string without `schema`. */
  url: string;
  /** SQLite only: absolute path of the database file (null for `:memory:`). */
  filePath: string | null;
  /** PostgreSQL only: the `?schema=` parameter (default "public"). */
  schema: string | null;
}

/** Default SQLite file name inside the data directory. */
export const DEFAULT_SQLITE_FILE_NAME = "gateway.db";

/**
 * Resolves a database URL: unset -> SQLite `<dataDirectory>/gateway.db` (default `./data`);
 * `file:` -> SQLite; `postgres://` / `postgresql://` -> PostgreSQL (with optional `?schema=`).
 * Throws on anything else, naming only the scheme (URLs may contain passwords).
 */
export function resolveDatabaseUrl(url: string | undefined, dataDirectory = "./data"): ResolvedDatabaseUrl {
  if (url === undefined || url.trim() === "") {
    const filePath = path.resolve(dataDirectory, DEFAULT_SQLITE_FILE_NAME);
    return { provider: "sqlite", url: pathToFileURL(filePath).href, filePath, schema: null };
  }
  const trimmed = url.trim();
  if (trimmed.startsWith("file:")) {
    const rest = trimmed.slice("file:".length).split("?")[0] ?? "";
    if (rest === ":memory:") return { provider: "sqlite", url: "file::memory:", filePath: null, schema: null };
    // file:./relative, file:relative, file:/absolute, file:///absolute
    const filePath = rest.startsWith("//") ? decodeURIComponent(new URL(trimmed).pathname) : path.resolve(decodeURIComponent(rest));
    return { provider: "sqlite", url: pathToFileURL(filePath).href, filePath, schema: null };
  }
  if (trimmed.startsWith("postgres://") || trimmed.startsWith("postgresql://")) {
    let parsed: URL;
    try {
      parsed = new URL(trimmed);
    } catch {
      throw new Error("DATABASE_URL is not a valid postgresql:// URL");
    }
    const schema = parsed.searchParams.get("schema");
    parsed.searchParams.delete("schema");
    if (schema !== null && !/^[A-Za-z_][A-Za-z0-9_]{0,62}$/.test(schema)) {
      throw new Error("DATABASE_URL: the schema parameter must be a plain identifier ([A-Za-z_][A-Za-z0-9_]*)");
    }
    return { provider: "postgresql", url: parsed.toString(), filePath: null, schema: schema ?? "public" };
  }
  const scheme = /^([a-z][a-z0-9+.-]*):/i.exec(trimmed)?.[1];
  throw new Error(
    `DATABASE_URL: unsupported scheme ${scheme ? `"${scheme}:"` : "(none)"}; use file: (SQLite) or postgresql:// (PostgreSQL)`,
  );
}
