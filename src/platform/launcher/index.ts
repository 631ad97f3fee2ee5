/**
 * Starting child processes (ripgrep, commands in the sandbox, git, the local Chroma server) without forking this
 * process: they are spawned by a small helper process (helper-client.ts), which the faces that run sessions (the
 * CLI's run, resume and acp, the Studio graph) start first thing, while this process is still small. Elsewhere (a
 * short command such as `memory add`, a unit test), when the helper cannot run, or has died, children are spawned
 * directly (direct.ts): starting a helper there would cost more than it saves.
 */
import { launchDirect } from "./direct.js";
import { HelperLauncher } from "./helper-client.js";
import type { LaunchOptions, Launched } from "./types.js";

export { LaunchError, type LaunchExit, type LaunchOptions, type Launched } from "./types.js";

let helper: HelperLauncher | null | undefined;

/** Starts the helper now (cheap to call again). The CLI calls it first thing, before the large imports. */
export function startLauncher(): void {
  if (helper === undefined) helper = HelperLauncher.start() ?? null;
}

/** Spawns `file` with `args`; rejects with a LaunchError when it cannot start (e.g. code "ENOENT"). */
export function launch(file: string, args: readonly string[], options: LaunchOptions = {}): Promise<Launched> {
  if (helper?.usable) return helper.launch(file, args, options);
  return launchDirect(file, args, options);
}

/** The helper's pid while it runs (doctor, tests). */
export function launcherHelperPid(): number | undefined {
  return helper?.usable ? helper.pid : undefined;
}
