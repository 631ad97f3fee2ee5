import { randomUUID } from "node:crypto";
import { existsSync, promises as fs } from "node:fs";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { evaluateCommand } from "../../src/safety/command-rules.js";
import { credentialLocationOf } from "../../src/safety/credential-files.js";
import { createReadFileTool } from "../../src/tools/read-file.js";
import { runSandboxed, useSandboxWorkspace } from "./sandbox/helpers.js";
import { callTool } from "../tools/helpers.js";

/**
 * One catalogue, three guards: every location in the table is refused by the file tools' check, denied by the
 * command rules when a command names it, and hidden from a command in the real bubblewrap sandbox; project
 * files stay readable everywhere. System files the host lacks are created for the test and removed after
 * (CI runs as root), so "hidden" is never just "missing".
 */

const ws = useSandboxWorkspace();

interface Row {
  name: string;
  path: () => string;
  /** What the sandbox probe reads, when not `path`: see the /proc row. */
  sandboxPath?: () => string;
  /** Inside the workspace: also read with the real read_file tool. */
  workspaceRel?: string;
}

const suffix = randomUUID().slice(0, 8);
const REFUSED: Row[] = [
  { name: "workspace .aws/credentials", path: () => path.join(ws().root, ".aws/credentials"), workspaceRel: ".aws/credentials" },
  { name: "workspace fixtures/.ssh/id_rsa", path: () => path.join(ws().root, "fixtures/.ssh/id_rsa"), workspaceRel: "fixtures/.ssh/id_rsa" },
  { name: "workspace fixtures/keys/id_ed25519", path: () => path.join(ws().root, "fixtures/keys/id_ed25519"), workspaceRel: "fixtures/keys/id_ed25519" },
  { name: "~/.ssh/id_rsa", path: () => path.join(ws().home, ".ssh/id_rsa") },
  { name: "~/.netrc", path: () => path.join(ws().home, ".netrc") },
  { name: "/etc/shadow", path: () => "/etc/shadow" },
  { name: "/etc/ssl/private/x", path: () => `/etc/ssl/private/mini-cursor-test-${suffix}.key` },
  { name: "/etc/sudoers", path: () => "/etc/sudoers" },
  // In the sandbox a command sees only its own processes (a fresh /proc), whose environment it has anyway; what
  // must stay unreadable is another process's, such as the agent's own (this test process) with its API keys.
  { name: "/proc/self/environ", path: () => "/proc/self/environ", sandboxPath: () => `/proc/${process.pid}/environ` },
  { name: "/run/secrets/x", path: () => `/run/secrets/mini-cursor-test-${suffix}` },
];

/** The project's own files, and the public half of a key pair. */
const READABLE: Row[] = [
  { name: "workspace .env", path: () => path.join(ws().root, ".env"), workspaceRel: ".env" },
  { name: "workspace .npmrc", path: () => path.join(ws().root, ".npmrc"), workspaceRel: ".npmrc" },
  { name: "workspace fixtures/.ssh/id_rsa.pub", path: () => path.join(ws().root, "fixtures/.ssh/id_rsa.pub"), workspaceRel: "fixtures/.ssh/id_rsa.pub" },
  { name: "~/.ssh/known_hosts", path: () => path.join(ws().home, ".ssh/known_hosts") },
];

/** Host files created for the test, removed after it (deepest first). */
let created: string[] = [];

async function ensureHostFile(p: string, content: string): Promise<void> {
  if (existsSync(p)) return;
  const missing: string[] = [];
  for (let dir = path.dirname(p); !existsSync(dir); dir = path.dirname(dir)) missing.unshift(dir);
  for (const dir of missing) {
    await fs.mkdir(dir);
    created.unshift(dir);
  }
  await fs.writeFile(p, content, { mode: 0o600 });
  created.unshift(p);
}

beforeEach(async () => {
  vi.stubEnv("MINI_CURSOR_ALLOW_CREDENTIAL_FILES", "");
  const files: Record<string, string> = {
    [path.join(ws().root, ".aws/credentials")]: "aws_secret_access_key=FAKE-SECRET\n",
    [path.join(ws().root, "fixtures/.ssh/id_rsa")]: "FAKE-SECRET key\n",
    [path.join(ws().root, "fixtures/.ssh/id_rsa.pub")]: "ssh-rsa AAAA public\n",
    [path.join(ws().root, "fixtures/keys/id_ed25519")]: "FAKE-SECRET key\n",
    [path.join(ws().root, ".env")]: "API_URL=http://localhost\n",
    [path.join(ws().root, ".npmrc")]: "registry=https://registry.example/\n",
    [path.join(ws().home, ".ssh/id_rsa")]: "FAKE-SECRET key\n",
    [path.join(ws().home, ".ssh/known_hosts")]: "example.com ssh-ed25519 AAAA\n",
    [path.join(ws().home, ".netrc")]: "machine example.com password FAKE-SECRET\n",
  };
  for (const [p, content] of Object.entries(files)) {
    await fs.mkdir(path.dirname(p), { recursive: true });
    await fs.writeFile(p, content);
  }
  for (const row of REFUSED) await ensureHostFile(row.path(), "FAKE-SECRET system\n");
});

afterEach(async () => {
  vi.unstubAllEnvs();
  for (const p of created) await fs.rm(p, { force: true, recursive: false }).catch(() => fs.rmdir(p));
  created = [];
});

/** Runs `cat` on every path in one sandboxed command; returns the paths it could read. */
async function readableInSandbox(paths: string[]): Promise<string[]> {
  const script = paths.map((p) => `if cat '${p}' > /dev/null 2>&1; then echo 'READ ${p}'; fi`).join("\n");
  const { content } = await runSandboxed(ws(), `${script}\necho probe-done`, { home: ws().home });
  expect(content).toContain("probe-done");
  return [...content.matchAll(/^READ (.*)$/gm)].map((m) => m[1] ?? "");
}

describe("one credential catalogue for the file tools, the command rules and the sandbox", () => {
  it("refuses, denies and hides the same locations, and leaves project files readable", async () => {
    const context = { workspace: ws().root, home: ws().home };
    for (const row of REFUSED) {
      expect(existsSync(row.sandboxPath?.() ?? row.path()), `${row.name} exists on the host`).toBe(true);
      expect(credentialLocationOf(row.path(), ws().home), `file tools: ${row.name}`).toBeDefined();
      const judged = evaluateCommand(`cat ${row.path()}`, context);
      expect({ row: row.name, decision: judged.decision, rule: judged.rule }).toEqual({ row: row.name, decision: "deny", rule: "credential-read" });
      if (row.workspaceRel) {
        expect(evaluateCommand(`cat ${row.workspaceRel}`, context).decision, `relative: ${row.name}`).toBe("deny");
        const read = await callTool(createReadFileTool({ root: ws().root }), { path: row.workspaceRel });
        expect({ row: row.name, ok: read.artifact.ok }).toEqual({ row: row.name, ok: false });
        expect(read.content).toContain("holds credentials");
        expect(read.content).not.toContain("FAKE-SECRET");
      }
    }
    for (const row of READABLE) {
      expect(credentialLocationOf(row.path(), ws().home), `file tools: ${row.name}`).toBeUndefined();
      // Not refused: `cat` of a readable file is a read-only command, run without asking.
      expect(evaluateCommand(`cat ${row.path()}`, context).decision, `command rules: ${row.name}`).toBe("allow");
      if (row.workspaceRel) {
        const read = await callTool(createReadFileTool({ root: ws().root }), { path: row.workspaceRel });
        expect({ row: row.name, ok: read.artifact.ok }).toEqual({ row: row.name, ok: true });
      }
    }
    const readable = await readableInSandbox([...REFUSED, ...READABLE].map((row) => row.sandboxPath?.() ?? row.path()));
    expect(readable.sort()).toEqual(READABLE.map((row) => row.path()).sort());
  });

  it("hides a workspace credential folder reached through a symlink, and keeps it intact", async () => {
    const keys = path.join(ws().outside, "deploy");
    await fs.mkdir(path.join(keys, ".aws"), { recursive: true });
    await fs.writeFile(path.join(keys, ".aws", "credentials"), "FAKE-SECRET linked\n");
    await fs.symlink(keys, path.join(ws().root, "deploy"));
    expect(evaluateCommand("cat deploy/.aws/credentials", { workspace: ws().root, home: ws().home }).decision).toBe("deny");
    const { content } = await runSandboxed(ws(), "cat deploy/.aws/credentials; ls -A deploy/.aws | wc -l", { home: ws().home });
    expect(content).not.toContain("FAKE-SECRET");
    expect(content).toMatch(/^0$/m);
    expect(await fs.readFile(path.join(keys, ".aws", "credentials"), "utf8")).toBe("FAKE-SECRET linked\n");
  });
});
