import os from "node:os";
import { probeSandbox } from "./probe.js";
import type { SandboxStatus } from "./types.js";

/**
 * The sandbox a session will use: bubblewrap when it really works here, unless the user turned it off with
 * MINI_CURSOR_SANDBOX=off (then every command needs approval, as without bubblewrap).
 */
export async function selectSandbox(env: NodeJS.ProcessEnv): Promise<SandboxStatus> {
  if (env.MINI_CURSOR_SANDBOX === "off") return { kind: "none", reason: "turned off with MINI_CURSOR_SANDBOX=off" };
  return probeSandbox({ home: env.HOME || os.homedir() });
}
