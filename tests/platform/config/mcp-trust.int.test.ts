import { spawnSync } from "node:child_process";
import fs from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { updateTrustedMcpServers } from "../../../src/platform/config/index.js";
import { declare, env, marks, trustAll, useTrustWorkspaces, ws } from "./trust-workspaces.js";

useTrustWorkspaces();

describe("trust in a project's MCP servers", () => {
  it("trusted in a checkout, trusted in the git worktrees run --worktree makes of it", async () => {
    await declare(ws.root, ".mcp.json", { gh: { command: "npx", args: ["gh-server"] } });
    const git = (cwd: string, args: string[]) => {
      const r = spawnSync("git", ["-c", "user.name=T", "-c", "user.email=t@example.com", ...args], {
        cwd,
        encoding: "utf8",
        env: { PATH: process.env.PATH ?? "", HOME: ws.root, GIT_CONFIG_GLOBAL: os.devNull, GIT_CONFIG_NOSYSTEM: "1" },
      });
      if (r.status !== 0) throw new Error(`git ${args.join(" ")}: ${r.stderr}`);
    };
    git(ws.root, ["init", "-q", "-b", "main"]);
    git(ws.root, ["add", ".mcp.json"]);
    git(ws.root, ["commit", "-q", "-m", "servers"]);
    const folder = path.join(ws.root, ".mini-cursor", "worktrees", "20261203-150000-ab12");
    await fs.mkdir(path.dirname(folder), { recursive: true });
    git(ws.root, ["worktree", "add", "-q", "-b", "mini-cursor/20261203-150000-ab12", folder]);
    expect(marks(folder)).toEqual([["gh", "project", false]]);
    trustAll(ws.root);
    expect(marks(folder)).toEqual([["gh", "project", true]]);
    // Trusting from inside the worktree records it for the checkout.
    updateTrustedMcpServers(env, folder, () => ({}));
    expect(marks(ws.root)).toEqual([["gh", "project", false]]);
  });
});
