import { spawnSync } from "node:child_process";
import fs from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

/**
 * The layer rule of `npm run lint` (.dependency-cruiser.cjs), run once on a copy of src/ into which one violation of
 * each kind is planted, each in files of its own: the run must report every planted violation, naming its rule, and
 * nothing else, which is also the proof that the code as it is passes. (One run instead of one per case: a run of
 * dependency-cruiser over the whole tree takes seconds.)
 */
const REPO = fileURLToPath(new URL("../..", import.meta.url));
const DEPCRUISE = path.join(REPO, "node_modules/.bin/depcruise");

interface Violation {
  rule: { name: string };
  from: string;
  to: string;
}

/** What is planted, and the violation each plant must produce (as `rule: from → to`, or a rule alone for cycles). */
const PLANTS: { files: Record<string, string>; append?: Record<string, string>; expected: string }[] = [
  {
    // Upward: tools importing the graph.
    files: { "src/tools/planted.ts": 'import type { WorkspaceStateValue } from "../graph/state.js";\nexport type Planted = WorkspaceStateValue;\n' },
    expected: "layer-tools: src/tools/planted.ts → src/graph/state.ts",
  },
  {
    // Sideways within a layer: models (cost) importing safety.
    files: { "src/models/cost/planted.ts": 'export { safetyPolicyFrom } from "../../safety/config.js";\n' },
    expected: "layer-models: src/models/cost/planted.ts → src/safety/config.ts",
  },
  {
    // The core importing anything of ours.
    files: { "src/core/planted.ts": 'export { logger } from "../platform/logger.js";\n' },
    expected: "layer-core: src/core/planted.ts → src/platform/logger.ts",
  },
  {
    // One face importing another.
    files: { "src/faces/acp/planted.ts": 'export { main } from "../cli/main.js";\n' },
    expected: "faces-stand-alone: src/faces/acp/planted.ts → src/faces/cli/main.ts",
  },
  {
    // The Studio graph reaching the session database through another module (the layers allow it: host is above sessions).
    files: { "src/host/planted-db.ts": 'export { openSessionDatabase } from "../sessions/database.js";\n' },
    append: { "src/faces/studio/graph.ts": 'export { openSessionDatabase } from "../../host/planted-db.js";\n' },
    expected: "studio-uses-the-servers-checkpointer: src/faces/studio/graph.ts → src/sessions/database.ts",
  },
  {
    // A folder with no layer yet.
    files: { "src/plugins/client.ts": 'export { logger } from "../platform/logger.js";\n' },
    expected: "unplaced-folder: src/plugins/client.ts → src/platform/logger.ts",
  },
  {
    // A cycle inside a folder.
    files: {
      "src/agents/cycle-a.ts": 'import { b } from "./cycle-b.js";\nexport const a = () => b;\n',
      "src/agents/cycle-b.ts": 'import { a } from "./cycle-a.js";\nexport const b = () => a;\n',
    },
    expected: "no-circular: src/agents/cycle-a.ts → src/agents/cycle-b.ts",
  },
];

let copy = "";
let found: string[] = [];

beforeAll(async () => {
  copy = await fs.mkdtemp(path.join(os.tmpdir(), "mc-layers-"));
  await fs.cp(path.join(REPO, "src"), path.join(copy, "src"), { recursive: true });
  for (const file of [".dependency-cruiser.cjs", "tsconfig.json", "package.json"]) await fs.copyFile(path.join(REPO, file), path.join(copy, file));
  await fs.symlink(path.join(REPO, "node_modules"), path.join(copy, "node_modules"), "dir");
  for (const plant of PLANTS) {
    for (const [file, text] of Object.entries(plant.files)) {
      await fs.mkdir(path.dirname(path.join(copy, file)), { recursive: true });
      await fs.writeFile(path.join(copy, file), text);
    }
    for (const [file, text] of Object.entries(plant.append ?? {})) await fs.appendFile(path.join(copy, file), text);
  }
  const run = spawnSync(DEPCRUISE, ["src", "--config", ".dependency-cruiser.cjs", "--output-type", "json"], {
    cwd: copy,
    encoding: "utf8",
    maxBuffer: 256 * 1024 * 1024,
  });
  if (run.status !== 0) throw new Error(`dependency-cruiser failed: ${run.stderr}`);
  const report = JSON.parse(run.stdout) as { summary: { violations: Violation[] } };
  found = report.summary.violations.map((v) => `${v.rule.name}: ${v.from} → ${v.to}`);
}, 120_000);
afterAll(async () => {
  await fs.rm(copy, { recursive: true, force: true });
});

describe("the layer rule (npm run lint)", () => {
  it.each(PLANTS.map((p) => [p.expected]))("reports %s", (expected) => {
    expect(found).toContain(expected);
  });

  it("reports nothing but the planted violations: the code as it is passes", () => {
    const planted = new Set(PLANTS.map((p) => p.expected));
    // A cycle is reported once per module in it, and a reachability rule once per module reached (the planted
    // database module reaches SQLite and the session store too).
    const alsoPlanted = ["no-circular: src/agents/cycle-", "studio-uses-the-servers-checkpointer: src/faces/studio/graph.ts → "];
    const unexpected = found.filter((v) => !planted.has(v) && !alsoPlanted.some((prefix) => v.startsWith(prefix)));
    expect(unexpected).toEqual([]);
  });
});
