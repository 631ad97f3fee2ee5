import { promises as fs } from "node:fs";
import os from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { exists } from "../../tools/helpers.js";
import { readIfExists, runSandboxed, useSandboxWorkspace } from "./helpers.js";

const ws = useSandboxWorkspace();

describe("bubblewrap sandbox: files", () => {
  it("keeps the workspace writable and returns exit code and output as before", async () => {
    const { content, artifact } = await runSandboxed(ws(), "mkdir -p d/e && echo data > d/e/new.txt && echo made; echo warn >&2; exit 5");
    expect(content).toContain("Exit code: 5. The command FAILED");
    // Two pipes: their chunks may be read in either order.
    expect(content.split("Output (stdout and stderr together):\n")[1]?.split("\n").sort()).toEqual(["made", "warn"]);
    expect(artifact).toMatchObject({ ok: false, command: { exitCode: 5, timedOut: false, cwd: "." } });
    expect(await fs.readFile(path.join(ws().root, "d/e/new.txt"), "utf8")).toBe("data\n");
    // Written as the caller's own user outside the sandbox, like without one.
    expect((await fs.stat(path.join(ws().root, "d/e/new.txt"))).uid).toBe(process.getuid?.());
    const ok = await runSandboxed(ws(), "cat d/e/new.txt && rm -r d && echo removed");
    expect(ok.content).toContain("Exit code: 0 (success)");
    expect(ok.content).toMatch(/data\nremoved$/);
    expect(await exists(path.join(ws().root, "d"))).toBe(false);
  });

  it("cannot write a folder next to the workspace", async () => {
    const target = path.join(ws().outside, "secret.txt");
    const { content, artifact } = await runSandboxed(ws(), `echo pwned > ${target}; touch ${ws().outside}/new.txt; rm -f ${target}`);
    expect(artifact.ok).toBe(false);
    expect(content).toContain("Read-only file system");
    expect(await fs.readFile(target, "utf8")).toBe("TOP SECRET\n");
    expect(await exists(path.join(ws().outside, "new.txt"))).toBe(false);
  });

  it("cannot write system folders such as /etc", async () => {
    const marker = `/etc/mini-cursor-sandbox-${path.basename(ws().base)}`;
    const { content } = await runSandboxed(ws(), `touch ${marker}; echo 'x' >> /etc/hosts; rm -f /etc/hostname; echo done`);
    expect(content.match(/Read-only file system/g)?.length).toBe(3);
    expect(content).toContain("Note: the sandbox lets commands write only inside the workspace");
    expect(await exists(marker)).toBe(false);
    expect(await fs.readFile("/etc/hosts", "utf8")).not.toMatch(/^x$/m);
  });

  it("writes to /tmp go to a private /tmp that is gone afterwards", async () => {
    const name = `mini-cursor-sandbox-${path.basename(ws().base)}`;
    const { content } = await runSandboxed(ws(), `echo temp > /tmp/${name} && cat /tmp/${name} && ls -A /tmp | wc -l`);
    expect(content).toContain("Exit code: 0 (success)");
    expect(await exists(path.join(os.tmpdir(), name))).toBe(false);
    expect(await exists(path.join("/tmp", name))).toBe(false);
  });

  it("cannot reach outside through a symlink in the workspace", async () => {
    await fs.symlink(ws().outside, path.join(ws().root, "out-dir"));
    await fs.symlink("../outside/secret.txt", path.join(ws().root, "out-file"));
    const { content, artifact } = await runSandboxed(ws(), "cat out-file; echo pwned > out-dir/new.txt; echo pwned >> out-file; rm out-dir/secret.txt");
    expect(artifact.ok).toBe(false);
    expect(content.match(/Read-only file system/g)?.length).toBe(3);
    // Reading through it works: the rest of the system is visible, read-only.
    expect(content).toContain("\nTOP SECRET\n");
    expect(await fs.readFile(path.join(ws().outside, "secret.txt"), "utf8")).toBe("TOP SECRET\n");
    expect(await exists(path.join(ws().outside, "new.txt"))).toBe(false);
  });

  it("keeps the agent's own .mini-cursor folder read-only", async () => {
    await fs.mkdir(path.join(ws().root, ".mini-cursor", "locks"), { recursive: true });
    await fs.writeFile(path.join(ws().root, ".mini-cursor", "sessions.sqlite"), "state");
    const { content, artifact } = await runSandboxed(
      ws(),
      "cat .mini-cursor/sessions.sqlite; echo; echo x > .mini-cursor/sessions.sqlite; touch .mini-cursor/locks/new; rm -rf .mini-cursor; mv .mini-cursor moved",
    );
    expect(artifact.ok).toBe(false);
    expect(content).toContain("\nstate\n");
    expect(content).toContain("Read-only file system");
    expect(await fs.readFile(path.join(ws().root, ".mini-cursor", "sessions.sqlite"), "utf8")).toBe("state");
    expect(await exists(path.join(ws().root, ".mini-cursor", "locks", "new"))).toBe(false);
    expect(await exists(path.join(ws().root, "moved"))).toBe(false);
  });

  it("does not let a command create .mini-cursor when it does not exist yet", async () => {
    const { content } = await runSandboxed(ws(), "mkdir -p .mini-cursor/locks && echo planted > .mini-cursor/sessions.sqlite; ls -A .mini-cursor | wc -l");
    expect(content).toContain("Read-only file system");
    expect(await fs.readdir(path.join(ws().root, ".mini-cursor"))).toEqual([]);
  });

  it("keeps extra readOnlyPaths read-only and hides protectedPaths", async () => {
    await fs.mkdir(path.join(ws().root, "vendor"));
    await fs.writeFile(path.join(ws().root, "vendor", "lib.js"), "lib");
    await fs.mkdir(path.join(ws().root, "secrets"));
    await fs.writeFile(path.join(ws().root, "secrets", "prod.key"), "KEY");
    const { content } = await runSandboxed(ws(), "echo x > vendor/lib.js; cat secrets/prod.key; ls -A secrets | wc -l", {
      readOnlyPaths: [path.join(ws().root, "vendor")],
      protectedPaths: [path.join(ws().root, "secrets")],
    });
    expect(content).toContain("Read-only file system");
    expect(content).not.toContain("KEY");
    expect(content).toMatch(/\n0$/);
    expect(await readIfExists(path.join(ws().root, "vendor", "lib.js"))).toBe("lib");
    expect(await readIfExists(path.join(ws().root, "secrets", "prod.key"))).toBe("KEY");
  });
});
