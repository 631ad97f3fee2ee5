/**
 * Removes what runs in front of the real program (`sudo -u x`, `env A=1`, `timeout 5`, `nice -n 5`, `VAR=x`, …)
 * so the rules see `rm -rf /` however it is dressed up, and reduces the program path to its name.
 */

export interface OptionSpec {
  /** Short options that take a value, e.g. "ug" for `-u user -g group`. */
  short?: string;
  /** Long options (without `--`) that take a value as the next word. */
  long?: readonly string[];
}

/** Index of the first word at or after `i` that is not an option (past a `--`). */
export function skipOptions(words: readonly string[], i: number, spec: OptionSpec = {}): number {
  while (i < words.length) {
    const w = words[i] ?? "";
    if (w === "--") return i + 1;
    if (!w.startsWith("-") || w === "-") return i;
    if (w.startsWith("--")) {
      const name = w.slice(2);
      i += !name.includes("=") && (spec.long ?? []).includes(name) ? 2 : 1;
      continue;
    }
    const at = [...w.slice(1)].findIndex((ch) => (spec.short ?? "").includes(ch));
    // A value-taking letter at the end of the cluster takes the next word; earlier, the rest of the cluster.
    i += at >= 0 && at === w.length - 2 ? 2 : 1;
  }
  return i;
}

/** Short options present in leading option words, e.g. `-rf -v` → "rfv"; stops at `--`. */
export function shortFlags(words: readonly string[]): string {
  let flags = "";
  for (const w of words) {
    if (w === "--") break;
    if (w.startsWith("-") && !w.startsWith("--")) flags += w.slice(1);
  }
  return flags;
}

/** Long options (`--name` or `--name=value`) among the words before `--`, without dashes or values. */
export function longFlags(words: readonly string[]): string[] {
  const names: string[] = [];
  for (const w of words) {
    if (w === "--") break;
    if (w.startsWith("--")) names.push(w.slice(2).split("=")[0] ?? "");
  }
  return names;
}

/** Words that are not options, honouring `--` (everything after it is an operand). */
export function operands(words: readonly string[]): string[] {
  const dash = words.indexOf("--");
  const before = dash < 0 ? words : words.slice(0, dash);
  const after = dash < 0 ? [] : words.slice(dash + 1);
  return [...before.filter((w) => !w.startsWith("-") || w === "-"), ...after];
}

export function programName(word: string): string {
  // `$(curl …)` or `` `cmd` `` as the program is not a path: keep it whole.
  if (/[$`]/.test(word)) return word;
  const trimmed = word.replace(/\/+$/, "");
  const slash = trimmed.lastIndexOf("/");
  return slash < 0 ? word : trimmed.slice(slash + 1);
}

export const ASSIGNMENT = /^([A-Za-z_][A-Za-z0-9_]*)(?:\[[^\]]*\])?\+?=/;
/** Reserved words that can stand in front of a command (`if rm …`, `then rm …`, `! rm …`). */
const KEYWORDS = new Set(["!", "{", "}", "if", "then", "elif", "else", "fi", "do", "done", "while", "until", "esac"]);

interface Wrapper extends OptionSpec {
  /** Positional words after the options that belong to the wrapper (`timeout 5`). */
  positional?: number;
}

const WRAPPERS: Record<string, Wrapper> = {
  sudo: { short: "ugCDhprtTU", long: ["user", "group", "close-from", "chdir", "host", "prompt", "role", "type", "command-timeout", "other-user"] },
  doas: { short: "uC" },
  command: {},
  builtin: {},
  exec: { short: "a" },
  nice: { short: "n", long: ["adjustment"] },
  nohup: {},
  time: { short: "fo", long: ["format", "output"] },
  timeout: { short: "sk", long: ["signal", "kill-after"], positional: 1 },
  stdbuf: { short: "ioe", long: ["input", "output", "error"] },
  ionice: { short: "cnp", long: ["class", "classdata"] },
  setsid: {},
  busybox: {},
  npx: { short: "p", long: ["package"] },
  pnpx: {},
  bunx: {},
};

export interface Unwrapped {
  /** Program (as a name) and its arguments. Empty for a line of assignments only. */
  argv: string[];
  /** Wrappers removed, in order, e.g. ["sudo", "timeout"]. */
  wrappers: string[];
  /** Leading `NAME=value` words. */
  assignments: Array<[string, string]>;
}

export function unwrapCommand(words: readonly string[], splitString: (text: string) => string[]): Unwrapped {
  let rest = [...words];
  const wrappers: string[] = [];
  const assignments: Array<[string, string]> = [];
  for (let guard = 0; guard < 32 && rest.length > 0; guard++) {
    const first = rest[0] ?? "";
    const assignment = ASSIGNMENT.exec(first);
    if (assignment) {
      assignments.push([assignment[1] ?? "", first.slice(first.indexOf("=") + 1)]);
      rest = rest.slice(1);
      continue;
    }
    if (KEYWORDS.has(first)) {
      rest = rest.slice(1);
      continue;
    }
    const name = programName(first);
    const next = unwrapOne(name, rest, splitString);
    if (!next) break;
    wrappers.push(name);
    rest = next;
  }
  if (rest.length > 0) rest[0] = programName(rest[0] ?? "");
  return { argv: rest, wrappers, assignments };
}

/** The words after wrapper `name`, or undefined when `name` is not a wrapper here. */
function unwrapOne(name: string, words: string[], splitString: (text: string) => string[]): string[] | undefined {
  if (name === "env") return unwrapEnv(words, splitString);
  const spec = WRAPPERS[name];
  if (!spec) return undefined;
  if (name === "command" && /^-[pvV]*[vV]/.test(words[1] ?? "")) return undefined; // `command -v x` only looks x up
  const i = skipOptions(words, 1, spec) + (spec.positional ?? 0);
  if (i >= words.length) {
    // `sudo -s` / `sudo -i` / `doas -s` with no command start a shell that reads stdin.
    const flags = shortFlags(words.slice(1));
    if ((name === "sudo" || name === "doas") && /[si]/.test(flags)) return ["sh"];
    return name === "exec" || name === "command" || name === "builtin" ? undefined : [];
  }
  return words.slice(i);
}

function unwrapEnv(words: string[], splitString: (text: string) => string[]): string[] | undefined {
  let i = 1;
  while (i < words.length) {
    const w = words[i] ?? "";
    if (w === "--") {
      i++;
      break;
    }
    if (w === "-S" || w === "--split-string") return [...splitString(words[i + 1] ?? ""), ...words.slice(i + 2)];
    if (w.startsWith("--split-string=")) return [...splitString(w.slice(15)), ...words.slice(i + 1)];
    if (w.startsWith("-S")) return [...splitString(w.slice(2)), ...words.slice(i + 1)];
    if (w === "-u" || w === "-C" || w === "-P" || w === "--unset" || w === "--chdir") i += 2;
    else if (w.startsWith("-") && w !== "-") i++;
    else break;
  }
  while (i < words.length && ASSIGNMENT.test(words[i] ?? "")) i++;
  // Plain `env` prints the environment: it stays the program.
  return i >= words.length ? undefined : words.slice(i);
}
