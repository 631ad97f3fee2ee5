import { promises as fs } from "node:fs";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { projectContext } from "../../src/agents/brief.js";
import { makeWorkspace, type TempWorkspace } from "../tools/helpers.js";

/**
 * The project's rule files go into every sub-agent's brief, read by mini-cursor itself (outside the sandbox). A
 * rule file that is a symlink (committed in a cloned repository, or planted by a command) must not carry a file from
 * outside the workspace, a credential file or mini-cursor's own state into the brief, and so to the model.
 */
let ws: TempWorkspace | undefined;
afterEach(async () => {
  await ws?.cleanup();
  ws = undefined;
});

describe("project rules read through a symlink", () => {
  it("leave out a rule file that leads outside the workspace", async () => {
    ws = await makeWorkspace();
    await fs.symlink(path.join(ws.outside, "secret.txt"), path.join(ws.root, "AGENTS.md"));
    await fs.mkdir(path.join(ws.root, ".github"));
    await fs.symlink("../../outside/secret.txt", path.join(ws.root, ".github", "copilot-instructions.md"));
    expect(await projectContext(ws.root)).not.toContain("TOP SECRET");
  });

  it("leave out a credential file and mini-cursor's state, and take the next rule file", async () => {
    ws = await makeWorkspace();
    await fs.mkdir(path.join(ws.root, ".aws"));
    await fs.writeFile(path.join(ws.root, ".aws", "credentials"), "aws_secret_access_key = KEY\n");
    await fs.mkdir(path.join(ws.root, ".mini-cursor"));
    await fs.writeFile(path.join(ws.root, ".mini-cursor", "notes"), "STATE\n");
    await fs.symlink(".aws/credentials", path.join(ws.root, "AGENTS.md"));
    await fs.symlink(".mini-cursor/notes", path.join(ws.root, "CLAUDE.md"));
    await fs.writeFile(path.join(ws.root, ".cursorrules"), "Use pnpm.\n");
    const context = await projectContext(ws.root);
    expect(context).not.toContain("aws_secret_access_key");
    expect(context).not.toContain("STATE");
    expect(context).toContain("Project rules from .cursorrules (follow them):\nUse pnpm.");
  });

  it("still follow a symlink that stays in the workspace (CLAUDE.md -> AGENTS.md)", async () => {
    ws = await makeWorkspace();
    await fs.mkdir(path.join(ws.root, "docs"));
    await fs.writeFile(path.join(ws.root, "docs", "agents.md"), "Run npm test.\n");
    await fs.symlink("docs/agents.md", path.join(ws.root, "CLAUDE.md"));
    expect(await projectContext(ws.root)).toContain("Project rules from CLAUDE.md (follow them):\nRun npm test.");
  });
});
