import type Parser from "tree-sitter";

/**
 * A grammar as tree-sitter's Node binding should load it here: without its node-type table. Given the table,
 * `setLanguage` compiles a JavaScript class with field getters for every named node type (about 15 ms for
 * TypeScript, 5 ms for bash, paid once per process and grammar); we read nodes through the generic API
 * (`type`, `childForFieldName`, cursors), which needs none of them. Parsing is unchanged.
 */
export function untypedLanguage(language: Parser.Language): Parser.Language {
  // A new object with the grammar itself only: the binding caches the classes it built on the object it was given.
  return { name: language.name, language: language.language, nodeTypeInfo: [] };
}
