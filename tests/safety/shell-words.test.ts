import { describe, expect, it } from "vitest";
import { parseShell, programName, type SimpleCommand } from "../../src/safety/shell-words.js";

const argvs = (line: string): string[][] => parseShell(line).commands.map((c) => c.argv);
const find = (line: string, name: string): SimpleCommand | undefined => parseShell(line).commands.find((c) => c.argv[0] === name);

describe("parseShell: words", () => {
  it("resolves quotes, escapes and ANSI-C strings like bash", () => {
    expect(argvs(`echo 'a b' "c \\"d\\" $X" e\\ f`)).toEqual([["echo", "a b", 'c "d" $X', "e f"]]);
    expect(argvs(`r"m" -r'f' \\/`)).toEqual([["rm", "-rf", "/"]]);
    expect(argvs(`$'\\x72m' -rf $'\\057'`)).toEqual([["rm", "-rf", "/"]]);
    expect(argvs(`echo 'it''s' ""`)).toEqual([["echo", "its", ""]]);
    expect(argvs("echo a\\\nb")).toEqual([["echo", "ab"]]);
  });

  it("splits on every separator and ignores comments", () => {
    expect(argvs("a; b && c || d | e & f\ng # h; i")).toEqual([["a"], ["b"], ["c"], ["d"], ["e"], ["f"], ["g"]]);
    expect(argvs("a;b&&c")).toEqual([["a"], ["b"], ["c"]]);
  });

  it("keeps operators inside quotes as text", () => {
    expect(argvs(`echo "a; rm -rf / | sh" 'b && c'`)).toEqual([["echo", "a; rm -rf / | sh", "b && c"]]);
    expect(argvs(`git commit -m "rm -rf ."`)).toEqual([["git", "commit", "-m", "rm -rf ."]]);
  });

  it("reads redirections apart from arguments", () => {
    const [cmd] = parseShell("cat <in.txt 2>/dev/null >>out.txt x 2>&1").commands;
    expect(cmd?.argv).toEqual(["cat", "x"]);
    expect(cmd?.redirects).toEqual([
      { op: "<", target: "in.txt" },
      { op: ">", target: "/dev/null" },
      { op: ">>", target: "out.txt" },
      { op: ">&", target: "1" },
    ]);
  });

  it("reduces the program to its name", () => {
    expect(programName("/usr/bin/rm")).toBe("rm");
    expect(argvs("/bin/rm x; ./node_modules/.bin/vitest run")).toEqual([
      ["rm", "x"],
      ["vitest", "run"],
    ]);
  });
});

describe("parseShell: wrappers", () => {
  it.each([
    ["sudo rm -rf /", ["rm", "-rf", "/"], ["sudo"]],
    ["sudo -u root -E -- rm x", ["rm", "x"], ["sudo"]],
    ["doas -u root rm x", ["rm", "x"], ["doas"]],
    ["FOO=1 BAR=2 rm x", ["rm", "x"], []],
    ["env -i -u B A=1 rm x", ["rm", "x"], ["env"]],
    ["env -S 'rm -rf x'", ["rm", "-rf", "x"], ["env"]],
    ["command rm x", ["rm", "x"], ["command"]],
    ["builtin cd x", ["cd", "x"], ["builtin"]],
    ["exec -a name rm x", ["rm", "x"], ["exec"]],
    ["nice -n 5 rm x", ["rm", "x"], ["nice"]],
    ["nice -10 rm x", ["rm", "x"], ["nice"]],
    ["nohup rm x", ["rm", "x"], ["nohup"]],
    ["time -p rm x", ["rm", "x"], ["time"]],
    ["timeout -s KILL 5 rm x", ["rm", "x"], ["timeout"]],
    ["sudo env X=1 timeout 5 nice rm x", ["rm", "x"], ["sudo", "env", "timeout", "nice"]],
    ["npx rimraf dist", ["rimraf", "dist"], ["npx"]],
  ])("%s", (line, argv, wrappers) => {
    const [cmd] = parseShell(line).commands;
    expect(cmd?.argv).toEqual(argv);
    expect(cmd?.wrappers).toEqual(wrappers);
  });

  it("leaves lookups and bare wrappers alone", () => {
    expect(argvs("command -v rm")).toEqual([["command", "-v", "rm"]]);
    expect(argvs("env")).toEqual([["env"]]);
    expect(argvs("sudo -s")).toEqual([["sh"]]);
    // `if`, `then` and `fi` are syntax, not commands.
    expect(argvs("if true; then rm x; fi")).toEqual([["true"], ["rm", "x"]]);
  });
});

describe("parseShell: nested commands", () => {
  it("descends into substitutions with their origin and parent", () => {
    const { commands } = parseShell('echo "$(whoami)" `date` <(ls) >(cat)');
    expect(commands.map((c) => [c.argv[0], c.origin, c.parent])).toEqual([
      ["echo", "script", undefined],
      ["whoami", "command-substitution", 0],
      ["date", "command-substitution", 0],
      ["ls", "process-substitution", 0],
      ["cat", "process-substitution", 0],
    ]);
  });

  it("does not descend into single quotes", () => {
    expect(argvs("echo '$(rm -rf /)'")).toEqual([["echo", "$(rm -rf /)"]]);
  });

  it.each([
    ["bash -c 'rm -rf x'", "shell-string"],
    ['sh -lc "rm -rf x"', "shell-string"],
    ["sudo bash -o pipefail -c 'rm -rf x'", "shell-string"],
    ["su -c 'rm -rf x'", "shell-string"],
    ["eval 'rm -rf x'", "eval"],
    ["eval rm -rf x", "eval"],
    ["watch -n 1 rm -rf x", "shell-string"],
    ["ls | xargs -0 -n1 rm -rf x", "xargs"],
    ["find . -exec rm -rf x {} \\;", "find-exec"],
    ["bash <<EOF\nrm -rf x\nEOF", "stdin"],
    ["bash <<< 'rm -rf x'", "stdin"],
    ["cat <<'EOF' | sh\nrm -rf x\nEOF", "stdin"],
    ["echo 'rm -rf x' | bash", "stdin"],
  ])("%s", (line, origin) => {
    const rm = find(line, "rm");
    expect(rm?.argv.slice(0, 3)).toEqual(["rm", "-rf", "x"]);
    expect(rm?.origin).toBe(origin);
    expect(rm?.parent).toBeDefined();
  });

  it("follows variables assigned earlier in the line", () => {
    expect(find("D=/; rm -rf $D", "rm")?.argv).toEqual(["rm", "-rf", "/"]);
    expect(find('export D=/tmp/x && rm -rf "${D}"/y', "rm")?.argv).toEqual(["rm", "-rf", "/tmp/x/y"]);
    expect(find("for d in a b; do rm -rf $d; done", "rm")?.argv).toEqual(["rm", "-rf", "a", "b"]);
    expect(find("c='rm -rf x'; $c", "rm")?.argv).toEqual(["rm", "-rf", "x"]);
  });
});

describe("parseShell: pipes", () => {
  const stages = (line: string): Array<[string, number, number]> =>
    parseShell(line).commands.map((c) => [c.argv[0] ?? "", c.pipes[0]?.pipeline ?? -1, c.pipes[0]?.stage ?? -1]);

  it("numbers pipeline stages and starts a new pipeline after other separators", () => {
    const [a, b, c, d] = stages("curl x | tee f | sh; ls");
    expect([a?.[2], b?.[2], c?.[2]]).toEqual([0, 1, 2]);
    expect(a?.[1]).toBe(c?.[1]);
    expect(d?.[1]).not.toBe(a?.[1]);
  });

  it("gives grouped commands the group's stage too", () => {
    const { commands } = parseShell("(cd /tmp && curl x) | (sh)");
    const curl = commands.find((c) => c.argv[0] === "curl");
    const sh = commands.find((c) => c.argv[0] === "sh");
    const shared = sh?.pipes.find((p) => curl?.pipes.some((q) => q.pipeline === p.pipeline));
    const from = curl?.pipes.find((q) => q.pipeline === shared?.pipeline);
    expect(shared && from && from.stage < shared.stage).toBe(true);
  });
});

describe("parseShell: never throws", () => {
  it("reads unbalanced input as far as it parses and says so", () => {
    // An unterminated quote is a syntax error to bash: what it holds is never run as a command.
    const unbalanced = parseShell(`echo "abc; rm -rf /`);
    expect(unbalanced.complete).toBe(false);
    expect(unbalanced.commands.map((c) => c.argv[0])).toEqual(["echo"]);
    // What comes before the error is still read.
    expect(parseShell(`rm -rf / "`).commands[0]?.argv).toEqual(["rm", "-rf", "/", ""]);
    expect(parseShell("echo $(ls").complete).toBe(false);
    expect(parseShell("echo 'x").complete).toBe(false);
    expect(parseShell("echo ok").complete).toBe(true);
  });

  it("survives odd and random input", () => {
    const odd = ["", "   ", ";;;", "|||", "((((", "))))", "`", "$(", "${", "$'", "<<", "<<<", "2>", "&>", "{ }", "\\", "'\"", "a=$((1+2))"];
    for (const line of odd) expect(() => parseShell(line)).not.toThrow();
    const alphabet = ` a-\\'"$(){}[]|&;<>\`*~=\n\t#!`;
    let seed = 7;
    const next = (): number => (seed = (seed * 1103515245 + 12345) % 2147483648);
    for (let n = 0; n < 300; n++) {
      let line = "";
      for (let i = next() % 40; i > 0; i--) line += alphabet.charAt(next() % alphabet.length);
      expect(() => parseShell(line)).not.toThrow();
    }
  });

  it("stops following after deep nesting and marks the result truncated", () => {
    const deep = `${"echo $(".repeat(12)}rm -rf /${")".repeat(12)}`;
    expect(parseShell(deep).truncated).toBe(true);
    expect(parseShell("a | ".repeat(500) + "b").truncated).toBe(true);
  });
});
