import { chmodSync, closeSync, mkdirSync, openSync, statSync } from "node:fs";
import path from "node:path";

/** Mode of the SQLite file: it holds password hashes, key hashes and encrypted credentials. */
export const SQLITE_FILE_MODE = 0o600;
/** Mode of a data directory the gateway creates. */
export const DATA_DIRECTORY_MODE = 0o700;

/**
 * Makes sure a SQLite database file exists with mode 0600 before the driver opens it (SQLite
 * creates its `-wal` and `-shm` files with the database file's mode), creating its directory with
 * mode 0700 when missing. An existing file (and existing `-wal`/`-shm`) readable by others is
 * narrowed to 0600; an existing directory is left as it is (it may be the working directory).
 */
export function prepareSqliteFile(filePath: string): void {
  mkdirSync(path.dirname(filePath), { recursive: true, mode: DATA_DIRECTORY_MODE });
  closeSync(openSync(filePath, "a", SQLITE_FILE_MODE));
  for (const file of [filePath, `${filePath}-wal`, `${filePath}-shm`]) {
    try {
      if ((statSync(file).mode & 0o077) !== 0) chmodSync(file, SQLITE_FILE_MODE);
    } catch (error) {
      // Absent (-wal/-shm before first use), or owned by another user: nothing to narrow here.
      const code = (error as NodeJS.ErrnoException).code;
      if (code !== "ENOENT" && code !== "EPERM") throw error;
    }
  }
}
