import os from "node:os";
import type { SandboxSettings } from "../../platform/config/index.js";
import { probeSandbox } from "./probe.js";
import type { SandboxStatus } from "./types.js";

/**
 * The sandbox a session will use: bubblewrap when it really works here, unless the user turned it off with
 * MINI_CURSOR_SANDBOX=off (src/config; then every command needs approval, as without bubblewrap).
 */
export async function selectSandbox(settings: SandboxSettings, home: string = os.homedir()): Promise<SandboxStatus> {
  if (settings.off) return { kind: "none", reason: "turned off with MINI_CURSOR_SANDBOX=off" };
  return probeSandbox({ home });
}
