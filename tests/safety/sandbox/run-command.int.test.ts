import { describe, expect, it } from "vitest";
import type { SandboxSpawnOptions } from "../../../src/safety/sandbox/sandboxed-command.js";
import { runCommand, type RunCommandOptions } from "../../../src/services/commands/run-command.js";
import { processesWithToken, useSandboxWorkspace } from "./helpers.js";

const ws = useSandboxWorkspace();

function sandbox(): SandboxSpawnOptions {
  return { workspace: ws().root, allowNetwork: false, home: ws().home, protectedPaths: [], readOnlyPaths: [] };
}

function options(command: string, extra: Partial<RunCommandOptions> = {}): RunCommandOptions {
  return {
    command,
    cwd: ws().root,
    env: { PATH: process.env.PATH ?? "/usr/bin:/bin", SANDBOX_TEST_TOKEN: ws().token },
    timeoutMs: 60_000,
    outputLimitChars: 10_000,
    sandbox: sandbox(),
    ...extra,
  };
}

describe("runCommand in the bubblewrap sandbox", () => {
  it("streams output as it arrives, in order", async () => {
    const chunks: string[] = [];
    const run = await runCommand(
      options("for i in 1 2 3; do echo line$i; done; echo oops >&2", { onOutput: (stream, chunk) => chunks.push(`${stream}:${chunk}`) }),
    );
    expect(run.exitCode).toBe(0);
    expect(
      chunks
        .filter((c) => c.startsWith("stdout:"))
        .join("")
        .replace(/stdout:/g, ""),
    ).toBe("line1\nline2\nline3\n");
    expect(chunks).toContain("stderr:oops\n");
    expect(run.output).toContain("line3\n");
  });

  it("caps long output, keeping its beginning and end", async () => {
    const run = await runCommand(options("seq 1 100000", { outputLimitChars: 2_000 }));
    expect(run.exitCode).toBe(0);
    expect(run.omittedChars).toBeGreaterThan(500_000);
    expect(run.output.startsWith("1\n2\n3\n")).toBe(true);
    expect(run.output.endsWith("99999\n100000\n")).toBe(true);
  });

  it("stops the sandbox and everything in it when aborted", async () => {
    const controller = new AbortController();
    const pending = runCommand(
      options("echo ready; setsid sleep 3041 & sleep 3042", {
        signal: controller.signal,
        onOutput: (_stream, chunk) => {
          if (chunk.includes("ready")) controller.abort();
        },
      }),
    );
    const run = await pending;
    expect(run.aborted).toBe(true);
    expect(processesWithToken(ws().token)).toEqual([]);
  });

  it("keeps $0, arguments and the working folder as a plain bash -c would", async () => {
    const run = await runCommand(options('echo "$0|$#|$(pwd)"; set -- a b; echo $#'));
    expect(run.output).toBe(`bash|0|${ws().root}\n2\n`);
  });

  it("reports a spawn error when bwrap is missing", async () => {
    const run = await runCommand(options("true", { sandbox: { ...sandbox(), bwrapPath: "/nonexistent/bwrap" } }));
    expect(run.spawnError).toMatch(/ENOENT/);
    expect(run.exitCode).toBeNull();
  });
});
