/** Reads `git [global options] <subcommand> [args]` the way git does, so `git -C dir push` is still a push. */

export interface GitCall {
  subcommand: string;
  args: string[];
  /** Folders from `-C`, in order (each relative to the previous). */
  dirs: string[];
  /** `-c name=value` settings. */
  config: string[];
}

const WITH_VALUE = new Set(["-C", "-c", "--git-dir", "--work-tree", "--namespace", "--config-env", "--super-prefix", "--exec-path"]);

export function parseGit(argv: readonly string[]): GitCall | undefined {
  if (argv[0] !== "git") return undefined;
  const dirs: string[] = [];
  const config: string[] = [];
  let i = 1;
  while (i < argv.length) {
    const w = argv[i] ?? "";
    if (!w.startsWith("-")) break;
    if (WITH_VALUE.has(w)) {
      const value = argv[i + 1] ?? "";
      if (w === "-C") dirs.push(value);
      if (w === "-c") config.push(value);
      i += 2;
    } else i++;
  }
  const subcommand = argv[i];
  return subcommand === undefined ? undefined : { subcommand, args: argv.slice(i + 1), dirs, config };
}

/** The subcommand an alias set with `-c alias.NAME=…` stands for, or the subcommand itself. */
export function gitEffectiveSubcommands(call: GitCall): string[] {
  const names = [call.subcommand];
  for (const setting of call.config) {
    const m = /^alias\.([^=]+)=(.*)$/s.exec(setting);
    if (m && m[1] === call.subcommand) names.push(...(m[2] ?? "").replace(/^!/, "").split(/\s+/));
  }
  return names;
}
