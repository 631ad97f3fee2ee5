import type Parser from "tree-sitter";
import { grammarBinding, parserClass, untypedLanguage } from "../../platform/tree-sitter-language.js";
import { windowChunks } from "./text-chunks.js";
import type { Chunk, ChunkKind } from "./types.js";

/**
 * Chunks JavaScript and TypeScript along their syntax (tree-sitter grammars, prebuilt native bindings): every
 * top-level function, class, method, interface, type, enum and variable becomes a chunk with the doc comment right
 * above it, so a question about what a function does meets its JSDoc. Other top-level statements (imports,
 * calls) are grouped into "module" chunks. A definition longer than a window is split into windows that keep its
 * symbol. tree-sitter never throws on broken code: it marks the broken span and parses the rest.
 */

type Grammar = "javascript" | "typescript" | "tsx";

const GRAMMAR_BY_EXTENSION: Record<string, Grammar> = {
  js: "javascript",
  mjs: "javascript",
  cjs: "javascript",
  jsx: "javascript",
  ts: "typescript",
  mts: "typescript",
  cts: "typescript",
  tsx: "tsx",
};

/**
 * A grammar's native binding, loaded the first time a file needs it: each costs a process several ms to load, and a
 * workspace of TypeScript needs no JavaScript grammar (nor lodash's JavaScript the TypeScript ones).
 */
function language(grammar: Grammar): Parser.Language {
  if (grammar === "javascript") return grammarBinding("tree-sitter-javascript") as Parser.Language;
  const grammars = grammarBinding("tree-sitter-typescript") as { typescript: Parser.Language; tsx: Parser.Language };
  return grammars[grammar];
}

const parsers = new Map<Grammar, Parser>();

function parserFor(grammar: Grammar): Parser {
  let parser = parsers.get(grammar);
  if (!parser) {
    const ParserClass = parserClass();
    parser = new ParserClass();
    parser.setLanguage(untypedLanguage(language(grammar)));
    parsers.set(grammar, parser);
  }
  return parser;
}

export function grammarFor(path: string): Grammar | undefined {
  const ext = path.slice(path.lastIndexOf(".") + 1).toLowerCase();
  return GRAMMAR_BY_EXTENSION[ext];
}

/** Lines of one definition before it is split into windows. */
const MAX_DEFINITION_LINES = 120;
/** Top-level statements grouped into one module chunk at most. */
const MAX_MODULE_LINES = 40;

const FUNCTION_VALUES = new Set(["arrow_function", "function_expression", "function", "generator_function"]);
const TYPE_NODES = new Set(["interface_declaration", "type_alias_declaration", "enum_declaration"]);
const CLASS_NODES = new Set(["class_declaration", "abstract_class_declaration", "class"]);
const METHOD_NODES = new Set(["method_definition", "abstract_method_signature"]);

interface Definition {
  node: Parser.SyntaxNode;
  kind: ChunkKind;
  symbol: string;
}

function nameOf(node: Parser.SyntaxNode): string {
  return node.childForFieldName("name")?.text ?? "";
}

/** What a top-level statement defines, looking through `export` and `export default`. */
function definitionOf(statement: Parser.SyntaxNode): Definition | undefined {
  let node = statement;
  if (node.type === "export_statement") {
    const inner = node.childForFieldName("declaration") ?? node.childForFieldName("value");
    if (!inner) return undefined;
    node = inner;
  }
  if (node.type === "function_declaration" || node.type === "generator_function_declaration" || node.type === "function_signature") {
    return { node: statement, kind: "function", symbol: nameOf(node) };
  }
  if (CLASS_NODES.has(node.type)) return { node: statement, kind: "class", symbol: nameOf(node) };
  if (TYPE_NODES.has(node.type)) return { node: statement, kind: "type", symbol: nameOf(node) };
  if (node.type === "lexical_declaration" || node.type === "variable_declaration") {
    const declarator = node.namedChildren.find((c) => c.type === "variable_declarator");
    if (!declarator) return undefined;
    const value = declarator.childForFieldName("value");
    const kind: ChunkKind = value && FUNCTION_VALUES.has(value.type) ? "function" : "variable";
    return { node: statement, kind, symbol: nameOf(declarator) };
  }
  return undefined;
}

/** The class body of a class statement (through export), when it has one. */
function classBody(statement: Parser.SyntaxNode): Parser.SyntaxNode | undefined {
  const inner = statement.type === "export_statement" ? (statement.childForFieldName("declaration") ?? statement.childForFieldName("value")) : statement;
  return inner?.childForFieldName("body") ?? undefined;
}

/** The first line (0-based) of the comments directly above `node` (no blank line between), or its own first line. */
function docStart(node: Parser.SyntaxNode): number {
  let start = node.startPosition.row;
  for (let prev = node.previousSibling; prev?.type === "comment" && prev.endPosition.row >= start - 1; prev = prev.previousSibling) {
    start = prev.startPosition.row;
  }
  return start;
}

class ChunkList {
  readonly chunks: Chunk[] = [];
  constructor(
    private readonly path: string,
    private readonly lines: readonly string[],
  ) {}

  /** Rows are 0-based and inclusive; a span longer than MAX_DEFINITION_LINES becomes windows under the symbol. */
  add(startRow: number, endRow: number, symbol: string, kind: ChunkKind): void {
    const slice = this.lines.slice(startRow, endRow + 1);
    if (slice.join("").trim() === "") return;
    if (slice.length > MAX_DEFINITION_LINES) {
      this.chunks.push(...windowChunks(this.path, slice, startRow + 1, symbol, kind));
      return;
    }
    this.chunks.push({ path: this.path, startLine: startRow + 1, endLine: endRow + 1, symbol, kind, text: slice.join("\n") });
  }
}

function addClass(list: ChunkList, def: Definition, start: number): void {
  const body = classBody(def.node);
  const members = body?.namedChildren.filter((m) => METHOD_NODES.has(m.type)) ?? [];
  const end = def.node.endPosition.row;
  if (!body || members.length === 0 || end - start + 1 <= MAX_MODULE_LINES) {
    list.add(start, end, def.symbol, "class");
    if (end - start + 1 <= MAX_MODULE_LINES) return;
  } else {
    // The class chunk is its doc and header (up to the first member); each member is a chunk of its own.
    const firstMember = members[0];
    const headerEnd = firstMember ? Math.max(start, docStart(firstMember) - 1) : end;
    list.add(start, headerEnd, def.symbol, "class");
  }
  for (const member of members) {
    list.add(docStart(member), member.endPosition.row, `${def.symbol}.${nameOf(member)}`, "method");
  }
}

/** An import, or an export of names defined elsewhere (`export default debounce;`, `export { a } from "./a"`). */
function isWiring(statement: Parser.SyntaxNode): boolean {
  if (statement.type === "import_statement") return true;
  if (statement.type !== "export_statement") return false;
  const value = statement.childForFieldName("value");
  return !statement.childForFieldName("declaration") && (!value || value.type === "identifier");
}

/** Syntax chunks of a JS/TS source, or undefined when there is no grammar for the file. */
export function syntaxChunks(path: string, source: string, lines: readonly string[]): Chunk[] | undefined {
  const grammar = grammarFor(path);
  if (!grammar) return undefined;
  // The binding reads the source in pieces; a buffer as large as the source avoids re-reading it for big files.
  const tree = parserFor(grammar).parse(source, undefined, { bufferSize: Math.max(32 * 1024, source.length * 2 + 1) });
  const list = new ChunkList(path, lines);
  let pending: { start: number; end: number; wiring: boolean } | undefined;
  // Imports and re-exports alone say nothing a question asks about; they only become a chunk in a file without any
  // definition (an index file), where they are all there is.
  const flush = (): void => {
    if (pending && !pending.wiring) list.add(pending.start, pending.end, "", "module");
    pending = undefined;
  };
  for (const statement of tree.rootNode.namedChildren) {
    if (statement.type === "comment") continue; // attached to the next definition, or to the module chunk around it
    const found = definitionOf(statement);
    const start = docStart(statement);
    // A one- or two-line constant without a doc comment is too small to rank alone: it joins the module chunk.
    const def = found?.kind === "variable" && start === statement.startPosition.row && statement.endPosition.row - start < 2 ? undefined : found;
    if (!def) {
      const end = statement.endPosition.row;
      if (pending && end - pending.start + 1 > MAX_MODULE_LINES) flush();
      const wiring = isWiring(statement) && (pending?.wiring ?? true);
      pending = pending ? { start: pending.start, end, wiring } : { start, end, wiring };
      continue;
    }
    flush();
    if (def.kind === "class") addClass(list, def, start);
    else list.add(start, def.node.endPosition.row, def.symbol, def.kind);
  }
  flush();
  if (list.chunks.length === 0) return windowChunks(path, lines, 1, "", "module");
  return list.chunks;
}
