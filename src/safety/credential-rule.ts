import { expandBraces, resolvePath } from "./command-paths.js";
import { longFlags, operands, shortFlags } from "./command-wrappers.js";
import { containsCredentials, credentialAt, mayNameCredential } from "./credential-paths.js";
import { shown, type CommandRule, type RuleEnv, type RuleHit } from "./rule-context.js";
import type { SimpleCommand } from "./shell-words.js";

/**
 * Any command whose arguments or redirections point at credentials is denied, whatever the program: cat, cp,
 * scp, base64, tar, `curl -F file=@…` all leak a key the same way. Only programs that look at names and metadata
 * (ls, stat, test, …) may mention them: listing ~/.ssh is not reading a key.
 */

const METADATA_ONLY = new Set(["ls", "stat", "test", "[", "[[", "du", "tree", "mkdir", "cd", "pushd"]);

/** The word itself and what follows `=`, `@`, `:` or `,` in it (`--key=~/.ssh/id_rsa`, `file=@~/.aws/credentials`). */
function candidates(word: string): string[] {
  const found = [word];
  for (let i = 0; i < word.length; i++) if ("=@:,".includes(word.charAt(i))) found.push(word.slice(i + 1));
  return found.filter((c) => c !== "");
}

function credentialIn(words: readonly string[], env: RuleEnv): { word: string; label: string } | undefined {
  // Inside a credential folder (`cd ~/.ssh`), any relative name may be a key.
  const cwd = env.paths.cwd;
  const everyWord = cwd !== undefined && (credentialAt(cwd, env.paths) !== undefined || containsCredentials(cwd, env.paths));
  for (const word of words) {
    // Words that cannot name a credential are skipped quickly (a 50,000-word echo must stay fast).
    if (!everyWord && !mayNameCredential(word, env.paths)) continue;
    for (const candidate of candidates(word)) {
      for (const variant of expandBraces(candidate)) {
        const resolved = resolvePath(variant, env.paths, "wildcard");
        const label = resolved && credentialAt(resolved.path, env.paths, variant.includes("/"));
        if (label) return { word, label };
      }
    }
  }
  return undefined;
}

/** Programs that read whole folder trees: pointed at a home folder they read every credential in it. */
function readsTree(argv: readonly string[]): boolean {
  const [name = "", ...args] = argv;
  const recursive = /[rRa]/.test(shortFlags(args)) || longFlags(args).some((f) => f === "recursive" || f === "archive");
  if (["tar", "7z", "7za", "rg", "ag", "ack", "rgrep"].includes(name)) return true;
  if (["cp", "scp", "zip", "rsync", "grep", "egrep", "fgrep"].includes(name)) return recursive;
  return false;
}

function readHit(command: SimpleCommand, verb: string, what: string): RuleHit {
  return {
    rule: "credential-read",
    reason: `${shown(command)} would ${verb} ${what}, which the agent must not read, copy or change; if the task needs credentials, ask the user to set them up.`,
  };
}

export const credentialRead: CommandRule = (command, env) => {
  const program = command.argv[0] ?? "";
  // The program's own name is not a path it reads (`cat` run inside ~/.ssh is not ~/.ssh/cat).
  const programAt = command.words.length - command.argv.length;
  const words = METADATA_ONLY.has(program) ? [] : command.words.filter((_, i) => i !== programAt);
  const found = credentialIn(words, env);
  if (found) return readHit(command, "read", `${found.label} (${found.word})`);
  for (const redirect of command.redirects) {
    const target = credentialIn([redirect.target], env);
    if (target) return readHit(command, /^[<]/.test(redirect.op) ? "read" : "write to", `${target.label} (${target.word})`);
  }
  if (!readsTree(command.argv)) return undefined;
  for (const operand of operands(command.argv.slice(1))) {
    const resolved = resolvePath(operand, env.paths, "wildcard");
    if (resolved && containsCredentials(resolved.path, env.paths))
      return readHit(command, "read", `everything under ${operand}, including the credentials there`);
  }
  return undefined;
};
