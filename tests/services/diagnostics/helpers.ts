import { readdirSync, readFileSync } from "node:fs";
import { DIAGNOSTICS_DEFAULTS, type DiagnosticsSettings } from "../../../src/platform/config/index.js";
import { createDiagnosticsHub, type Diagnostics } from "../../../src/services/diagnostics/index.js";
import { addRepoPackage } from "../../helpers/repo-packages.js";
import { makeWorkspace, writeFiles, type TempWorkspace } from "../../tools/helpers.js";

export const STRICT_TSCONFIG = JSON.stringify({
  compilerOptions: { strict: true, target: "ES2022", module: "NodeNext", moduleResolution: "NodeNext", noEmit: true },
  include: ["src"],
});

/** A real TypeScript project in a temp folder: tsconfig.json, the files given, and (unless told not to) typescript. */
export async function makeTsProject(files: Record<string, string>, withTypescript = true): Promise<TempWorkspace> {
  const ws = await makeWorkspace();
  await writeFiles(ws.root, { "tsconfig.json": STRICT_TSCONFIG, ...files });
  if (withTypescript) {
    addRepoPackage(ws.root, "typescript");
  }
  return ws;
}

export function hub(settings: Partial<DiagnosticsSettings> = {}, parentEnv?: NodeJS.ProcessEnv): Diagnostics {
  return createDiagnosticsHub({ settings: { ...DIAGNOSTICS_DEFAULTS, ...settings }, sandbox: { kind: "bubblewrap", allowNetwork: false }, parentEnv });
}

/** Live processes whose command line mentions `text` (e.g. a temp workspace's path). */
export function processesMentioning(text: string): number[] {
  const found: number[] = [];
  for (const name of readdirSync("/proc")) {
    if (!/^\d+$/.test(name) || Number(name) === process.pid) continue;
    try {
      const cmdline = readFileSync(`/proc/${name}/cmdline`, "utf8");
      const stat = readFileSync(`/proc/${name}/stat`, "utf8");
      if (cmdline.includes(text) && stat.slice(stat.lastIndexOf(")") + 2, stat.lastIndexOf(")") + 3) !== "Z") found.push(Number(name));
    } catch {
      // Gone meanwhile.
    }
  }
  return found;
}
