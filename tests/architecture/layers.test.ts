import { spawnSync } from "node:child_process";
import fs from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { afterEach, beforeEach, describe, expect, it } from "vitest";

/**
 * The layer rule of `npm run lint` (.dependency-cruiser.cjs), run on the real tree and on copies of src/ with a
 * violation planted: it must pass on ours and fail, naming the rule, on each planted one.
 */
const REPO = fileURLToPath(new URL("../..", import.meta.url));
const DEPCRUISE = path.join(REPO, "node_modules/.bin/depcruise");

function cruise(root: string): { code: number | null; output: string } {
  const run = spawnSync(DEPCRUISE, ["src", "--config", ".dependency-cruiser.cjs", "--output-type", "err"], { cwd: root, encoding: "utf8" });
  return { code: run.status, output: `${run.stdout}${run.stderr}` };
}

let copy = "";
beforeEach(async () => {
  copy = await fs.mkdtemp(path.join(os.tmpdir(), "mc-layers-"));
  await fs.cp(path.join(REPO, "src"), path.join(copy, "src"), { recursive: true });
  for (const file of [".dependency-cruiser.cjs", "tsconfig.json", "package.json"]) await fs.copyFile(path.join(REPO, file), path.join(copy, file));
  await fs.symlink(path.join(REPO, "node_modules"), path.join(copy, "node_modules"), "dir");
});
afterEach(async () => {
  await fs.rm(copy, { recursive: true, force: true });
});

describe("the layer rule (npm run lint)", () => {
  it("passes on the code as it is", () => {
    const result = cruise(copy);
    expect(result.output).toContain("no dependency violations found");
    expect(result.code).toBe(0);
  });

  it("fails on an upward import (tools importing the graph)", async () => {
    await fs.writeFile(path.join(copy, "src/tools/planted.ts"), 'import type { WorkspaceStateValue } from "../graph/state.js";\nexport type Planted = WorkspaceStateValue;\n');
    const result = cruise(copy);
    expect(result.code).not.toBe(0);
    expect(result.output).toMatch(/layer-tools: src\/tools\/planted\.ts → src\/graph\/state\.ts/);
  });

  it("fails on a sideways import within a layer (cost importing safety)", async () => {
    await fs.writeFile(path.join(copy, "src/cost/planted.ts"), 'export { safetyPolicyFrom } from "../safety/config.js";\n');
    const result = cruise(copy);
    expect(result.code).not.toBe(0);
    expect(result.output).toMatch(/layer-cost: src\/cost\/planted\.ts → src\/safety\/config\.ts/);
  });

  it("fails on the core importing anything of ours", async () => {
    await fs.writeFile(path.join(copy, "src/core/planted.ts"), 'export { logger } from "../runtime/logger.js";\n');
    expect(cruise(copy).output).toMatch(/layer-core: src\/core\/planted\.ts → src\/runtime\/logger\.ts/);
  });

  it("fails on a cycle inside a folder", async () => {
    await fs.writeFile(path.join(copy, "src/tools/cycle-a.ts"), 'import { b } from "./cycle-b.js";\nexport const a = () => b;\n');
    await fs.writeFile(path.join(copy, "src/tools/cycle-b.ts"), 'import { a } from "./cycle-a.js";\nexport const b = () => a;\n');
    const result = cruise(copy);
    expect(result.code).not.toBe(0);
    expect(result.output).toContain("no-circular");
  });

  it("fails on the Studio graph reaching the session database, even through another module", async () => {
    // The layers allow it (wiring and studio are above sessions): the Studio rule does not.
    await fs.writeFile(path.join(copy, "src/wiring/planted.ts"), 'export { openSessionDatabase } from "../sessions/database.js";\n');
    await fs.appendFile(path.join(copy, "src/studio/graph.ts"), 'export { openSessionDatabase } from "../wiring/planted.js";\n');
    const result = cruise(copy);
    expect(result.code).not.toBe(0);
    expect(result.output).toContain("studio-uses-the-servers-checkpointer: src/studio/graph.ts → src/sessions/database.ts");
  });

  it("fails on a folder that has no layer yet", async () => {
    await fs.mkdir(path.join(copy, "src/plugins"));
    await fs.writeFile(path.join(copy, "src/plugins/client.ts"), 'export { logger } from "../runtime/logger.js";\n');
    expect(cruise(copy).output).toContain("unplaced-folder");
  });
});
