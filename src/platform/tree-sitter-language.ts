import { createRequire } from "node:module";
import path from "node:path";
import type Parser from "tree-sitter";

const require = createRequire(import.meta.url);

/**
 * A grammar package's native binding, opened as the package's own entry opens it (node-gyp-build on the package's
 * folder, the convention of every tree-sitter grammar) but without the node-type tables the entry also reads
 * (`src/node-types.json`: 221 KB of JSON for TypeScript's two grammars, 7-10 ms of a process), which
 * untypedLanguage would drop anyway.
 */
export function grammarBinding(packageName: string): unknown {
  const root = path.dirname(require.resolve(`${packageName}/package.json`));
  return (require("node-gyp-build") as (dir: string) => unknown)(root);
}

/**
 * A grammar as tree-sitter's Node binding should take it here: without its node-type table. Given the table,
 * `setLanguage` compiles a JavaScript class with field getters for every named node type (about 15 ms for
 * TypeScript, 5 ms for bash, paid once per process and grammar); we read nodes through the generic API
 * (`type`, `childForFieldName`, cursors), which needs none of them. Parsing is unchanged.
 */
export function untypedLanguage(language: Parser.Language): Parser.Language {
  // A new object with the grammar itself only: the binding caches the classes it built on the object it was given.
  return { name: language.name, language: language.language, nodeTypeInfo: [] };
}

/**
 * tree-sitter's Parser class, loaded the first time something parses: a search that re-chunks nothing (most of
 * them, `mini-cursor index search` among them) does not load the native binding.
 */
export function parserClass(): typeof Parser {
  return require("tree-sitter") as typeof Parser;
}
