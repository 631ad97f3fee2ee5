import { mkdtempSync, rmSync, promises as fs } from "node:fs";
import os from "node:os";
import path from "node:path";
import { launch, LaunchError, type Launched } from "../../platform/launcher/index.js";
import { buildBwrapArgs } from "./bwrap.js";
import type { SandboxStatus } from "./types.js";
import { errorMessage } from "../../platform/error-info.js";

export interface ProbeOptions {
  /** The bwrap binary; default "bwrap" from PATH. */
  bwrapPath?: string;
  /** Home whose credential locations the probe's argument set hides; default os.homedir(). */
  home?: string;
  /** Probe again instead of returning this process's cached answer. */
  refresh?: boolean;
  timeoutMs?: number;
  /** The clock that ages scratch folders left behind (default Date.now). */
  now?: () => number;
}

const DEFAULT_TIMEOUT_MS = 10_000;
const PROBE_FILE = "sandbox-probe";
const SCRATCH_PREFIX = "mini-cursor-sandbox-probe-";
/** A scratch folder this old is a probe's that was killed before it could remove it (a probe takes seconds). */
const STALE_SCRATCH_MS = 60 * 60 * 1000;
const cache = new Map<string, Promise<SandboxStatus>>();

interface Ran {
  code: number | null;
  stdout: string;
  stderr: string;
  error?: NodeJS.ErrnoException;
}

/**
 * Runs a program with stdin on /dev/null. Not execFile: its stdin is a socket pair, and Debian's bash takes a socket
 * on stdin for sshd and, at shell level 1 (no SHLVL, as when an editor or the dev server starts mini-cursor), sources
 * ~/.bashrc even under `bash -c`: a user's pyenv or nvm setup then ran inside the probe (about 0.3 s here, which the
 * first model request waited for), and a .bashrc that exits made the sandbox look broken. Sandboxed commands
 * already get /dev/null (src/services/commands/run-command.ts).
 */
async function run(file: string, args: string[], timeoutMs: number): Promise<Ran> {
  let child: Launched;
  try {
    child = await launch(file, args);
  } catch (e) {
    const code = e instanceof LaunchError ? e.code : undefined;
    return { code: null, stdout: "", stderr: "", error: Object.assign(new Error((e as Error).message), { code }) };
  }
  let stdout = "";
  let stderr = "";
  let error: NodeJS.ErrnoException | undefined;
  const timer = setTimeout(() => {
    error = Object.assign(new Error(`${file} timed out after ${timeoutMs} ms`), { code: "ETIMEDOUT" });
    child.kill("SIGKILL");
  }, timeoutMs);
  child.stdout.setEncoding("utf8").on("data", (chunk: string) => (stdout += chunk));
  child.stderr.setEncoding("utf8").on("data", (chunk: string) => (stderr += chunk));
  const { code } = await child.closed;
  clearTimeout(timer);
  return { code, stdout, stderr, error };
}

function firstLine(text: string): string {
  return text.trim().split("\n")[0] ?? "";
}

/** Turns bwrap's complaint into a reason with a way forward. */
function failureReason(ran: Ran): string {
  const text = firstLine(ran.stderr) || ran.error?.message || `exit code ${ran.code}`;
  if (/namespace|uid map|setting up uid|Operation not permitted|Permission denied/i.test(ran.stderr)) {
    return (
      `bubblewrap cannot create its namespaces here (${text}): user namespaces are disabled or restricted ` +
      "(check sysctl kernel.unprivileged_userns_clone / user.max_user_namespaces, AppArmor's userns restriction, or the container's seccomp profile)"
    );
  }
  return `bubblewrap is installed but the sandbox failed to start: ${text}`;
}

/**
 * Checks that commands can really run sandboxed here: runs bwrap with the same argument set commands get
 * (on a scratch workspace) and checks the command could write the workspace. Finding the binary is not
 * enough: namespaces may be disabled, or the kernel may refuse a mount. Never rejects; cached per process.
 */
export function probeSandbox(options: ProbeOptions = {}): Promise<SandboxStatus> {
  const bwrap = options.bwrapPath ?? "bwrap";
  const key = `${bwrap}\0${options.home ?? ""}`;
  const cached = cache.get(key);
  if (cached && !options.refresh) return cached;
  const probe = runProbe(bwrap, options.home ?? os.homedir(), options.timeoutMs ?? DEFAULT_TIMEOUT_MS, options.now ?? Date.now).catch(
    (error: unknown): SandboxStatus => ({ kind: "none", reason: `the sandbox probe failed: ${errorMessage(error)}` }),
  );
  cache.set(key, probe);
  return probe;
}

async function runProbe(bwrap: string, home: string, timeoutMs: number, now: () => number): Promise<SandboxStatus> {
  if (process.platform !== "linux") return { kind: "none", reason: `bubblewrap needs Linux (this is ${process.platform})` };
  const versionRun = await run(bwrap, ["--version"], timeoutMs);
  if (versionRun.error?.code === "ENOENT") {
    return { kind: "none", reason: `bubblewrap is not installed (no "${bwrap}" found); install it with: apt-get install bubblewrap` };
  }
  const version = /(\d+\.\d+(?:\.\d+)?)/.exec(versionRun.stdout)?.[1];
  await sweepStaleScratch(os.tmpdir(), now());
  // The probe runs beside a session's first model call: a session that ends meanwhile (a quick answer, Ctrl-C)
  // exits before the finally below; the exit hook removes the folder then. Made and hooked in one synchronous
  // stretch, so no exit can come between the two.
  const scratch = mkdtempSync(path.join(os.tmpdir(), SCRATCH_PREFIX));
  const onExit = () => rmSync(scratch, { recursive: true, force: true });
  process.on("exit", onExit);
  try {
    const workspace = await fs.realpath(scratch);
    const args = buildBwrapArgs({ workspace, allowNetwork: false, home, protectedPaths: [], readOnlyPaths: [] });
    const ran = await run(bwrap, [...args, "--", "bash", "-c", `: > ${PROBE_FILE}`], timeoutMs);
    const withVersion = (status: SandboxStatus): SandboxStatus => (version ? { ...status, version } : status);
    if (ran.code !== 0) return withVersion({ kind: "none", reason: failureReason(ran) });
    const wrote = await fs.stat(path.join(workspace, PROBE_FILE)).then(
      () => true,
      () => false,
    );
    if (!wrote) {
      return withVersion({ kind: "none", reason: "bubblewrap ran, but the sandboxed command could not write the workspace" });
    }
    return withVersion({
      kind: "bubblewrap",
      reason: `bubblewrap${version ? ` ${version}` : ""} works: commands see the system read-only, can write only the workspace and a private /tmp, hold no privileges, and get no network unless allowed`,
    });
  } finally {
    process.off("exit", onExit);
    await fs.rm(scratch, { recursive: true, force: true });
  }
}

/**
 * Removes scratch folders that probes killed with SIGKILL (no exit hook runs) left in the temporary folder, once they
 * are an hour old; another user's, or one that is gone meanwhile, is left to its owner.
 */
async function sweepStaleScratch(tmp: string, now: number): Promise<void> {
  let names: string[];
  try {
    names = (await fs.readdir(tmp)).filter((n) => n.startsWith(SCRATCH_PREFIX));
  } catch {
    return;
  }
  for (const name of names) {
    const dir = path.join(tmp, name);
    try {
      const stat = await fs.lstat(dir);
      if (stat.isDirectory() && now - stat.mtimeMs > STALE_SCRATCH_MS) await fs.rm(dir, { recursive: true, force: true });
    } catch {
      // Not ours to remove, or already gone.
    }
  }
}
