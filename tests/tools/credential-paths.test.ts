import { promises as fs } from "node:fs";
import path from "node:path";
import { describe, expect, it, vi } from "vitest";
import { credentialSearchExclusions, isCredentialPath } from "../../src/safety/credential-files.js";
import { createReadFileTool } from "../../src/tools/read-file.js";
import { createSearchCodeTool } from "../../src/tools/search-code.js";
import { createWriteFileTool } from "../../src/tools/write-file.js";
import { callTool, exists } from "./helpers.js";
import { useWorkspace, ws } from "./credential-home.js";

useWorkspace();

describe("isCredentialPath", () => {
  it("knows the well-known credential locations under a home folder", () => {
    const home = "/home/someone";
    for (const p of [
      ".ssh",
      ".ssh/id_ed25519",
      ".aws/credentials",
      ".gnupg/private-keys-v1.d/x.key",
      ".config/gcloud/application_default_credentials.json",
      ".kube/config",
      ".docker/config.json",
      ".config/gh/hosts.yml",
      ".azure/msal_token_cache.json",
      ".netrc",
      ".npmrc",
      ".pypirc",
      ".git-credentials",
      ".config/mini-cursor/mcp-oauth/0123456789abcdef.json",
    ]) {
      expect(isCredentialPath(path.join(home, p), home), p).toBe(true);
    }
    for (const p of [".env", ".profile", ".sshrc", ".config/git/config", ".config/mini-cursor/config.json", "project/.npmrc.example", "project/id_rsa.pub"]) {
      expect(isCredentialPath(path.join(home, p), home), p).toBe(false);
    }
  });

  it("knows system secrets", () => {
    expect(isCredentialPath("/etc/shadow", "/home/someone")).toBe(true);
    expect(isCredentialPath("/etc/ssh/ssh_host_ed25519_key", "/home/someone")).toBe(true);
    expect(isCredentialPath("/etc/ssh/ssh_host_ed25519_key.pub", "/home/someone")).toBe(false);
    expect(isCredentialPath("/etc/passwd", "/home/someone")).toBe(false);
  });

  it("matches a home folder reached through a symlink by its real path", async () => {
    const link = path.join(ws.outside, "home-link");
    await fs.symlink(ws.root, link);
    expect(isCredentialPath(path.join(ws.root, ".ssh", "id_rsa"), link)).toBe(true);
  });

  it("turns credential locations inside a workspace into ripgrep exclusions", () => {
    expect(credentialSearchExclusions(ws.root, ws.root)).toEqual(expect.arrayContaining(["!.ssh", "!.aws", "!**/.config/gcloud", "!id_rsa", "!/.netrc"]));
    // Home-only names count in the home folder, not in a project below it.
    expect(credentialSearchExclusions(path.join(ws.root, "src"), ws.root)).not.toContain("!/.netrc");
    expect(credentialSearchExclusions(path.join(ws.root, "src"), ws.root).filter((g) => g.startsWith("!/"))).toEqual([]);
  });
});

describe("file tools refuse credential files", () => {
  it("read_file refuses a credential file with a clear error", async () => {
    const { content, artifact } = await callTool(createReadFileTool({ root: ws.root }), { path: ".ssh/id_rsa" });
    expect(artifact.ok).toBe(false);
    expect(content).toBe(
      `Error: path ".ssh/id_rsa" holds credentials (${path.join(ws.root, ".ssh")}); set MINI_CURSOR_ALLOW_CREDENTIAL_FILES=1 if you really want the agent to read it.`,
    );
    const netrc = await callTool(createReadFileTool({ root: ws.root }), { path: path.join(ws.root, ".netrc") });
    expect(netrc.content).toContain("holds credentials");
    expect(netrc.content).not.toContain("FAKE");
  });

  it("read_file refuses a workspace symlink that points at a credential file", async () => {
    await fs.symlink(path.join(ws.root, ".ssh", "id_rsa"), path.join(ws.root, "src", "notes.txt"));
    await fs.symlink("../.aws", path.join(ws.root, "src", "cloud"));
    for (const p of ["src/notes.txt", "src/cloud/credentials"]) {
      const { content, artifact } = await callTool(createReadFileTool({ root: ws.root }), { path: p });
      expect(artifact.ok, p).toBe(false);
      expect(content).toContain("holds credentials");
      expect(content).toContain("MINI_CURSOR_ALLOW_CREDENTIAL_FILES=1");
      expect(content).not.toContain("FAKE");
    }
  });

  it("keeps ordinary workspace files such as .env readable", async () => {
    const { content, artifact } = await callTool(createReadFileTool({ root: ws.root }), { path: ".env" });
    expect(artifact.ok).toBe(true);
    expect(content).toContain("FAKE-ENV");
  });

  it("write_file refuses to create or change credential files", async () => {
    const { content, artifact } = await callTool(createWriteFileTool({ root: ws.root }), {
      path: ".ssh/authorized_keys",
      content: "ssh-ed25519 AAAA attacker\n",
    });
    expect(artifact.ok).toBe(false);
    expect(content).toContain("holds credentials");
    expect(await exists(path.join(ws.root, ".ssh", "authorized_keys"))).toBe(false);
  });

  it("search_code refuses a workspace that is itself a credential folder", async () => {
    const { content } = await callTool(createSearchCodeTool({ root: path.join(ws.root, ".ssh") }), { pattern: "FAKE" });
    expect(content).toContain("holds credentials");
    expect(content).not.toContain("FAKE-PRIVATE-KEY");
  });

  it("allows them when MINI_CURSOR_ALLOW_CREDENTIAL_FILES=1", async () => {
    vi.stubEnv("MINI_CURSOR_ALLOW_CREDENTIAL_FILES", "1");
    const { content, artifact } = await callTool(createReadFileTool({ root: ws.root }), { path: ".ssh/id_rsa" });
    expect(artifact.ok).toBe(true);
    expect(content).toContain("FAKE-PRIVATE-KEY");
  });
});
