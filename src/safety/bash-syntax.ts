import Parser from "tree-sitter";
import { grammarBinding, untypedLanguage } from "../platform/tree-sitter-language.js";

/**
 * The bash grammar Codex also uses (tree-sitter-bash), through tree-sitter's Node binding. Both packages ship
 * prebuilt binaries or build from source at install, without downloading anything. A parse is synchronous and takes
 * well under a millisecond for an ordinary command line. tree-sitter never throws on bad input: it marks the broken
 * spans and parses the rest.
 *
 * The tree is copied into plain objects in one pass, so the rules never hold on to the parser's memory.
 */

export interface SyntaxNode {
  /** The grammar's node type (`command`, `word`, …), or the token itself for anonymous nodes (`&&`, `<<`). */
  type: string;
  named: boolean;
  /** The field this node fills in its parent (`name`, `argument`, `redirect`, …). */
  field: string | undefined;
  /** UTF-16 offsets into the parsed source. */
  start: number;
  end: number;
  text: string;
  /** An `ERROR` node, or a token the parser assumed missing. */
  error: boolean;
  /** This node or one below it is an error. */
  hasError: boolean;
  children: SyntaxNode[];
  parent: SyntaxNode | undefined;
}

export interface SyntaxTree {
  root: SyntaxNode;
  /** How deeply nodes nest. */
  depth: number;
}

const parser = new Parser();
parser.setLanguage(untypedLanguage(grammarBinding("tree-sitter-bash") as Parser.Language));

function copy(tree: Parser.Tree, source: string): SyntaxTree {
  const cursor = tree.walk();
  const node = (parent: SyntaxNode | undefined): SyntaxNode => {
    const type = cursor.nodeType;
    const start = cursor.startIndex;
    const end = cursor.endIndex;
    const error = type === "ERROR" || cursor.nodeIsMissing;
    return {
      type,
      named: cursor.nodeIsNamed,
      field: cursor.currentFieldName || undefined,
      start,
      end,
      text: source.slice(start, end),
      error,
      hasError: error,
      children: [],
      parent,
    };
  };
  const root = node(undefined);
  let depth = 0;
  // Depth-first without recursion: a line can nest thousands of levels deep.
  let current = root;
  let level = 0;
  if (!cursor.gotoFirstChild()) return { root, depth };
  for (;;) {
    const child = node(current);
    current.children.push(child);
    if (cursor.gotoFirstChild()) {
      current = child;
      depth = Math.max(depth, ++level);
      continue;
    }
    while (!cursor.gotoNextSibling()) {
      if (!cursor.gotoParent() || current.parent === undefined) return { root, depth };
      current = current.parent;
      level--;
    }
  }
}

/** The syntax tree of `source`, as plain objects. */
export function parseBash(source: string): SyntaxTree {
  const copied = copy(parser.parse(source), source);
  propagateErrors(copied.root);
  return copied;
}

/** Sets `hasError` on every node above an error (without recursion). */
function propagateErrors(root: SyntaxNode): void {
  const stack: SyntaxNode[] = [root];
  const order: SyntaxNode[] = [];
  for (let next = stack.pop(); next; next = stack.pop()) {
    order.push(next);
    stack.push(...next.children);
  }
  for (let i = order.length - 1; i >= 0; i--) {
    const n = order[i];
    if (n?.hasError && n.parent) n.parent.hasError = true;
  }
}

export function namedChildren(node: SyntaxNode): SyntaxNode[] {
  return node.children.filter((c) => c.named);
}

export function fieldChild(node: SyntaxNode, field: string): SyntaxNode | undefined {
  return node.children.find((c) => c.field === field);
}

export function fieldChildren(node: SyntaxNode, field: string): SyntaxNode[] {
  return node.children.filter((c) => c.field === field);
}

/** The broken parts of a tree, looking only where the parser marked errors. */
function errorsIn(node: SyntaxNode): SyntaxNode[] {
  if (node.error) return [node];
  return node.hasError ? node.children.flatMap(errorsIn) : [];
}

/** Errors other than `<>` (open for reading and writing), which bash has and the grammar lacks. */
export function hasSyntaxError(root: SyntaxNode): boolean {
  return errorsIn(root).some((e) => {
    const siblings = e.parent?.children ?? [];
    return !(e.parent?.type === "file_redirect" && e.text === ">" && siblings[siblings.indexOf(e) - 1]?.type === "<");
  });
}

/**
 * bash reads a `((` (or `$((`) that is not arithmetic as two opening parentheses: `((curl x) | sh)`. The grammar
 * stops at an error there; the line with `( (` in its place, to parse again, or undefined.
 */
export function asSubshells(root: SyntaxNode, source: string): string | undefined {
  for (const error of errorsIn(root)) {
    const at = source.indexOf("((", error.start);
    if (at >= 0 && at <= error.start + 1) return `${source.slice(0, at)}( (${source.slice(at + 2)}`;
  }
  return undefined;
}
