import { promises as fs } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { createExecuteCommandTool } from "../../../src/tools/execute-command.js";
import { callTool } from "../../tools/helpers.js";
import { readIfExists, runSandboxed, useSandboxWorkspace } from "./helpers.js";

const ws = useSandboxWorkspace();

const KEY = "-----BEGIN OPENSSH PRIVATE KEY-----\nFAKE\n";

async function plantCredentials(home: string): Promise<void> {
  await fs.mkdir(path.join(home, ".ssh"), { recursive: true });
  await fs.writeFile(path.join(home, ".ssh", "id_rsa"), KEY);
  await fs.mkdir(path.join(home, ".aws"), { recursive: true });
  await fs.writeFile(path.join(home, ".aws", "credentials"), "aws_secret_access_key=FAKE\n");
  await fs.writeFile(path.join(home, ".netrc"), "machine example.com password FAKE\n");
  await fs.writeFile(path.join(home, ".npmrc"), "//registry.npmjs.org/:_authToken=FAKE\n");
  await fs.writeFile(path.join(home, ".profile"), "# not a credential\n");
}

describe("bubblewrap sandbox: credentials", () => {
  it("keeps the memory server's token (CHROMA_TOKEN) and address out of a command's environment, like OPENAI_API_KEY", async () => {
    const parentEnv = {
      ...process.env,
      OPENAI_API_KEY: "sk-sandbox-1",
      CHROMA_TOKEN: "chroma-sandbox-2",
      CHROMA_URL: "http://chroma:8000",
      CHROMA_TENANT: "acme",
    };
    const tool = createExecuteCommandTool({ root: ws().root, sandbox: { kind: "bubblewrap", allowNetwork: false, home: ws().home } }, { parentEnv });
    const { content } = await callTool(tool, { command: "env; cat /proc/self/environ | tr '\\0' '\\n'" });
    expect(content).toContain("PATH=");
    for (const hidden of ["sk-sandbox-1", "chroma-sandbox-2", "CHROMA_", "OPENAI_API_KEY"]) expect(content).not.toContain(hidden);
  });

  it("hides credential files of the home folder", async () => {
    await plantCredentials(ws().home);
    const h = ws().home;
    const { content } = await runSandboxed(
      ws(),
      `cat ${h}/.ssh/id_rsa; ls -A ${h}/.ssh | wc -l; cat ${h}/.aws/credentials; cat ${h}/.netrc; cat ${h}/.npmrc; cat ${h}/.profile`,
    );
    expect(content).not.toContain("FAKE");
    expect(content).toContain(`cat: ${h}/.ssh/id_rsa: No such file or directory`);
    expect(content).toMatch(/^0$/m);
    // Files are covered by /dev/null on a nodev mount: they cannot be opened at all.
    expect(content).toContain(`cat: ${h}/.netrc: Permission denied`);
    expect(content).toContain(`cat: ${h}/.npmrc: Permission denied`);
    // Other home files stay readable (read-only).
    expect(content).toContain("# not a credential");
  });

  it("hides them even where the home folder lies inside the (writable) workspace, and they stay untouched", async () => {
    const home = path.join(ws().root, "home");
    await plantCredentials(home);
    const { content } = await runSandboxed(
      ws(),
      "cat home/.ssh/id_rsa; echo planted > home/.ssh/authorized_keys; echo x > home/.netrc; cat home/.netrc; rm -rf home/.aws; ls -A home/.aws | wc -l",
      { home },
    );
    expect(content).not.toContain("FAKE");
    expect(await readIfExists(path.join(home, ".ssh", "id_rsa"))).toBe(KEY);
    expect(await readIfExists(path.join(home, ".ssh", "authorized_keys"))).toBeUndefined();
    expect(await readIfExists(path.join(home, ".netrc"))).toBe("machine example.com password FAKE\n");
    expect(await readIfExists(path.join(home, ".aws", "credentials"))).toBe("aws_secret_access_key=FAKE\n");
  });

  it("hides them when reached through a symlink in the workspace", async () => {
    await plantCredentials(ws().home);
    await fs.symlink(path.join(ws().home, ".ssh"), path.join(ws().root, "keys"));
    await fs.symlink(path.join(ws().home, ".netrc"), path.join(ws().root, "netrc"));
    const { content } = await runSandboxed(ws(), "cat keys/id_rsa; cat netrc; echo done");
    expect(content).not.toContain("FAKE");
    expect(content).toContain("keys/id_rsa: No such file or directory");
  });
});
