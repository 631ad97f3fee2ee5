import { promises as fs } from "node:fs";
import os from "node:os";
import path from "node:path";
import { performance } from "node:perf_hooks";
import { DIAGNOSTICS_DEFAULTS } from "../src/platform/config/index.js";
import { createDiagnosticsHub } from "../src/services/diagnostics/index.js";
import { createEditFileTool } from "../src/tools/edit-file.js";
import { median, ms, p95, printTable } from "./stats.js";

/**
 * Benchmark: what diagnostics add to an edit_file call on a real TypeScript project (this repository's typescript
 * linked in, strict, 60 modules importing each other), in the real sandbox: the first check (the language service
 * starts), warm checks of a clean edit, warm checks of an edit that breaks an importer, against edit_file without
 * diagnostics. Run: node --import tsx bench/diagnostics.ts
 */
const MODULES = 60;
const RUNS = 15;

async function makeProject(): Promise<string> {
  const root = await fs.realpath(await fs.mkdtemp(path.join(os.tmpdir(), "mini-cursor-bench-diag-")));
  await fs.mkdir(path.join(root, "src"));
  await fs.mkdir(path.join(root, "node_modules"));
  await fs.symlink(path.resolve("node_modules/typescript"), path.join(root, "node_modules", "typescript"));
  await fs.writeFile(
    path.join(root, "tsconfig.json"),
    JSON.stringify({ compilerOptions: { strict: true, target: "ES2022", module: "NodeNext", moduleResolution: "NodeNext", noEmit: true }, include: ["src"] }),
  );
  for (let i = 0; i < MODULES; i++) {
    const imports = i === 0 ? "" : `import { value${i - 1} } from "./m${i - 1}.js";\n`;
    const body = `export function value${i}(n: number): number {\n  return ${i === 0 ? "n" : `value${i - 1}(n)`} + ${i};\n}\n`;
    await fs.writeFile(path.join(root, "src", `m${i}.ts`), `${imports}${body}export const label${i}: string = "m${i}";\n`);
  }
  return root;
}

async function time(fn: () => Promise<unknown>): Promise<number> {
  const t = performance.now();
  await fn();
  return performance.now() - t;
}

export async function benchDiagnostics(): Promise<void> {
  const root = await makeProject();
  const diagnostics = createDiagnosticsHub({ settings: DIAGNOSTICS_DEFAULTS, sandbox: { kind: "bubblewrap", allowNetwork: false } });
  try {
    const plain = createEditFileTool({ root });
    const checked = createEditFileTool({ root, diagnostics });
    const file = "src/m30.ts";
    const flip = (tool: typeof plain, k: number) =>
      tool.invoke({ path: file, oldText: k % 2 === 0 ? "+ 30;" : "+ 31;", newText: k % 2 === 0 ? "+ 31;" : "+ 30;" });
    const baseline: number[] = [];
    for (let k = 0; k < RUNS * 2; k++) baseline.push(await time(() => flip(plain, k)));
    const first = await time(() => flip(checked, 0));
    const warm: number[] = [];
    for (let k = 1; k <= RUNS * 2; k++) warm.push(await time(() => flip(checked, k)));
    const breaking: number[] = [];
    let reported = "";
    for (let k = 0; k < RUNS; k++) {
      // Renaming the export breaks src/m31.ts; renaming it back fixes it.
      breaking.push(
        await time(async () => (reported = String(await checked.invoke({ path: file, oldText: "function value30(", newText: "function renamed30(" })))),
      );
      await checked.invoke({ path: file, oldText: "function renamed30(", newText: "function value30(" });
    }
    if (!reported.includes("src/m31.ts") || !reported.includes("TS2305")) throw new Error(`the breaking edit was not reported: ${reported}`);
    printTable(
      `diagnostics after edit_file (${MODULES} modules, strict, sandboxed language service)`,
      ["case", "median", "p95"],
      [
        ["edit_file without diagnostics", ms(median(baseline)), ms(p95(baseline))],
        ["first check (service starts)", ms(first), ms(first)],
        ["warm check, clean edit", ms(median(warm)), ms(p95(warm))],
        ["warm check, importer broken", ms(median(breaking)), ms(p95(breaking))],
      ],
    );
  } finally {
    diagnostics.close();
    await fs.rm(root, { recursive: true, force: true });
  }
}

if (import.meta.url === `file://${process.argv[1]}`) await benchDiagnostics();
