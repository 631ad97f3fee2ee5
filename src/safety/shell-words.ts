import { asSubshells, fieldChild, fieldChildren, hasSyntaxError, namedChildren, parseBash, type SyntaxNode } from "./bash-syntax.js";
import { programName, unwrapCommand } from "./command-wrappers.js";
import { nestedCommands, type CommandOrigin } from "./nested-commands.js";
import { commandPieces, commandText, redirectPieces, SIMPLE_STATEMENTS, type Pieces } from "./shell-syntax-view.js";
import { rememberLoop, rememberVariables, substituteVariables } from "./shell-variables.js";

export { programName };
export type { CommandOrigin };

/**
 * The simple commands a bash line would run, as the rules see them: read from tree-sitter-bash's syntax tree, so
 * pipelines, `&&`/`||`/`;`, subshells, `{ … }`, `$( … )`, backticks, `<( … )`, redirections and here-documents are
 * what bash makes of them (a here-document body is text, not commands). On top of the tree this follows what the
 * parser cannot: `bash -c "…"`, `eval`, `xargs`, `find -exec` and scripts fed to a shell's stdin are parsed in turn,
 * wrappers such as `sudo`, `env VAR=x` or `timeout 5` are removed, and variables set earlier in the line are
 * substituted. It reads, it never runs anything, and it never throws on any input.
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
  /** False when the parser found a syntax error (unbalanced quotes or brackets, …) or the line was truncated. */
  complete: boolean;
  /** True when nesting or the number of commands went past what is followed: the line was not fully read. */
  truncated: boolean;
}

/** Sources inside sources (`bash -c "$(…)"`, …) followed at most this deep. */
const MAX_DEPTH = 8;
const MAX_COMMANDS = 400;
/** Syntax nesting (groups in groups, …) read at most this deep; past it the line is truncated, not guessed. */
const MAX_SYNTAX_DEPTH = 500;

interface ParseState {
  commands: SimpleCommand[];
  /** What each command reads on stdin when known (a here-document, a here-string), by index. */
  stdin: Map<number, string | undefined>;
  vars: Map<string, string[]>;
  nextPipeline: number;
  complete: boolean;
  truncated: boolean;
}

/** Where in the source tree a statement sits: its pipeline stage and what encloses it, and which source it came from. */
interface Place {
  here: PipePosition;
  outer: PipePosition[];
  origin: CommandOrigin;
  parent: number | undefined;
  /** Depth of nested sources. */
  depth: number;
  /** Depth in the syntax tree. */
  level: number;
  source: string;
}

function fresh(state: ParseState, place: Place): Place {
  return { ...place, here: { pipeline: state.nextPipeline++, stage: 0 }, level: place.level + 1 };
}

function inGroup(state: ParseState, place: Place): Place {
  return { ...place, here: { pipeline: state.nextPipeline++, stage: 0 }, outer: [place.here, ...place.outer], level: place.level + 1 };
}

/**
 * Reads one node of the tree. `tail` are redirections the grammar hung on a whole `a && b` or `a | b` although
 * bash binds them to its last command (`echo ok && bash <<EOF`).
 */
function visit(state: ParseState, node: SyntaxNode, place: Place, tail: readonly SyntaxNode[] = []): void {
  if (state.truncated) return;
  if (place.level > MAX_SYNTAX_DEPTH) {
    state.truncated = true;
    return;
  }
  const deeper = { ...place, level: place.level + 1 };
  switch (node.type) {
    case "command":
    case "redirected_statement":
    case "variable_assignment":
    case "variable_assignments":
    case "declaration_command":
    case "unset_command":
    case "test_command":
      simpleStatement(state, node, place, tail);
      return;
    case "pipeline":
      pipeline(state, node, place, 0, tail);
      return;
    case "list": {
      const parts = namedChildren(node).filter((c) => c.type !== "comment");
      parts.forEach((child, i) => visit(state, child, fresh(state, place), i === parts.length - 1 ? tail : []));
      return;
    }
    case "subshell":
      for (const child of namedChildren(node)) visit(state, child, inGroup(state, place));
      break;
    case "compound_statement":
      // `{ … }` is treated like a group, as the rules always have; `(( … ))` holds no commands of its own.
      for (const child of namedChildren(node)) visit(state, child, node.children[0]?.type === "{" ? inGroup(state, place) : fresh(state, place));
      break;
    case "negated_command":
      for (const child of namedChildren(node)) visit(state, child, deeper, tail);
      return;
    case "command_substitution":
    case "process_substitution":
      substitution(state, node, undefined, [place.here, ...place.outer], place);
      return;
    case "comment":
      return;
    default:
      if (node.type === "for_statement") rememberLoop(state.vars, node);
      for (const child of namedChildren(node)) visit(state, child, fresh(state, place));
  }
  // `( … ) > f`, `while …; done < f`: the group's redirections, read as a command of their own.
  if (tail.length > 0) addStatement(state, redirectPieces(tail, place.source), place);
}

/** The stages of `a | b | c` (nested pipelines flattened), each a statement. */
function stagesOf(node: SyntaxNode): SyntaxNode[] {
  return namedChildren(node).flatMap((child) => (child.type === "pipeline" ? stagesOf(child) : child.type === "comment" ? [] : [child]));
}

/** `a | b`: one pipeline, stages counted from `first` (a here-document's `| sh` continues its command's pipeline). */
function pipeline(state: ParseState, node: SyntaxNode, place: Place, first: number, tail: readonly SyntaxNode[] = []): void {
  const here = first === 0 ? { pipeline: state.nextPipeline++, stage: 0 } : place.here;
  const stages = stagesOf(node);
  stages.forEach((stage, i) => {
    const at = { ...place, here: { pipeline: here.pipeline, stage: here.stage + first + i }, level: place.level + 1 };
    visit(state, stage, at, i === stages.length - 1 ? tail : []);
  });
}

function simpleStatement(state: ParseState, node: SyntaxNode, place: Place, tail: readonly SyntaxNode[]): void {
  const body = node.type === "redirected_statement" ? fieldChild(node, "body") : null;
  if (body && !SIMPLE_STATEMENTS.has(body.type)) {
    visit(state, body, { ...place, level: place.level + 1 }, [...fieldChildren(node, "redirect"), ...tail]);
    return;
  }
  addStatement(state, commandPieces(node, place.source, tail), place);
}

function addStatement(state: ParseState, pieces: Pieces, place: Place): void {
  if (pieces.unread) state.complete = false;
  const command = addCommand(state, {
    words: pieces.words.map((w) => w.value),
    rawWords: pieces.words.map((w) => w.raw),
    text: commandText(pieces, place.source),
    redirects: pieces.redirects,
    pipes: [place.here, ...place.outer],
    origin: place.origin,
    parent: place.parent,
    stdin: pieces.stdin ?? pipedText(state, place.here),
  });
  if (!command) return;
  for (const sub of pieces.substitutions) substitution(state, sub, command.index, command.pipes, place);
  nested(state, command, place);
  // What follows a here-document's start on its line: `cat <<EOF | sh`, `cat <<EOF && rm x`.
  for (const after of pieces.after) {
    if (after.type === "pipeline" && (after.children[0]?.type === "|" || after.children[0]?.type === "|&"))
      pipeline(state, after, { ...place, here: command.pipes[0] ?? place.here }, 1);
    else visit(state, after, fresh(state, place));
  }
}

/** `$( … )`, backticks and `<( … )` / `>( … )`: their commands, run half a stage before (or after) `pipes`. */
function substitution(state: ParseState, node: SyntaxNode, parent: number | undefined, pipes: readonly PipePosition[], place: Place): void {
  if (place.depth + 1 > MAX_DEPTH) {
    state.truncated = true;
    return;
  }
  const after = node.type === "process_substitution" && node.children[0]?.type === ">(";
  const shift = after ? 0.5 : -0.5;
  const origin: CommandOrigin = node.type === "process_substitution" ? "process-substitution" : "command-substitution";
  const outer = pipes.map((p) => ({ pipeline: p.pipeline, stage: p.stage + shift }));
  const inner: Place = { ...place, origin, parent, depth: place.depth + 1, outer, level: place.level + 1, here: place.here };
  if (node.children[0]?.type === "`") {
    // Inside backticks bash unescapes \`, \$ and \\ and parses the result as a script of its own; the grammar does
    // not, so nested backticks would be plain words. Read the unescaped text instead.
    const body = node.text.slice(1, node.text.endsWith("`") && node.text.length > 1 ? -1 : undefined);
    parseSource(state, body.replace(/\\([`$\\])/g, "$1"), inner);
    return;
  }
  for (const child of namedChildren(node)) visit(state, child, fresh(state, inner));
}

/** Text that `cat <<EOF …`, `echo …` or `printf …` in the previous stage pipes into this one. */
function pipedText(state: ParseState, here: PipePosition): string | undefined {
  if (here.stage < 1) return undefined;
  const previous = state.commands.findLast((c) => c.pipes[0]?.pipeline === here.pipeline && c.pipes[0]?.stage === here.stage - 1);
  if (!previous) return undefined;
  const [name, ...args] = previous.argv;
  if (name === "cat" && args.length === 0) return state.stdin.get(previous.index);
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
  stdin: string | undefined;
}

function addCommand(state: ParseState, spec: NewCommand): SimpleCommand | undefined {
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
  state.stdin.set(command.index, spec.stdin);
  rememberVariables(state.vars, argv, assignments);
  return command;
}

/** What the command runs besides itself (`bash -c "…"`, `eval`, `xargs rm`, …), read in turn. */
function nested(state: ParseState, command: SimpleCommand, place: Place): void {
  for (const inner of nestedCommands(command.argv, state.stdin.get(command.index))) {
    if (place.depth + 1 > MAX_DEPTH) {
      state.truncated = true;
      return;
    }
    const at: Place = { ...place, origin: inner.origin, parent: command.index, depth: place.depth + 1, outer: command.pipes };
    if (inner.kind === "script") {
      parseSource(state, inner.source, at);
      continue;
    }
    const text = inner.words.join(" ");
    const found = addCommand(state, {
      words: inner.words,
      rawWords: inner.words,
      text,
      redirects: [],
      pipes: command.pipes,
      origin: inner.origin,
      parent: command.index,
      stdin: undefined,
    });
    if (found) nested(state, found, at);
  }
}

function parseSource(state: ParseState, source: string, place: Place): void {
  let text = source;
  for (let attempt = 0; attempt < 8; attempt++) {
    const { root, depth } = parseBash(text);
    if (depth > MAX_SYNTAX_DEPTH) {
      state.truncated = true;
      return;
    }
    const retry = asSubshells(root, text);
    if (retry !== undefined) {
      text = retry;
      continue;
    }
    if (hasSyntaxError(root)) state.complete = false;
    visit(state, root, { ...place, source: text, here: { pipeline: state.nextPipeline++, stage: 0 }, level: 0 });
    return;
  }
  state.truncated = true;
}

/** `env -S 'rm -rf x'` splits its string into words the way a shell would. */
function splitWords(text: string): string[] {
  const first = findNode(parseBash(text).root, "command");
  return first ? commandPieces(first, text).words.map((w) => w.value) : [];
}

function findNode(node: SyntaxNode, type: string): SyntaxNode | undefined {
  if (node.type === type) return node;
  for (const child of node.children) {
    const found = findNode(child, type);
    if (found) return found;
  }
  return undefined;
}

export function parseShell(source: string): ParsedShell {
  const state: ParseState = { commands: [], stdin: new Map(), vars: new Map(), nextPipeline: 0, complete: true, truncated: false };
  const place: Place = { here: { pipeline: 0, stage: 0 }, outer: [], origin: "script", parent: undefined, depth: 0, level: 0, source };
  parseSource(state, source, place);
  return { commands: state.commands, complete: state.complete && !state.truncated, truncated: state.truncated };
}
