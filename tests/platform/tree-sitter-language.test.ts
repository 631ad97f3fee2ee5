import { createRequire } from "node:module";
import Parser from "tree-sitter";
import bash from "tree-sitter-bash";
import { describe, expect, it } from "vitest";
import { grammarBinding, untypedLanguage } from "../../src/platform/tree-sitter-language.js";

const require = createRequire(import.meta.url);
const typescript = (require("tree-sitter-typescript") as { typescript: Parser.Language }).typescript;

function parserOf(language: Parser.Language): Parser {
  const parser = new Parser();
  parser.setLanguage(language);
  return parser;
}

const TS_SOURCE = "/** Adds one. */\nexport function inc(a: number): number { return a + 1; }\nclass Box<T> { get(): T | undefined { return undefined; } }\n";
const BASH_SOURCE = "cd src && grep -rn 'x' . | head -3 > out.txt; echo \"$HOME\"";

describe("untypedLanguage", () => {
  it("parses TypeScript and bash into the same trees as the typed grammars", () => {
    expect(parserOf(untypedLanguage(typescript)).parse(TS_SOURCE).rootNode.toString()).toBe(parserOf(typescript).parse(TS_SOURCE).rootNode.toString());
    const typedBash = parserOf(bash as Parser.Language)
      .parse(BASH_SOURCE)
      .rootNode.toString();
    expect(
      parserOf(untypedLanguage(bash as Parser.Language))
        .parse(BASH_SOURCE)
        .rootNode.toString(),
    ).toBe(typedBash);
    expect(typedBash).toContain("pipeline");
  });

  it("gives generic nodes (no per-type classes were built), with fields still readable", () => {
    const fn = parserOf(untypedLanguage(typescript)).parse(TS_SOURCE).rootNode.namedChildren[1]?.childForFieldName("declaration");
    expect(fn?.type).toBe("function_declaration");
    expect(fn?.childForFieldName("name")?.text).toBe("inc");
    expect(fn?.constructor.name).toBe("SyntaxNode");
    expect(fn !== null && fn !== undefined && "nameNode" in fn).toBe(false);
    // The typed grammar's node has its own class with a getter per field.
    const typed = parserOf(typescript).parse(TS_SOURCE).rootNode.namedChildren[1]?.childForFieldName("declaration");
    expect(typed?.constructor.name).toBe("FunctionDeclarationNode");
    expect((typed as unknown as { nameNode?: Parser.SyntaxNode }).nameNode?.text).toBe("inc");
  });

  it("leaves the grammar it was given untouched", () => {
    const before = typescript.nodeTypeInfo.length;
    untypedLanguage(typescript);
    expect(typescript.nodeTypeInfo.length).toBe(before);
    expect(before).toBeGreaterThan(100);
  });

  it("opens a grammar package's binding, which parses as the package's own entry does", () => {
    const direct = grammarBinding("tree-sitter-typescript") as { typescript: Parser.Language; tsx: Parser.Language };
    expect(parserOf(untypedLanguage(direct.typescript)).parse(TS_SOURCE).rootNode.toString()).toBe(parserOf(typescript).parse(TS_SOURCE).rootNode.toString());
    const tsx = parserOf(untypedLanguage(direct.tsx)).parse("const a = <div className={x}>hi</div>;\n").rootNode.toString();
    expect(tsx).toContain("jsx_element");
    const shell = grammarBinding("tree-sitter-bash") as Parser.Language;
    expect(parserOf(untypedLanguage(shell)).parse(BASH_SOURCE).rootNode.toString()).toBe(
      parserOf(bash as Parser.Language)
        .parse(BASH_SOURCE)
        .rootNode.toString(),
    );
    expect(() => grammarBinding("tree-sitter-no-such-grammar")).toThrow();
  });
});
