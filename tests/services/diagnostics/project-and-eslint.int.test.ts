import { afterEach, beforeAll, describe, expect, it } from "vitest";
import { addRepoPackage } from "../../helpers/repo-packages.js";
import { createEditFileTool } from "../../../src/tools/edit-file.js";
import { createProjectDiagnosticsTool } from "../../../src/tools/project-diagnostics.js";
import type { Diagnostics } from "../../../src/services/diagnostics/index.js";
import { createDiagnosticsHub } from "../../../src/services/diagnostics/index.js";
import { DIAGNOSTICS_DEFAULTS } from "../../../src/platform/config/index.js";
import { callTool, writeFiles, type TempWorkspace } from "../../tools/helpers.js";
import { requireBubblewrap } from "../../safety/sandbox/helpers.js";
import { hub, makeTsProject } from "./helpers.js";

const ESLINT_CONFIG = 'export default [{ files: ["**/*.js"], rules: { "no-unused-vars": "error", "no-undef": "off" } }];\n';

describe("project_diagnostics and ESLint (real checkers, real sandbox)", () => {
  let ws: TempWorkspace | undefined;
  let diagnostics: Diagnostics | undefined;
  beforeAll(async () => {
    await requireBubblewrap();
  });
  afterEach(async () => {
    diagnostics?.close();
    diagnostics = undefined;
    await ws?.cleanup();
    ws = undefined;
  });

  it("gives the reviewer every problem of the project, pre-existing ones included", async () => {
    ws = await makeTsProject({
      "src/a.ts": 'export const a: number = "x";\n',
      "src/b.ts": "export const b = 1;\n",
      "src/c.ts": 'import { missing } from "./b.js";\nexport const c = missing;\n',
    });
    diagnostics = hub();
    const result = await callTool(createProjectDiagnosticsTool({ root: ws.root, diagnostics }), {});
    expect(result.artifact.ok).toBe(true);
    expect(result.content).toContain("Project diagnostics (TypeScript): 2 problems.");
    expect(result.content).toContain("src/a.ts:1:14 TS2322 Type 'string' is not assignable to type 'number'.");
    expect(result.content).toContain("src/c.ts:1:10 TS2305");
  });

  it("says the project is clean when it is, and is a tool error without a sandbox", async () => {
    ws = await makeTsProject({ "src/b.ts": "export const b = 1;\n" });
    diagnostics = hub();
    const clean = await callTool(createProjectDiagnosticsTool({ root: ws.root, diagnostics }), {});
    expect(clean.content).toBe("Project diagnostics (TypeScript): no problems.");
    const unsandboxed = createDiagnosticsHub({ settings: DIAGNOSTICS_DEFAULTS, sandbox: { kind: "none" } });
    const refused = await callTool(createProjectDiagnosticsTool({ root: ws.root, diagnostics: unsandboxed }), {});
    expect(refused.artifact.ok).toBe(false);
    expect(refused.content).toMatch(/^Error: no project diagnostics: the project's checkers run only in the sandbox/);
  });

  it("runs the project's ESLint when it has a config and eslint: new errors after an edit, and in the project", async () => {
    ws = await makeTsProject({}, false);
    await writeFiles(ws.root, { "eslint.config.js": ESLINT_CONFIG, "package.json": '{ "type": "module" }\n', "lib.js": "export const used = 1;\n" });
    addRepoPackage(ws.root, "all", ["typescript"]);
    diagnostics = hub({ typescript: false });
    const edit = createEditFileTool({ root: ws.root, diagnostics });
    const clean = await callTool(edit, { path: "lib.js", oldText: "export const used = 1;", newText: "export const used = 2;" });
    expect(clean.content).not.toContain("Diagnostics");
    const bad = await callTool(edit, { path: "lib.js", oldText: "export const used = 2;", newText: "export const used = 2;\nconst unused = 3;" });
    expect(bad.content).toContain("Diagnostics: 1 new problem");
    expect(bad.content).toContain("lib.js:2:7 no-unused-vars 'unused' is assigned a value but never used.");
    const project = await callTool(createProjectDiagnosticsTool({ root: ws.root, diagnostics }), {});
    expect(project.content).toContain("Project diagnostics (ESLint): 1 problem.");
    // With TypeScript asked for, a project without its own is said not to have been type-checked.
    const withTs = hub();
    try {
      const both = await callTool(createProjectDiagnosticsTool({ root: ws.root, diagnostics: withTs }), {});
      expect(both.content).toMatch(/^Project diagnostics \(ESLint\): 1 problem\.\n/);
      expect(both.content).toContain("Note: no TypeScript diagnostics: the project has no `typescript` package installed (node_modules/typescript).");
    } finally {
      withTs.close();
    }
    expect(project.content).toContain("lib.js:2:7 no-unused-vars");
  });
});
