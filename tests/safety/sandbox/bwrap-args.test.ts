import { promises as fs } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { buildBwrapArgs, SANDBOX_UID, type BwrapOptions } from "../../../src/safety/sandbox/bwrap.js";
import { parseStrayReport } from "../../../src/safety/sandbox/sandboxed-command.js";

let base: string;
let workspace: string;
let home: string;
beforeEach(async () => {
  base = await fs.realpath(await fs.mkdtemp(path.join(os.tmpdir(), "mini-cursor-bwrap-args-")));
  workspace = path.join(base, "workspace");
  home = path.join(base, "home");
  await fs.mkdir(workspace);
  await fs.mkdir(home);
});
afterEach(async () => {
  await fs.rm(base, { recursive: true, force: true });
});

function build(extra: Partial<BwrapOptions> = {}): string[] {
  return buildBwrapArgs({ workspace, allowNetwork: false, home, protectedPaths: [], readOnlyPaths: [], ...extra });
}

/** The argument pairs/triples of one option, e.g. all `--tmpfs X`. */
function operands(args: string[], option: string, arity: number): string[][] {
  const out: string[][] = [];
  args.forEach((arg, i) => {
    if (arg === option) out.push(args.slice(i + 1, i + 1 + arity));
  });
  return out;
}

describe("buildBwrapArgs", () => {
  it("starts from a read-only system with fresh /dev and a read-only /proc", () => {
    const args = build();
    expect(args.slice(0, 9)).toEqual(["--ro-bind", "/", "/", "--dev", "/dev", "--proc", "/proc", "--remount-ro", "/proc"]);
  });

  it("gives a private /tmp and /run, then binds the workspace read-write at its real path", async () => {
    const link = path.join(base, "link-to-workspace");
    await fs.symlink(workspace, link);
    const args = build({ workspace: link });
    const tmpfs = operands(args, "--tmpfs", 1).map(([p]) => p);
    expect(tmpfs).toContain("/tmp");
    expect(tmpfs).toContain("/run");
    expect(operands(args, "--bind", 2)).toEqual([[workspace, workspace]]);
    // Order matters: the workspace may live in /tmp, so it is bound after /tmp is replaced.
    expect(args.indexOf("--bind")).toBeGreaterThan(args.indexOf("/tmp"));
    expect(args.slice(-2)).toEqual(["--chdir", workspace]);
  });

  it("keeps .mini-cursor read-only, existing or not", async () => {
    const stateDir = path.join(workspace, ".mini-cursor");
    const missing = build();
    expect(missing.join(" ")).toContain(`--tmpfs ${stateDir} --remount-ro ${stateDir}`);
    await fs.mkdir(stateDir);
    const present = build();
    expect(operands(present, "--ro-bind", 2)).toContainEqual([stateDir, stateDir]);
    expect(present.indexOf(stateDir)).toBeGreaterThan(present.indexOf("--bind"));
  });

  it("hides existing credential locations of the home folder only, after the workspace bind", async () => {
    await fs.mkdir(path.join(home, ".ssh"));
    await fs.mkdir(path.join(home, ".config", "gcloud"), { recursive: true });
    await fs.writeFile(path.join(home, ".netrc"), "x");
    await fs.writeFile(path.join(home, ".git-credentials"), "x");
    const args = build();
    const tmpfs = operands(args, "--tmpfs", 1).map(([p]) => p);
    expect(tmpfs).toContain(path.join(home, ".ssh"));
    expect(tmpfs).toContain(path.join(home, ".config", "gcloud"));
    expect(tmpfs).not.toContain(path.join(home, ".aws"));
    const nulls = operands(args, "--ro-bind", 2)
      .filter(([src]) => src === "/dev/null")
      .map(([, dest]) => dest);
    expect(nulls).toContain(path.join(home, ".netrc"));
    expect(nulls).toContain(path.join(home, ".git-credentials"));
    expect(nulls).not.toContain(path.join(home, ".npmrc"));
    expect(args.lastIndexOf(path.join(home, ".ssh"))).toBeGreaterThan(args.indexOf("--bind"));
  });

  it("adds readOnlyPaths and protectedPaths that exist, at their real paths", async () => {
    await fs.mkdir(path.join(workspace, "vendor"));
    await fs.writeFile(path.join(workspace, "secret.key"), "k");
    await fs.symlink(path.join(workspace, "vendor"), path.join(workspace, "vendor-link"));
    const args = build({
      readOnlyPaths: [path.join(workspace, "vendor-link"), path.join(workspace, "missing")],
      protectedPaths: [path.join(workspace, "secret.key"), path.join(workspace, "gone.key")],
    });
    expect(operands(args, "--ro-bind", 2)).toContainEqual([path.join(workspace, "vendor"), path.join(workspace, "vendor")]);
    expect(operands(args, "--ro-bind", 2)).toContainEqual(["/dev/null", path.join(workspace, "secret.key")]);
    expect(args.join(" ")).not.toContain("missing");
    expect(args.join(" ")).not.toContain("gone.key");
  });

  it("unshares everything, runs as an unprivileged uid with no capabilities and no nested namespaces", () => {
    const args = build({ cwd: workspace });
    for (const flag of [
      "--unshare-user",
      "--disable-userns",
      "--unshare-pid",
      "--unshare-ipc",
      "--unshare-uts",
      "--unshare-cgroup-try",
      "--unshare-net",
      "--die-with-parent",
      "--new-session",
    ]) {
      expect(args).toContain(flag);
    }
    expect(operands(args, "--uid", 1)).toEqual([[String(SANDBOX_UID)]]);
    expect(operands(args, "--gid", 1)).toEqual([[String(SANDBOX_UID)]]);
    expect(operands(args, "--cap-drop", 1)).toEqual([["ALL"]]);
  });

  it("shares the network only when allowed", () => {
    expect(build({ allowNetwork: true })).not.toContain("--unshare-net");
    expect(build({ allowNetwork: false })).toContain("--unshare-net");
  });

  it("binds the workspace read-write by default and with workspaceAccess read-write", () => {
    expect(build({ workspaceAccess: "read-write" })).toEqual(build());
    expect(operands(build(), "--bind", 2)).toEqual([[workspace, workspace]]);
  });

  it("read-only: a tmpfs workspace with each entry bound read-only, symlinks recreated, scratch folders left empty", async () => {
    await fs.mkdir(path.join(workspace, "src"));
    await fs.writeFile(path.join(workspace, "package.json"), "{}");
    await fs.symlink("src", path.join(workspace, "src-link"));
    await fs.mkdir(path.join(workspace, "coverage"));
    await fs.mkdir(path.join(workspace, "node_modules", ".vite"), { recursive: true });
    const args = build({ workspaceAccess: "read-only" });
    expect(operands(args, "--bind", 2)).toEqual([]);
    const tmpfs = operands(args, "--tmpfs", 1).map(([p]) => p);
    expect(tmpfs).toContain(workspace);
    expect(tmpfs).toContain(path.join(workspace, "node_modules", ".vite"));
    expect(tmpfs).not.toContain(path.join(workspace, "node_modules", ".cache"));
    const bound = operands(args, "--ro-bind-try", 2);
    for (const name of ["src", "package.json", "node_modules"]) expect(bound).toContainEqual([path.join(workspace, name), path.join(workspace, name)]);
    // Left out: runners delete and recreate it in the throwaway tmpfs.
    expect(args.join(" ")).not.toContain(path.join(workspace, "coverage"));
    expect(operands(args, "--symlink", 2)).toEqual([["src", path.join(workspace, "src-link")]]);
    // Order: the tmpfs first, then the entries, then the cache tmpfs over the bound node_modules.
    expect(args.indexOf(workspace)).toBeLessThan(args.indexOf(path.join(workspace, "node_modules")));
    expect(args.indexOf(path.join(workspace, "node_modules"))).toBeLessThan(args.indexOf(path.join(workspace, "node_modules", ".vite")));
    // The agent's state folder is still made read-only (inside the tmpfs, so never created on the host).
    expect(args.join(" ")).toContain(`--tmpfs ${path.join(workspace, ".mini-cursor")} --remount-ro`);
  });

  it("read-only with over 200 top-level entries: the workspace bound read-only as a whole, existing caches as tmpfs", async () => {
    for (let i = 0; i < 201; i++) await fs.writeFile(path.join(workspace, `f${i}`), "");
    await fs.mkdir(path.join(workspace, "coverage"));
    const args = build({ workspaceAccess: "read-only" });
    expect(operands(args, "--ro-bind", 2)).toContainEqual([workspace, workspace]);
    expect(args).not.toContain("--ro-bind-try");
    const tmpfs = operands(args, "--tmpfs", 1).map(([p]) => p);
    expect(tmpfs).toContain(path.join(workspace, "coverage"));
    expect(tmpfs).not.toContain(workspace);
    // bwrap could not create the missing state folder in a read-only workspace; the command cannot either.
    expect(args.join(" ")).not.toContain(".mini-cursor");
  });

  it("read-only and live (a long-lived service): the workspace bound read-only as a whole, nothing laid into it as scratch", async () => {
    await fs.mkdir(path.join(workspace, "coverage"));
    await fs.writeFile(path.join(workspace, "index.ts"), "");
    const args = build({ workspaceAccess: "read-only", liveWorkspace: true });
    expect(operands(args, "--ro-bind", 2)).toContainEqual([workspace, workspace]);
    expect(
      operands(args, "--tmpfs", 1)
        .flat()
        .filter((p) => p.startsWith(workspace)),
    ).toEqual([]);
    expect(operands(args, "--ro-bind-try", 2)).toEqual([]);
    expect(args).toContain("--unshare-net");
  });

  it("starts in the given cwd", async () => {
    await fs.mkdir(path.join(workspace, "app"));
    expect(build({ cwd: path.join(workspace, "app") }).slice(-2)).toEqual(["--chdir", path.join(workspace, "app")]);
  });
});

describe("parseStrayReport", () => {
  it("reads the count, or nothing without a report", () => {
    expect(parseStrayReport("3\n")).toBe(3);
    expect(parseStrayReport("0\n")).toBe(0);
    expect(parseStrayReport("")).toBeUndefined();
    expect(parseStrayReport("garbage")).toBeUndefined();
  });
});
