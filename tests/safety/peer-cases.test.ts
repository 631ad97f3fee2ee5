import { describe, expect, it } from "vitest";
import { commandPatternFor, evaluateCommand, type CommandRulesContext } from "../../src/safety/command-rules.js";

/**
 * The published command-safety cases of two peers, run through our rules. Written here from their cases (their
 * command and their expected outcome), not copied:
 * - Codex: the tests of `codex-rs/core/src/command_safety/is_safe_command.rs` (openai/codex at 028731d), which
 *   decide which commands run without asking. Codex runs argv vectors; each is written here as the shell line that
 *   runs the same argv.
 * - gemini-cli: `packages/core/src/policy/shell-safety.test.ts` (google-gemini/gemini-cli at 029e04d), a policy that
 *   allows one command prefix (`git log`), and what a compound line around it must still ask. Their prefix rule is our
 *   allow pattern `git log *`.
 */
const ctx: CommandRulesContext = { workspace: "/work/proj", home: "/home/u" };
const withRules = (allow: string[], deny: string[] = []): CommandRulesContext => ({ ...ctx, rules: { allow, deny } });
const decision = (command: string, context = ctx) => evaluateCommand(command, context).decision;

describe("Codex: known safe commands run without asking", () => {
  it.each([
    // known_safe_examples
    "ls",
    "git status",
    "git branch",
    "git branch --show-current",
    "base64",
    "sed -n 1,5p file.txt",
    "nl -nrz Cargo.toml",
    "find . -name file.txt",
    "numfmt 1000",
    "tac Cargo.toml",
    // git_branch_global_options_respect_safety_rules
    "git -C . branch --show-current",
    // zsh_lc_safe_command_sequence
    "zsh -lc ls",
    // bash_lc_safe_examples
    "bash -lc ls",
    "bash -lc 'ls -1'",
    "bash -lc 'git status'",
    "bash -lc 'grep -R \"Cargo.toml\" -n'",
    "bash -lc 'sed -n 1,5p file.txt'",
    "bash -lc \"sed -n '1,5p' file.txt\"",
    "bash -lc 'find . -name file.txt'",
    // bash_lc_safe_examples_with_operators
    "bash -lc 'grep -R \"Cargo.toml\" -n || true'",
    "bash -lc 'ls && pwd'",
    "bash -lc \"echo 'hi' ; ls\"",
    "bash -lc 'ls | wc -l'",
    // ripgrep_rules
    "rg Cargo.toml -n",
  ])("%s", (command) => {
    expect(evaluateCommand(command, ctx)).toMatchObject({ decision: "allow", rule: "read-only" });
  });
});

describe("Codex: commands that are not known safe still ask (or are denied)", () => {
  it.each([
    // git_branch_mutating_flags_are_not_safe, git_branch_global_options_respect_safety_rules
    "git branch -d feature",
    "git branch new-branch",
    "git -C . branch -d feature",
    "bash -lc 'git -C . branch -d feature'",
    // git_first_positional_is_the_subcommand
    "git checkout status",
    // git_output_and_config_override_flags_are_not_safe
    "git log --output=/tmp/git-log-out-test -n 1",
    "git diff --output /tmp/git-diff-out-test",
    "git show --output=/tmp/git-show-out-test HEAD",
    "git -c core.pager=cat log -n 1",
    "git -ccore.pager=cat status",
    // cargo_check_is_not_safe, unknown_or_partial
    "cargo check",
    "foo",
    "git fetch",
    "sed -n xp file.txt",
    "find . -name file.txt -exec rm {} ';'",
    "find . -name '*.py' -execdir python3 {} ';'",
    "find . -name file.txt -ok rm {} ';'",
    "find . -name '*.py' -okdir python3 {} ';'",
    "find . -delete -name file.txt",
    "find . -fls /etc/passwd",
    "find . -fprint /etc/passwd",
    "find . -fprint0 /etc/passwd",
    "find . -fprintf /root/suid.txt '%#m %u %p\\n'",
    // base64_output_options_are_unsafe
    "base64 -o out.bin",
    "base64 --output out.bin",
    "base64 --output=out.bin",
    "base64 -ob64.txt",
    // ripgrep_rules
    "rg --search-zip files",
    "rg -z files",
    "rg --pre pwned files",
    "rg --pre=pwned files",
    "rg --hostname-bin pwned files",
    "rg --hostname-bin=pwned files",
    // bash_lc_unsafe_examples
    "bash -lc git status",
    "bash -lc \"'git status'\"",
    "bash -lc 'find . -name file.txt -delete'",
    "bash -lc 'ls && rm -rf /'",
    "bash -lc 'ls > out.txt'",
  ])("%s", (command) => {
    expect(decision(command)).not.toBe("allow");
  });

  it("differs on purpose where Codex's parser stops: a subshell of read-only commands is read-only here", () => {
    // Codex: "(ls)" and "ls || (pwd && echo hi)" are not provably safe with its parser; ours reads subshells.
    expect(decision("bash -lc '(ls)'")).toBe("allow");
    expect(decision("bash -lc 'ls || (pwd && echo hi)'")).toBe("allow");
    expect(decision("bash -lc '(ls; rm -rf src)'")).not.toBe("allow");
  });

  it("goes further than Codex: expansions and abbreviations that could become a writing option ask", () => {
    // A glob or a variable could expand to `-delete`; git accepts `--out=` for `--output=`.
    for (const command of [
      "find . *",
      "find . $OPT",
      "find . {-delete,}",
      "git log --out=x",
      "rg -nz foo",
      "sort -o out.txt in.txt",
      "LD_PRELOAD=./x.so ls",
      "sudo ls",
    ]) {
      expect(decision(command), command).not.toBe("allow");
    }
  });
});

describe("gemini-cli: an allow rule for `git log` allows git log, nothing more", () => {
  const gitLog = withRules(["git log *"]);

  it.each([
    ["git log", "allow"],
    ["git log --oneline", "allow"],
    ["git logout", "ask"],
    ["git log > /tmp/test", "ask"],
    ["git status && unknown_command", "ask"],
  ])("%s → %s", (command, expected) => {
    expect(decision(command, gitLog)).toBe(expected);
  });

  it.each([
    "git log && rm -rf /",
    "git log; rm -rf /",
    "git log || rm -rf /",
    "git log &&& rm -rf /",
    "echo `rm -rf /`",
    "diff <(git log) <(rm -rf /)",
    "tee >(rm -rf /)",
    "git log | rm -rf /",
    "git log --format=$(rm -rf /)",
    "git log && echo $(git log | rm -rf /)",
    "git log @(Get-Process)",
  ])("%s → not allowed", (command) => {
    expect(decision(command, gitLog)).not.toBe("allow");
  });

  it("a substitution is allowed only when what it runs is allowed too", () => {
    expect(decision("echo $(rm -rf /)", withRules(["echo *"]))).not.toBe("allow");
    expect(decision("echo $(git log)", withRules(["echo *", "git *"]))).toBe("allow");
    expect(decision("git log && echo $(git log)", withRules(["echo *", "git *"]))).toBe("allow");
  });

  it("a deny rule wins over everything else in the line", () => {
    expect(decision('git commit -m "msg" && git push', withRules([], ["git push"]))).toBe("deny");
  });
});

describe("issue 38: an allow rule allows what it names, no more", () => {
  it("a redirection into a file asks under a rule for the command", () => {
    expect(decision("echo hi > out.txt", withRules(["echo *"]))).toBe("ask");
    expect(decision("git log > /tmp/test", withRules(["git log *"]))).toBe("ask");
  });

  it("a filter after a pipe is harmless only with read-only options", () => {
    const npmTest = withRules(["npm test*"]);
    expect(decision("npm test | sort", npmTest)).toBe("allow");
    expect(decision("npm test 2>&1 | sort -n | uniq -c", npmTest)).toBe("allow");
    expect(decision("npm test | sort --compress-program=./evil.sh", npmTest)).toBe("ask");
    expect(decision("npm test | sort -ofoo.txt", npmTest)).toBe("ask");
    expect(decision("npm test | sort --output=foo.txt", npmTest)).toBe("ask");
    expect(decision("npm test | uniq - out.txt", npmTest)).toBe("ask");
    expect(decision("npm test | tee out.log", npmTest)).toBe("ask");
  });

  it("the pattern offered for 'always' keeps a word boundary", () => {
    const offered = commandPatternFor("git log --oneline");
    expect(offered).toBe("git log *");
    expect(decision("git log --oneline -3 | wc -l", withRules([offered]))).toBe("allow");
    expect(decision("git logout", withRules([offered]))).toBe("ask");
    expect(decision("npm tester", withRules([commandPatternFor("npm test -- --run x")]))).toBe("ask");
    expect(decision("npm test", withRules([commandPatternFor("npm test -- --run x")]))).toBe("allow");
  });
});
