import { programName, unwrapCommand } from "./command-wrappers.js";
import { nestedCommands, type CommandOrigin } from "./nested-commands.js";
import { lexShell, type LexRedirect, type LexToken, type LexWord, type Substitution } from "./shell-lexer.js";
import { substituteVariables } from "./shell-variables.js";

export { programName };
export type { CommandOrigin };

/**
 * Splits a bash command line into the simple commands it would run — including those inside `$( … )`, backticks,
 * `<( … )`, `bash -c "…"`, `eval`, `xargs` and `find -exec` — with quotes resolved and wrappers such as `sudo`,
 * `env VAR=x` or `timeout 5` removed. It reads, it never runs anything, and it never throws.
 */


/**
 * Where a command sits in a pipeline: data flows from lower to higher `stage` of the same `pipeline`. A command in
 * a `( … )` group or inside another command also carries the positions of what encloses it. Substitutions sit half
 * a stage before (`$( … )`, `<( … )`) or after (`>( … )`) the command that uses them.
 */
export interface PipePosition {
  pipeline: number;
  stage: number;
}

export interface Redirect {
  op: string;
  target: string;
}

export interface SimpleCommand {
  index: number;
  /** Program name (basename) and arguments: quotes resolved, wrappers and `VAR=x` prefixes removed. */
  argv: string[];
  /** Every word as bash would see it (quotes resolved), wrappers included. */
  words: string[];
  /** Every word exactly as written. */
  rawWords: string[];
  /** Wrappers removed from the front, e.g. ["sudo", "timeout"]. */
  wrappers: string[];
  /** The command's own source text (for nested commands: the words joined). */
  text: string;
  redirects: Redirect[];
  origin: CommandOrigin;
  /** Index of the command this one was found in. */
  parent?: number;
  pipes: PipePosition[];
}

export interface ParsedShell {
  commands: SimpleCommand[];
  /** False when quotes or brackets were unbalanced, or the line was truncated. */
  complete: boolean;
  /** True when nesting or the number of commands went past what is followed: the line was not fully read. */
  truncated: boolean;
}

const MAX_DEPTH = 8;
const MAX_COMMANDS = 400;

interface ParseState {
  commands: SimpleCommand[];
  vars: Map<string, string[]>;
  nextPipeline: number;
  complete: boolean;
  truncated: boolean;
}

interface CommandSpec {
  words: LexWord[];
  redirects: LexRedirect[];
  pipes: PipePosition[];
  text: string;
}

interface ParentLink {
  index: number;
  pipes: PipePosition[];
}

/** Groups tokens into simple commands, numbering pipelines so `a | b` shares one and `a; b` does not. */
function groupCommands(tokens: LexToken[], source: string, state: ParseState): CommandSpec[] {
  const specs: CommandSpec[] = [];
  const groups: PipePosition[] = [];
  let here: PipePosition = { pipeline: state.nextPipeline++, stage: 0 };
  let words: LexWord[] = [];
  let redirects: LexRedirect[] = [];
  let start = -1;
  let end = -1;
  const finish = (): void => {
    if (words.length > 0 || redirects.length > 0) {
      // `then rm -rf .` reads as `rm -rf .` in reasons and for allow patterns.
      const text = source.slice(start, end).trim().replace(/^(?:(?:if|then|elif|else|do|while|until|!)\s+)+/, "");
      specs.push({ words, redirects, pipes: [here, ...groups], text });
    }
    words = [];
    redirects = [];
    start = -1;
  };
  const open = (): void => {
    finish();
    groups.unshift(here);
    here = { pipeline: state.nextPipeline++, stage: 0 };
  };
  const close = (): void => {
    finish();
    here = groups.shift() ?? here;
  };
  for (const token of tokens) {
    if (token.kind === "op") {
      if (token.op === "(") open();
      else if (token.op === ")") close();
      else {
        finish();
        here = token.op === "|" || token.op === "|&" ? { ...here, stage: here.stage + 1 } : { pipeline: state.nextPipeline++, stage: 0 };
      }
      continue;
    }
    if (token.kind === "word" && words.length === 0 && redirects.length === 0 && (token.word.raw === "{" || token.word.raw === "}")) {
      if (token.word.raw === "{") open();
      else close();
      continue;
    }
    const span = token.kind === "word" ? token.word : token;
    if (start < 0) start = span.start;
    end = span.end;
    if (token.kind === "word") words.push(token.word);
    else redirects.push(token);
  }
  finish();
  return specs;
}

function splitWords(text: string): string[] {
  return lexShell(text).tokens.flatMap((t) => (t.kind === "word" ? [t.word.text] : []));
}

function parseInto(state: ParseState, source: string, origin: CommandOrigin, parent: ParentLink | undefined, shift: number, depth: number): void {
  if (depth > MAX_DEPTH) {
    state.truncated = true;
    return;
  }
  const lexed = lexShell(source);
  if (!lexed.complete) state.complete = false;
  const outer = (parent?.pipes ?? []).map((p) => ({ pipeline: p.pipeline, stage: p.stage + shift }));
  let previous: { command: SimpleCommand; stdin: string | undefined } | undefined;
  for (const spec of groupCommands(lexed.tokens, source, state)) {
    const subs: Substitution[] = [...spec.words.flatMap((w) => w.subs), ...spec.redirects.flatMap((r) => r.target?.subs ?? [])];
    const stdin = spec.redirects.find((r) => r.heredoc !== undefined)?.heredoc ?? pipedText(previous, spec.pipes[0]);
    const command = addCommand(state, {
      words: spec.words.map((w) => w.text),
      rawWords: spec.words.map((w) => w.raw),
      text: spec.text,
      redirects: spec.redirects.map((r) => ({ op: r.op, target: r.target?.text ?? "" })),
      pipes: [...spec.pipes, ...outer],
      origin,
      parent: parent?.index,
      subs,
      stdin,
    }, depth);
    if (command) previous = { command, stdin };
  }
}

/** Text that `cat <<EOF …`, `echo …` or `printf …` in the previous stage pipes into the next one. */
function pipedText(previous: { command: SimpleCommand; stdin: string | undefined } | undefined, here: PipePosition | undefined): string | undefined {
  const from = previous?.command.pipes[0];
  if (!previous || !from || !here || from.pipeline !== here.pipeline || from.stage + 1 !== here.stage) return undefined;
  const [name, ...args] = previous.command.argv;
  if (name === "cat" && args.length === 0) return previous.stdin;
  if (name === "echo" || name === "printf") return args.filter((a) => !/^-[neE]+$/.test(a)).join(" ");
  return undefined;
}

interface NewCommand {
  words: string[];
  rawWords: string[];
  text: string;
  redirects: Redirect[];
  pipes: PipePosition[];
  origin: CommandOrigin;
  parent: number | undefined;
  subs: Substitution[];
  stdin: string | undefined;
}

function addCommand(state: ParseState, spec: NewCommand, depth: number): SimpleCommand | undefined {
  if (state.commands.length >= MAX_COMMANDS) {
    state.truncated = true;
    return undefined;
  }
  const words = substituteVariables(spec.words, state.vars);
  const { argv, wrappers, assignments } = unwrapCommand(words, splitWords);
  const command: SimpleCommand = {
    index: state.commands.length,
    argv,
    words,
    rawWords: spec.rawWords,
    wrappers,
    text: spec.text,
    redirects: spec.redirects,
    origin: spec.origin,
    pipes: spec.pipes,
  };
  if (spec.parent !== undefined) command.parent = spec.parent;
  state.commands.push(command);
  rememberVariables(state.vars, argv, assignments);
  const link = { index: command.index, pipes: command.pipes };
  for (const sub of spec.subs) {
    const origin = sub.kind === "command" ? "command-substitution" : "process-substitution";
    parseInto(state, sub.source, origin, link, sub.kind === "process-out" ? 0.5 : -0.5, depth + 1);
  }
  for (const nested of nestedCommands(argv, spec.stdin)) {
    if (nested.kind === "script") {
      parseInto(state, nested.source, nested.origin, link, 0, depth + 1);
    } else {
      const text = nested.words.join(" ");
      addCommand(state, { ...spec, words: nested.words, rawWords: nested.words, text, redirects: [], origin: nested.origin, parent: command.index, subs: [], stdin: undefined }, depth + 1);
    }
  }
  return command;
}

/** `X=1`, `export X=1`, `for X in a b` — so a later `rm -rf $X` is read with X's value(s). */
function rememberVariables(vars: Map<string, string[]>, argv: string[], assignments: Array<[string, string]>): void {
  if (argv.length === 0) for (const [name, value] of assignments) vars.set(name, [value]);
  const head = argv[0] ?? "";
  if (["export", "declare", "local", "readonly", "typeset"].includes(head)) {
    for (const arg of argv.slice(1)) {
      const eq = arg.indexOf("=");
      if (eq > 0 && /^[A-Za-z_][A-Za-z0-9_]*$/.test(arg.slice(0, eq))) vars.set(arg.slice(0, eq), [arg.slice(eq + 1)]);
    }
  }
  if ((head === "for" || head === "select") && argv[2] === "in" && argv[1]) vars.set(argv[1], argv.slice(3));
}

export function parseShell(source: string): ParsedShell {
  const state: ParseState = { commands: [], vars: new Map(), nextPipeline: 0, complete: true, truncated: false };
  parseInto(state, source, "script", undefined, 0, 0);
  return { commands: state.commands, complete: state.complete && !state.truncated, truncated: state.truncated };
}
