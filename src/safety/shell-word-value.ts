import { fieldChild, namedChildren, type SyntaxNode } from "./bash-syntax.js";

/**
 * What bash makes of one word of the syntax tree before running it: quotes and backslashes resolved, ANSI-C strings
 * decoded. Expansions (`$X`, `${X:-y}`, `$( … )`, backticks, `$(( … ))`) cannot be known here: they stay in the
 * value exactly as written, so the rules can treat them conservatively (an unknown `$DIR` may be empty, …).
 */

const ANSI_ESCAPES: Record<string, string> = { n: "\n", t: "\t", r: "\r", a: "\x07", b: "\b", e: "\x1b", E: "\x1b", f: "\f", v: "\v" };

export function decodeAnsiC(body: string): string {
  return body.replace(/\\(x[0-9A-Fa-f]{1,2}|u[0-9A-Fa-f]{1,4}|U[0-9A-Fa-f]{1,8}|[0-7]{1,3}|c.|.)/gs, (_m, esc: string) => {
    const head = esc.charAt(0);
    if (head === "x" || head === "u" || head === "U") return String.fromCodePoint(parseInt(esc.slice(1), 16));
    if (/[0-7]/.test(head)) return String.fromCharCode(parseInt(esc, 8));
    if (head === "c" && esc.length === 2) return String.fromCharCode(esc.charCodeAt(1) & 31);
    return ANSI_ESCAPES[esc] ?? esc;
  });
}

/** Outside quotes a backslash keeps the next character literally; before a newline it joins the lines. */
function unescapeBare(text: string): string {
  return text.replace(/\\(\n|.)/gs, (_m, c: string) => (c === "\n" ? "" : c));
}

/** Inside double quotes a backslash only escapes `$`, `` ` ``, `"`, `\` and a newline. */
function unescapeDouble(text: string): string {
  return text.replace(/\\([$`"\\\n])/g, (_m, c: string) => (c === "\n" ? "" : c));
}

function strip(text: string, open: string, close: string): string {
  const start = text.startsWith(open) ? open.length : 0;
  const end = text.length > start && text.endsWith(close) ? text.length - close.length : text.length;
  return text.slice(start, end);
}

/** `"…"` and `$"…"`: literal runs are unescaped, expansions inside stay as written. */
function doubleQuoted(node: SyntaxNode): string {
  const text = node.text;
  const base = node.start;
  let pos = text.startsWith('$"') ? 2 : 1;
  let out = "";
  for (const child of namedChildren(node)) {
    out += unescapeDouble(text.slice(pos, child.start - base));
    out += child.type === "string_content" ? unescapeDouble(child.text) : child.text;
    pos = child.end - base;
  }
  const end = text.length > pos && text.endsWith('"') ? text.length - 1 : text.length;
  return out + unescapeDouble(text.slice(pos, end));
}

export function wordValue(node: SyntaxNode): string {
  switch (node.type) {
    case "word":
      // The grammar can start a word with the newline before it (`x=1⏎\rm`); bash never does.
      return unescapeBare(node.text.replace(/^\s+/, ""));
    case "raw_string":
      return strip(node.text, "'", "'");
    case "ansi_c_string":
      return decodeAnsiC(strip(node.text, "$'", "'"));
    case "string":
    case "translated_string":
      return doubleQuoted(node);
    case "variable_assignment": {
      const value = fieldChild(node, "value");
      return value ? node.text.slice(0, value.start - node.start) + wordValue(value) : node.text;
    }
    case "concatenation": {
      // Parts sit side by side; anything between them that is not a node of its own is kept as written.
      let out = "";
      let pos = node.start;
      for (const child of node.children) {
        out += node.text.slice(pos - node.start, child.start - node.start) + wordValue(child);
        pos = child.end;
      }
      return out;
    }
    default:
      return node.text;
  }
}
