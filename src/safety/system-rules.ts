import { longFlags, operands, shortFlags, skipOptions } from "./command-wrappers.js";
import { dangerAdvice, dangerOf, dangerPhrase } from "./danger-targets.js";
import { shown, type CommandRule, type RuleHit } from "./rule-context.js";

/** Rules against moving the repository away, locking it with chmod, and overwriting disks. */

/** `mv .git /tmp`, `mv . ../x`, `mv * dist/` at the root: the repository or workspace ends up somewhere else. */
export const moveAway: CommandRule = (command, env) => {
  const [name = "", ...args] = command.argv;
  if (name !== "mv") return undefined;
  const start = skipOptions(args, 0, { short: "tS", long: ["target-directory", "suffix"] });
  const hasTarget = args.slice(0, start).some((w) => w === "-t" || /^-[^-]*t/.test(w) || w.startsWith("--target-directory"));
  const paths = [...args.slice(0, start).filter((w) => !w.startsWith("-")), ...operands(args.slice(start))];
  const sources = hasTarget ? paths : paths.slice(0, -1);
  for (const source of sources) {
    const danger = dangerOf(source, env.paths);
    if (danger) {
      return { rule: "move-away", reason: `${shown(command)} would move away ${dangerPhrase(danger)}; ${dangerAdvice(danger, "mv old.ts new.ts")}.` };
    }
  }
  return undefined;
};

/** Whether a chmod mode takes read, write or execute away from the owner (`000`, `644` on folders, `a-rwx`, `u=r`). */
function removesOwnerAccess(mode: string): boolean {
  if (/^[0-7]{1,4}$/.test(mode)) return mode.padStart(3, "0").slice(-3).charAt(0) !== "7";
  return mode.split(",").some((clause) => {
    const m = /^([ugoa]*)([-+=])([rwxXst]*)$/.exec(clause);
    if (!m) return false;
    const [, who = "", op, perms = ""] = m;
    const owner = who === "" || who.includes("u") || who.includes("a");
    if (!owner) return false;
    if (op === "-") return /[rwxX]/.test(perms);
    return op === "=" && !(perms.includes("r") && perms.includes("w") && /[xX]/.test(perms));
  });
}

/** Recursive chmod/chown of `/`, system or home folders, or a chmod that locks the owner out of the workspace. */
export const permissionLockout: CommandRule = (command, env) => {
  const [name = "", ...args] = command.argv;
  if (name !== "chmod" && name !== "chown" && name !== "chgrp") return undefined;
  const isMode = (w: string): boolean => name === "chmod" && /^-[rwxXst]+$/.test(w);
  const options = args.filter((w) => w.startsWith("-") && !isMode(w));
  if (!/R/.test(shortFlags(options)) && !longFlags(options).includes("recursive")) return undefined;
  const words = args.filter((w) => !options.includes(w));
  const usesReference = longFlags(options).some((f) => f === "reference");
  const [mode = "", ...targets] = usesReference ? ["", ...words] : words;
  for (const target of targets) {
    const danger = dangerOf(target, env.paths);
    if (!danger) continue;
    const system = danger.kind === "root" || danger.kind === "system" || danger.kind === "home" || danger.kind === "home-parent";
    if (system || (name === "chmod" && removesOwnerAccess(mode))) {
      return {
        rule: "permission-lockout",
        reason: `${shown(command)} would change permissions on ${dangerPhrase(danger)} and can lock you out of it; change specific files instead.`,
      };
    }
  }
  return undefined;
};

const BLOCK_DEVICE = /^\/dev\/(?:sd[a-z]|hd[a-z]|vd[a-z]|xvd[a-z]|nvme\d|mmcblk\d|disk\d|rdisk\d|mapper\/|md\d|dm-\d|loop\d|sr\d|root\b|disk\/)/;
const FORMATTERS = /^(?:mkfs(?:\..+)?|mke2fs|mkswap|mkdosfs|mkntfs|wipefs|newfs(?:_.+)?)$/;
const DEVICE_WRITERS = new Set(["tee", "cp", "shred", "wipe", "blkdiscard"]);

/** `dd of=/dev/sda`, `> /dev/nvme0n1`, `mkfs.ext4 …`: overwriting a disk or creating a filesystem. */
export const diskWipe: CommandRule = (command) => {
  const [name = "", ...args] = command.argv;
  const wipe = (what: string): RuleHit => ({
    rule: "disk-wipe",
    reason: `${shown(command)} would ${what}, destroying its data; this is never needed for a coding task.`,
  });
  if (FORMATTERS.test(name)) return wipe("format a disk or partition");
  const writesDevice = command.redirects.some((r) => /^(?:>|>>|>\||&>|&>>|<>)$/.test(r.op) && BLOCK_DEVICE.test(r.target));
  if (writesDevice) return wipe("overwrite a disk device");
  if (name === "dd" && args.some((a) => a.startsWith("of=") && BLOCK_DEVICE.test(a.slice(3)))) return wipe("overwrite a disk device");
  if (DEVICE_WRITERS.has(name) && args.some((a) => BLOCK_DEVICE.test(a))) {
    return wipe("overwrite a disk device");
  }
  return undefined;
};

/** `:(){ :|:& };:` and its renamed variants start processes until the machine stops responding. */
export function forkBomb(line: string): RuleHit | undefined {
  const m = /([A-Za-z_:][\w:]*)\s*\(\)\s*\{([^}]*)\}/.exec(line);
  if (!m) return undefined;
  const name = (m[1] ?? "").replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
  if (!new RegExp(`${name}\\s*\\|\\s*${name}\\s*&`).test(m[2] ?? "")) return undefined;
  return { rule: "fork-bomb", reason: "This is a fork bomb: it would start processes until the machine stops responding; never run it." };
}
