import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { configFileSchema, postgresTarget, resolveDatabaseTarget } from "../../../src/platform/config/index.js";
import { ConfigError } from "../../../src/platform/config-file.js";
import { useTempWorkspace } from "../../helpers/temp-workspace.js";

describe("the session database setting", () => {
  const ws = useTempWorkspace();
  const home = () => path.join(ws.root, "home");
  const writeJson = (file: string, value: unknown) => {
    fs.mkdirSync(path.dirname(file), { recursive: true });
    fs.writeFileSync(file, JSON.stringify(value));
  };

  it("is SQLite (null) when nothing sets it", () => {
    expect(resolveDatabaseTarget({ HOME: home() }, ws.root)).toBeNull();
  });

  it("takes MINI_CURSOR_DATABASE_URL first, then mini-cursor.json, then the user config", () => {
    writeJson(path.join(home(), ".config", "mini-cursor", "config.json"), { database: "postgres://u@user-host/userdb" });
    expect(resolveDatabaseTarget({ HOME: home() }, ws.root)?.label).toBe("user-host:5432/userdb");
    writeJson(path.join(ws.root, "mini-cursor.json"), { database: "postgresql://u@project-host:6543/projdb" });
    expect(resolveDatabaseTarget({ HOME: home() }, ws.root)).toMatchObject({
      label: "project-host:6543/projdb",
      from: `${path.join(ws.root, "mini-cursor.json")}: database`,
    });
    expect(resolveDatabaseTarget({ HOME: home(), MINI_CURSOR_DATABASE_URL: "postgres://u:pw@env-host/envdb" }, ws.root)).toMatchObject({
      label: "env-host:5432/envdb",
      from: "MINI_CURSOR_DATABASE_URL",
    });
    // The file schema the run validates with accepts the key.
    expect(configFileSchema.parse({ database: "postgres://h/db" })).toEqual({ database: "postgres://h/db" });
  });

  it("labels a URL host:port/dbname, the database defaulting to the user's name", () => {
    expect(postgresTarget("postgres://alice:secret@db.example:5433/sessions?sslmode=require", "X").label).toBe("db.example:5433/sessions");
    expect(postgresTarget("postgres://alice@db.example", "X").label).toBe("db.example:5432/alice");
  });

  it.each(["http://u:secret@h/db", "secret", "postgres://u:secret@h:port/db", "mysql://u:secret@h/db"])(
    "refuses %s as a usage error that never shows the password",
    (url) => {
      let error: unknown;
      try {
        postgresTarget(url, "MINI_CURSOR_DATABASE_URL");
      } catch (e) {
        error = e;
      }
      expect(error).toBeInstanceOf(ConfigError);
      expect((error as Error).message).toMatch(/^MINI_CURSOR_DATABASE_URL /);
      expect((error as Error).message).not.toContain("secret");
    },
  );

  it("a config file whose database is not text is an error naming the file", () => {
    writeJson(path.join(ws.root, "mini-cursor.json"), { database: 5 });
    expect(() => resolveDatabaseTarget({ HOME: home() }, ws.root)).toThrow(`${path.join(ws.root, "mini-cursor.json")}: database: must be a postgres:// URL`);
  });
});
