import fs from "node:fs";
import Database from "better-sqlite3";
import { describe, expect, it } from "vitest";
import { sqliteAddonPath } from "../../src/platform/sqlite-addon.js";

describe("sqliteAddonPath", () => {
  it("is better-sqlite3's compiled addon, which opens a database when passed as nativeBinding", () => {
    const addon = sqliteAddonPath();
    expect(addon).toMatch(/better-sqlite3\/build\/Release\/better_sqlite3\.node$/);
    expect(fs.existsSync(addon ?? "")).toBe(true);
    const db = new Database(":memory:", { nativeBinding: addon });
    try {
      expect(db.prepare("select 41 + 1 as answer").get()).toEqual({ answer: 42 });
    } finally {
      db.close();
    }
  });
});
