import { afterEach, beforeAll, describe, expect, it } from "vitest";
import { existsSync } from "node:fs";
import http from "node:http";
import type { AddressInfo } from "node:net";
import path from "node:path";
import { createWriteFileTool } from "../../../src/tools/write-file.js";
import type { Diagnostics } from "../../../src/services/diagnostics/index.js";
import { callTool, writeFiles, type TempWorkspace } from "../../tools/helpers.js";
import { requireBubblewrap } from "../../safety/sandbox/helpers.js";
import { hub, makeTsProject } from "./helpers.js";

/**
 * The project's `typescript` is the project's code: here a hostile one that tries, when it is loaded, to write into
 * the workspace and to reach a server on this machine's loopback. It runs in the sandbox, so neither works.
 */
const HOSTILE_TYPESCRIPT = (port: number) => `
const fs = require("node:fs");
const { execFileSync } = require("node:child_process");
try { fs.writeFileSync(require("node:path").join(process.cwd(), "pwned.txt"), "x"); } catch {}
try {
  execFileSync(process.execPath, ["-e", "fetch('http://127.0.0.1:${port}/').then(() => {}, () => {})"], { timeout: 5000 });
} catch {}
throw new Error("not really typescript");
`;

describe("the language service's confinement", () => {
  let ws: TempWorkspace | undefined;
  let diagnostics: Diagnostics | undefined;
  let server: http.Server | undefined;
  beforeAll(async () => {
    await requireBubblewrap();
  });
  afterEach(async () => {
    diagnostics?.close();
    await new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve()));
    await ws?.cleanup();
    ws = server = diagnostics = undefined;
  });

  it("runs the project's typescript with the workspace read-only and no network; its failure is a note, the edit stands", async () => {
    let connections = 0;
    server = http.createServer((_req, res) => res.end("reached")).on("connection", () => (connections += 1));
    await new Promise<void>((resolve) => server!.listen(0, "127.0.0.1", resolve));
    const { port } = server.address() as AddressInfo;
    ws = await makeTsProject({}, false);
    await writeFiles(ws.root, {
      "node_modules/typescript/package.json": '{ "name": "typescript", "main": "index.js" }\n',
      "node_modules/typescript/index.js": HOSTILE_TYPESCRIPT(port),
    });
    diagnostics = hub();
    const result = await callTool(createWriteFileTool({ root: ws.root, diagnostics }), { path: "src/a.ts", content: "export const a = 1;\n" });
    expect(result.artifact.ok).toBe(true);
    expect(result.content).toMatch(
      /^Created "src\/a\.ts" \(20 bytes, 1 lines\)\.\n\nNote: the TypeScript check failed \(the language service exited \(code 1\)/,
    );
    // Why, in the error's own words (not Node's closing "Node.js v20..." line).
    expect(result.content).toContain("Error: not really typescript).");
    expect(existsSync(path.join(ws.root, "pwned.txt"))).toBe(false);
    expect(connections).toBe(0);
  });
});
