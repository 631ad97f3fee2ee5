import { fieldChild, fieldChildren, namedChildren, type SyntaxNode } from "./bash-syntax.js";
import { wordValue } from "./shell-word-value.js";

/**
 * One simple command of the syntax tree, read into what the rules need: its words, its redirections, what it reads
 * on stdin, the substitutions it runs, and what follows a here-document's start on the same line.
 */

export interface WordPiece {
  /** As bash would see it: quotes resolved, expansions as written. */
  value: string;
  /** Exactly as written. */
  raw: string;
}

export interface RedirectPiece {
  /** The operator without its file descriptor: `>`, `>>`, `<`, `<<`, `<<<`, `&>`, `>&`, … */
  op: string;
  target: string;
}

export interface Pieces {
  words: WordPiece[];
  redirects: RedirectPiece[];
  /** A here-document's body or a here-string's text. */
  stdin?: string;
  /** `$( … )`, backticks and `<( … )` in the words, redirection targets and here-document bodies. */
  substitutions: SyntaxNode[];
  /** Statements written after a here-document's start (`cat <<EOF | sh`, `cat <<EOF && rm x`). */
  after: SyntaxNode[];
  /** The source range of the command's own text. */
  span: [number, number];
  /** Something bash runs that the grammar does not show (backticks in a here-document): the line is not fully read. */
  unread?: boolean;
  /** Where the last word ended, to join a word split by a line continuation. */
  wordEnd: number;
  source: string;
}

/** Statements that are one simple command (or a bare assignment, declaration or test). */
export const SIMPLE_STATEMENTS = new Set(["command", "variable_assignment", "variable_assignments", "declaration_command", "unset_command", "test_command"]);
const REDIRECTS = new Set(["file_redirect", "herestring_redirect", "heredoc_redirect"]);
const SUBSTITUTIONS = new Set(["command_substitution", "process_substitution"]);
/** Nodes that cannot hold a substitution (looking into them costs time on long lines). */
const NO_SUBSTITUTIONS = new Set(["word", "number", "raw_string", "ansi_c_string", "variable_name", "simple_expansion", "string_content", "heredoc_content"]);
const HEREDOC_PARTS = new Set(["heredoc_start", "heredoc_body", "heredoc_end", "comment"]);
/** Nodes that are one word (or one operand) in a test expression. */
const TEST_WORDS = new Set([
  "word",
  "string",
  "raw_string",
  "ansi_c_string",
  "translated_string",
  "concatenation",
  "simple_expansion",
  "expansion",
  "command_substitution",
  "process_substitution",
  "arithmetic_expansion",
  "number",
  "test_operator",
  "regex",
  "extglob_pattern",
]);

/** The `$( … )` / backtick / `<( … )` nodes in `node`, outermost only (inner ones belong to their own commands). */
export function substitutionsIn(node: SyntaxNode): SyntaxNode[] {
  const type = node.type;
  if (SUBSTITUTIONS.has(type)) return [node];
  return NO_SUBSTITUTIONS.has(type) ? [] : node.children.flatMap(substitutionsIn);
}

function emptyPieces(source: string): Pieces {
  return { words: [], redirects: [], substitutions: [], after: [], span: [Infinity, -Infinity], wordEnd: -1, source };
}

/**
 * Whether `node` continues the previous word: written right after it, or after only line continuations (bash
 * removes `\<newline>` before splitting words; the grammar reads it as a space, so `r\<newline>m` would be two).
 */
function continuesWord(pieces: Pieces, start: number, raw: string): boolean {
  if (pieces.wordEnd < 0 || start < pieces.wordEnd || /^\s/.test(raw)) return false;
  return start === pieces.wordEnd || /^(?:\\\r?\n)+$/.test(pieces.source.slice(pieces.wordEnd, start));
}

function include(pieces: Pieces, start: number, end: number): void {
  pieces.span = [Math.min(pieces.span[0], start), Math.max(pieces.span[1], end)];
}

/** Adds word nodes; nodes written side by side with no space between (`$"…"` is two nodes) are one word. */
function addWords(pieces: Pieces, nodes: readonly SyntaxNode[]): void {
  for (const node of nodes) {
    const start = node.start;
    const end = node.end;
    const raw = pieces.source.slice(start, end);
    const piece = { value: wordValue(node), raw };
    const last = pieces.words.at(-1);
    if (last && continuesWord(pieces, start, raw)) {
      last.value += piece.value;
      last.raw += pieces.source.slice(pieces.wordEnd, start) + raw;
    } else pieces.words.push(piece);
    pieces.wordEnd = end;
    pieces.substitutions.push(...substitutionsIn(node));
    include(pieces, start, end);
  }
}

function addRedirect(pieces: Pieces, node: SyntaxNode): void {
  const op = node.children.find((c) => !c.named)?.type ?? "";
  if (node.type === "file_redirect") {
    const [target, ...stray] = fieldChildren(node, "destination");
    // The operator as written between the descriptor and the target (the grammar lacks `<>`: it reads `<` and an error).
    const from = fieldChild(node, "descriptor")?.end ?? node.start;
    const written = pieces.source.slice(from, target?.start ?? node.end).trim();
    pieces.redirects.push({ op: written || op, target: target ? wordValue(target) : "" });
    if (target) pieces.substitutions.push(...substitutionsIn(target));
    include(pieces, node.start, node.end);
    pieces.wordEnd = -1;
    // `rm > log -rf /`: words after the target are the command's arguments, as in bash.
    addWords(pieces, stray);
    return;
  }
  if (node.type === "herestring_redirect") {
    const text = namedChildren(node)[0];
    const value = text ? wordValue(text) : "";
    pieces.redirects.push({ op, target: value });
    pieces.stdin = value;
    if (text) pieces.substitutions.push(...substitutionsIn(text));
    include(pieces, node.start, node.end);
    return;
  }
  heredoc(pieces, node, op);
}

function heredoc(pieces: Pieces, node: SyntaxNode, op: string): void {
  const start = node.children.find((c) => c.type === "heredoc_start");
  pieces.redirects.push({ op, target: (start?.text ?? "").replace(/['"\\]/g, "") });
  include(pieces, node.start, start?.end ?? node.end);
  for (const child of namedChildren(node)) {
    if (child.type === "heredoc_body") {
      pieces.stdin = child.text;
      // An unquoted delimiter lets `$( … )` in the body run; the parser only marks them then. It does not mark
      // backticks there at all.
      pieces.substitutions.push(...substitutionsIn(child));
      if (!/['"\\]/.test(start?.text ?? "") && child.text.includes("`")) pieces.unread = true;
    } else if (REDIRECTS.has(child.type)) addRedirect(pieces, child);
    else if (!HEREDOC_PARTS.has(child.type)) pieces.after.push(child);
  }
}

/** Reads a simple statement, with `extra` redirections that bash binds to it. */
export function commandPieces(node: SyntaxNode, source: string, extra: readonly SyntaxNode[] = []): Pieces {
  const pieces = emptyPieces(source);
  if (node.type === "redirected_statement") {
    const inner = fieldChild(node, "body");
    const merged = inner ? commandPieces(inner, source) : pieces;
    for (const redirect of [...fieldChildren(node, "redirect"), ...extra]) addRedirect(merged, redirect);
    return merged;
  }
  if (node.type === "test_command") {
    pieces.words.push(...testWords(node));
    pieces.substitutions.push(...substitutionsIn(node));
    include(pieces, node.start, node.end);
  } else if (node.type === "variable_assignment") {
    addWords(pieces, [node]);
  } else {
    const keyword = node.children[0];
    if ((node.type === "declaration_command" || node.type === "unset_command") && keyword && !keyword.named) {
      pieces.words.push({ value: keyword.type, raw: keyword.text });
      include(pieces, keyword.start, keyword.end);
    }
    for (const child of node.children) {
      const type = child.type;
      if (type === "comment") continue;
      if (REDIRECTS.has(type)) addRedirect(pieces, child);
      else if (type === "command_name") addWords(pieces, namedChildren(child));
      else if (child.named || child.field === "argument") addWords(pieces, [child]);
    }
  }
  for (const redirect of extra) addRedirect(pieces, redirect);
  return pieces;
}

/** Redirections on their own (of a group, `( … ) > f`), read as a command without words. */
export function redirectPieces(redirects: readonly SyntaxNode[], source: string): Pieces {
  const pieces = emptyPieces(source);
  for (const redirect of redirects) addRedirect(pieces, redirect);
  return pieces;
}

/** `[[ -f x ]]`: brackets, operators and operands in order, each as one word. */
function testWords(node: SyntaxNode): WordPiece[] {
  return node.children.flatMap((child): WordPiece[] => {
    if (!child.named) return [{ value: child.type, raw: child.text }];
    if (TEST_WORDS.has(child.type)) return [{ value: wordValue(child), raw: child.text }];
    return testWords(child);
  });
}

export function commandText(pieces: Pieces, source: string): string {
  return pieces.span[0] < pieces.span[1] ? source.slice(pieces.span[0], pieces.span[1]).trim() : "";
}
