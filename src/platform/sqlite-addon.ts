import fs from "node:fs";
import { createRequire } from "node:module";

/**
 * better-sqlite3's compiled addon, by path, for its `nativeBinding` option. Without it better-sqlite3 finds the addon
 * through the `bindings` package, which probes a dozen folders; and the CLI bundle carries better-sqlite3's
 * JavaScript inside it (scripts/bundle.mjs: loading its 15 CommonJS files cost `sessions` more than listing the
 * rows), where that probing starts from the bundle's folder and would not find the addon. Undefined when the addon
 * is not where both of better-sqlite3's install paths (prebuilt download, node-gyp) put it: better-sqlite3 then
 * searches as usual, and says what is missing if it cannot find it either.
 */
let cached: string | null | undefined;

export function sqliteAddonPath(): string | undefined {
  if (cached === undefined) {
    try {
      const file = createRequire(import.meta.url).resolve("better-sqlite3/build/Release/better_sqlite3.node");
      cached = fs.existsSync(file) ? file : null;
    } catch {
      cached = null;
    }
  }
  return cached ?? undefined;
}
