import Database from "better-sqlite3";
import { describe, expect, it } from "vitest";
import { damagedDatabaseLine, noteOpenedDatabase } from "../../src/sessions/data-errors.js";

/** better-sqlite3's own error class, with the extended result codes it reports (SQLITE_CONSTRAINT_UNIQUE, …). */
const sqliteError = (message: string, code: string) => new Database.SqliteError(message, code);

describe("damagedDatabaseLine", () => {
  noteOpenedDatabase("/w/.mini-cursor/sessions.sqlite");

  it.each(["SQLITE_CORRUPT", "SQLITE_CORRUPT_INDEX", "SQLITE_CORRUPT_SEQUENCE", "SQLITE_CORRUPT_VTAB", "SQLITE_NOTADB"])(
    "names the file and the way out for %s, also when it is the cause of another error",
    (code) => {
      const line = damagedDatabaseLine(new Error("checkpoint read failed", { cause: sqliteError("database disk image is malformed", code) }));
      expect(line).toMatch(/^the session database \/w\/\.mini-cursor\/sessions\.sqlite is damaged \(database disk image is malformed\)/);
      expect(line).toContain('mv "/w/.mini-cursor/sessions.sqlite" "/w/.mini-cursor/sessions.sqlite.damaged"');
    },
  );

  it.each(["SQLITE_BUSY", "SQLITE_CONSTRAINT_UNIQUE", "SQLITE_IOERR_SHORT_READ"])("leaves %s to its own handling", (code) => {
    expect(damagedDatabaseLine(sqliteError("not damage", code))).toBeUndefined();
  });
});
