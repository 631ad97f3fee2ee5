export { buildBwrapArgs, SANDBOX_UID, STATE_DIR_NAME, type BwrapOptions } from "./bwrap.js";
export { probeSandbox, type ProbeOptions } from "./probe.js";
export { sandboxSpawnOptions, type SandboxSpawnOptions } from "./sandboxed-command.js";
export type { CommandSandbox, SandboxStatus, WorkspaceAccess } from "./types.js";
export { selectSandbox } from "./select.js";
