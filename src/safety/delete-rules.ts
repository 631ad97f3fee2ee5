import path from "node:path";
import { longFlags, operands, programName, shortFlags } from "./command-wrappers.js";
import { dangerAdvice, dangerOf, dangerPhrase, type Danger } from "./danger-targets.js";
import { parseGit } from "./git-args.js";
import { shown, type CommandRule, type RuleEnv } from "./rule-context.js";
import type { SimpleCommand } from "./shell-words.js";

/** Rules against deleting the workspace, its parents, the home folder, `/` or `.git`, in their usual spellings. */

const DELETERS = new Set(["rm", "srm", "shred", "wipe", "unlink", "rimraf", "trash", "trash-put", "del"]);

function isRecursive(args: readonly string[]): boolean {
  return /[rR]/.test(shortFlags(args)) || longFlags(args).some((name) => name.length > 0 && "recursive".startsWith(name));
}

function firstDanger(words: readonly string[], env: RuleEnv): Danger | undefined {
  for (const word of words) {
    const danger = dangerOf(word, env.paths);
    if (danger) return danger;
  }
  return undefined;
}

function deleteReason(command: SimpleCommand, danger: Danger, verb = "delete"): string {
  return `${shown(command)} would ${verb} ${dangerPhrase(danger)}; ${dangerAdvice(danger, "rm -rf dist")}.`;
}

export const recursiveDelete: CommandRule = (command, env) => {
  const [name = "", ...args] = command.argv;
  if (DELETERS.has(name)) {
    const danger = firstDanger(operands(args), env);
    return danger && { rule: "recursive-delete", reason: deleteReason(command, danger) };
  }
  const git = parseGit(command.argv);
  if (git?.subcommand === "rm" && isRecursive(git.args) && !longFlags(git.args).includes("cached")) {
    const danger = firstDanger(operands(git.args), withGitDir(env, git.dirs));
    return danger && { rule: "recursive-delete", reason: deleteReason(command, danger) };
  }
  return undefined;
};

/** `xargs rm -r` deletes whatever the previous command printed, which cannot be checked here. */
export const xargsDelete: CommandRule = (command) => {
  const [name = "", ...args] = command.argv;
  if (command.origin !== "xargs" || !DELETERS.has(name) || !(isRecursive(args) || name === "rimraf")) return undefined;
  return {
    rule: "xargs-delete",
    reason: `${shown(command)} through xargs recursively deletes paths read from another command's output, which cannot be checked; pass the specific paths to rm directly.`,
  };
};

const NARROWING = new Set([
  "-name",
  "-iname",
  "-path",
  "-ipath",
  "-wholename",
  "-iwholename",
  "-regex",
  "-iregex",
  "-lname",
  "-ilname",
  "-newer",
  "-anewer",
  "-cnewer",
  "-newermt",
  "-mtime",
  "-mmin",
  "-atime",
  "-amin",
  "-ctime",
  "-cmin",
  "-size",
  "-user",
  "-group",
  "-uid",
  "-gid",
  "-perm",
  "-links",
  "-inum",
  "-samefile",
  "-empty",
]);
const FIND_EXECS = new Set(["-exec", "-execdir", "-ok", "-okdir"]);

/** Whether the find expression picks particular files (a name, age, size, …) rather than everything. */
function findIsNarrowed(args: readonly string[]): boolean {
  return args.some((w, i) => {
    if (!NARROWING.has(w)) return false;
    const before = args[i - 1];
    if (before === "!" || before === "-not") return false;
    return w === "-empty" || !/^\**$/.test(args[i + 1] ?? "");
  });
}

export const findDelete: CommandRule = (command, env) => {
  const [name = "", ...args] = command.argv;
  if (name !== "find") return undefined;
  const deletes = args.some((w, i) => w === "-delete" || (FIND_EXECS.has(w) && DELETERS.has(programName(args[i + 1] ?? ""))));
  if (!deletes || findIsNarrowed(args)) return undefined;
  let i = 0;
  while (/^-[HLP]$|^-O\d$/.test(args[i] ?? "") || args[i] === "-D") i += args[i] === "-D" ? 2 : 1;
  const roots: string[] = [];
  for (; i < args.length && !/^[-(!),]/.test(args[i] ?? ""); i++) roots.push(args[i] ?? "");
  const danger = firstDanger(roots.length > 0 ? roots : ["."], env);
  if (!danger) return undefined;
  return {
    rule: "find-delete",
    reason: `${shown(command)} would delete every file in ${dangerPhrase(danger)}; add a filter such as -name '*.tmp', or delete specific paths.`,
  };
};

function withGitDir(env: RuleEnv, dirs: readonly string[]): RuleEnv {
  let cwd = env.paths.cwd;
  for (const dir of dirs) cwd = cwd === undefined ? undefined : path.posix.resolve(cwd, dir);
  return { ...env, paths: { ...env.paths, cwd } };
}

/** `git clean -f…` on the whole repository removes every untracked file: new work that exists nowhere else. */
export const gitClean: CommandRule = (command, env) => {
  const git = parseGit(command.argv);
  if (git?.subcommand !== "clean") return undefined;
  const flags = shortFlags(git.args);
  const long = longFlags(git.args);
  const force = flags.includes("f") || long.includes("force") || git.config.some((c) => /^clean\.requireforce=(false|0|no|off)$/i.test(c));
  if (!force || /[ni]/.test(flags) || long.includes("dry-run") || long.includes("interactive")) return undefined;
  const dash = git.args.indexOf("--");
  const options = dash < 0 ? git.args : git.args.slice(0, dash);
  const pathspecs = dash < 0 ? [] : git.args.slice(dash + 1);
  for (let i = 0; i < options.length; i++) {
    const w = options[i] ?? "";
    if (w === "-e" || w === "--exclude") i++;
    else if (!w.startsWith("-")) pathspecs.push(w);
  }
  const targets = (pathspecs.length > 0 ? pathspecs : ["."]).map((p) => (p === ":/" || p.startsWith(":(top)") ? env.paths.workspace : p));
  const danger = firstDanger(targets, withGitDir(env, git.dirs));
  if (!danger || danger.kind === "git") return undefined;
  const what = /[xX]/.test(flags) ? "every untracked and ignored file" : "every untracked file";
  return {
    rule: "git-clean",
    reason: `${shown(command)} would permanently delete ${what} in ${dangerPhrase(danger)}, including new work not yet committed; delete specific paths instead (preview with \`git clean -n\`).`,
  };
};

const RSYNC_VALUE_OPTIONS = new Set([
  "-e",
  "-f",
  "-T",
  "--rsh",
  "--filter",
  "--exclude",
  "--include",
  "--exclude-from",
  "--include-from",
  "--files-from",
  "--rsync-path",
  "--temp-dir",
  "--backup-dir",
  "--suffix",
  "--chmod",
  "--log-file",
  "--password-file",
]);

/** `rsync --delete empty/ ./` makes the destination match the source: everything else in it is deleted. */
export const syncDelete: CommandRule = (command, env) => {
  const [name = "", ...args] = command.argv;
  if (name !== "rsync" || !longFlags(args).some((f) => f.startsWith("delete") || f === "remove-source-files")) return undefined;
  const paths: string[] = [];
  for (let i = 0; i < args.length; i++) {
    const w = args[i] ?? "";
    if (RSYNC_VALUE_OPTIONS.has(w)) i++;
    else if (!w.startsWith("-")) paths.push(w);
  }
  const destination = paths.at(-1);
  if (destination === undefined || paths.length < 2 || /^[^/]*:/.test(destination)) return undefined;
  const danger = firstDanger([destination], env);
  return danger && { rule: "recursive-delete", reason: deleteReason(command, danger, "delete most of") };
};
