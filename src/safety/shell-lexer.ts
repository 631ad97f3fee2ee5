import { decodeAnsiC, findClose, isEscaped, skipBacktick } from "./shell-scan.js";

/**
 * Splits a bash command line into words, operators and redirections, resolving quotes and escapes the way bash
 * would, and keeping the source of every `$( … )`, backtick and `<( … )` so it can be parsed in turn. It is a
 * best-effort reader for a safety check, not a bash implementation: it never throws, and on unbalanced quotes or
 * brackets it takes the rest of the line and reports `complete: false`.
 */

export type SubstitutionKind = "command" | "process-in" | "process-out";

export interface Substitution {
  kind: SubstitutionKind;
  source: string;
}

export interface LexWord {
  /** The word with quotes and escapes resolved; `$VAR`, `$( … )` and globs are kept as written. */
  text: string;
  /** The word exactly as written. */
  raw: string;
  start: number;
  end: number;
  subs: Substitution[];
}

export interface LexRedirect {
  kind: "redirect";
  /** The operator without its file descriptor: `>`, `>>`, `<`, `<<`, `<<<`, `&>`, `>&`, … */
  op: string;
  target?: LexWord;
  /** Here-document body, or the here-string text for `<<<`. */
  heredoc?: string;
  start: number;
  end: number;
}

export type LexToken =
  | { kind: "word"; word: LexWord }
  | { kind: "op"; op: string; start: number; end: number }
  | LexRedirect;

export interface LexResult {
  tokens: LexToken[];
  complete: boolean;
}

const META = new Set([" ", "\t", "\r", "\n", ";", "&", "|", "(", ")", "<", ">"]);
const OPERATORS = ["&&", "||", ";;&", ";;", ";&", "|&", ";", "|", "&", "(", ")"];
const REDIRECT = /(?:\d+|\{[A-Za-z_][A-Za-z0-9_]*\})?(<<<|<<-|<<|<>|<&|>>|>\||>&|<|>)|(&>>|&>)/y;

class Lexer {
  private pos = 0;
  private complete = true;
  private readonly tokens: LexToken[] = [];
  private readonly pending: Array<{ token: LexRedirect; delimiter: string; stripTabs: boolean }> = [];

  constructor(private readonly src: string) {}

  run(): LexResult {
    const s = this.src;
    while (this.pos < s.length) {
      const c = s.charAt(this.pos);
      const next = s.charAt(this.pos + 1);
      if (c === " " || c === "\t" || c === "\r") this.pos++;
      else if (c === "\\" && next === "\n") this.pos += 2;
      else if (c === "\n") {
        this.tokens.push({ kind: "op", op: "\n", start: this.pos, end: ++this.pos });
        this.readHeredocs();
      } else if (c === "#") {
        const eol = s.indexOf("\n", this.pos);
        this.pos = eol < 0 ? s.length : eol;
      } else if ((c === "<" || c === ">") && next === "(") this.pushWord();
      else if (!this.redirect()) {
        const op = OPERATORS.find((o) => s.startsWith(o, this.pos));
        if (op) {
          this.tokens.push({ kind: "op", op, start: this.pos, end: this.pos + op.length });
          this.pos += op.length;
        } else this.pushWord();
      }
    }
    this.readHeredocs();
    return { tokens: this.tokens, complete: this.complete };
  }

  private pushWord(): void {
    const before = this.pos;
    const word = this.readWord();
    if (this.pos === before) {
      // Cannot happen with the operator table above; guards against an endless loop on odd input.
      this.pos++;
      this.complete = false;
      return;
    }
    this.tokens.push({ kind: "word", word });
  }

  private redirect(): boolean {
    REDIRECT.lastIndex = this.pos;
    const m = REDIRECT.exec(this.src);
    if (!m) return false;
    const op = m[1] ?? m[2] ?? "";
    const token: LexRedirect = { kind: "redirect", op, start: this.pos, end: 0 };
    this.pos += m[0].length;
    while (this.src.charAt(this.pos) === " " || this.src.charAt(this.pos) === "\t") this.pos++;
    const c = this.src.charAt(this.pos);
    if (c !== "" && (!META.has(c) || ((c === "<" || c === ">") && this.src.charAt(this.pos + 1) === "("))) {
      token.target = this.readWord();
    }
    token.end = this.pos;
    if (op === "<<<") token.heredoc = token.target?.text ?? "";
    if ((op === "<<" || op === "<<-") && token.target) {
      this.pending.push({ token, delimiter: token.target.text, stripTabs: op === "<<-" });
    }
    this.tokens.push(token);
    return true;
  }

  private readHeredocs(): void {
    const s = this.src;
    for (const doc of this.pending.splice(0)) {
      const body: string[] = [];
      while (this.pos < s.length) {
        const eol = s.indexOf("\n", this.pos);
        const line = s.slice(this.pos, eol < 0 ? s.length : eol);
        this.pos = eol < 0 ? s.length : eol + 1;
        if ((doc.stripTabs ? line.replace(/^\t+/, "") : line) === doc.delimiter) break;
        body.push(line);
      }
      doc.token.heredoc = body.join("\n");
    }
  }

  private readWord(): LexWord {
    const s = this.src;
    const start = this.pos;
    const subs: Substitution[] = [];
    let text = "";
    while (this.pos < s.length) {
      const c = s.charAt(this.pos);
      const next = s.charAt(this.pos + 1);
      if ((c === "<" || c === ">") && next === "(") {
        text += this.bracketed(2, c === "<" ? "process-in" : "process-out", subs);
      } else if (META.has(c)) break;
      else if (c === "\\") {
        if (next !== "\n") text += next;
        this.pos += 2;
      } else if (c === "'") text += this.singleQuoted(this.pos + 1, false);
      else if (c === "$" && next === "'") text += this.singleQuoted(this.pos + 2, true);
      else if (c === '"' || (c === "$" && next === '"')) text += this.doubleQuoted(subs);
      else if (c === "$") text += this.dollar(subs);
      else if (c === "`") text += this.backtick(subs);
      else {
        text += c;
        this.pos++;
      }
    }
    return { text, raw: s.slice(start, this.pos), start, end: this.pos, subs };
  }

  /** `'…'`, or `$'…'` (ANSI-C: backslash escapes apply, so `\'` does not end it). */
  private singleQuoted(from: number, ansi: boolean): string {
    let end = this.src.indexOf("'", from);
    while (ansi && end > 0 && isEscaped(this.src, end, from)) end = this.src.indexOf("'", end + 1);
    if (end < 0) {
      this.complete = false;
      end = this.src.length;
    }
    const body = this.src.slice(from, end);
    this.pos = end + 1;
    return ansi ? decodeAnsiC(body) : body;
  }

  private doubleQuoted(subs: Substitution[]): string {
    const s = this.src;
    this.pos += s.charAt(this.pos) === "$" ? 2 : 1;
    let text = "";
    while (this.pos < s.length) {
      const c = s.charAt(this.pos);
      const next = s.charAt(this.pos + 1);
      if (c === '"') {
        this.pos++;
        return text;
      }
      if (c === "\\") {
        if (next === "\n") text += "";
        else if ("$`\"\\".includes(next) && next !== "") text += next;
        else text += c + next;
        this.pos += 2;
      } else if (c === "$") text += this.dollar(subs);
      else if (c === "`") text += this.backtick(subs);
      else {
        text += c;
        this.pos++;
      }
    }
    this.complete = false;
    return text;
  }

  /** `$(( … ))`, `$( … )`, `${ … }` or a plain `$`; returns the raw text, which stays in the word. */
  private dollar(subs: Substitution[]): string {
    const s = this.src;
    const next = s.charAt(this.pos + 1);
    if (next === "(" && s.charAt(this.pos + 2) === "(") return this.bracketed(2, undefined, subs);
    if (next === "(") return this.bracketed(2, "command", subs);
    if (next === "{") {
      const raw = this.bracketed(2, undefined, subs, "{", "}");
      // `${x:-$(cmd)}` still runs cmd: collect substitutions from the parameter text.
      for (const token of lexShell(raw.slice(2, -1)).tokens) if (token.kind === "word") subs.push(...token.word.subs);
      return raw;
    }
    this.pos++;
    return "$";
  }

  private bracketed(openLength: number, kind: SubstitutionKind | undefined, subs: Substitution[], open = "(", close = ")"): string {
    const start = this.pos;
    let end = findClose(this.src, start + openLength, open, close);
    if (end < 0) {
      this.complete = false;
      end = this.src.length;
    }
    this.pos = Math.min(end + 1, this.src.length);
    if (kind) subs.push({ kind, source: this.src.slice(start + openLength, end) });
    return this.src.slice(start, this.pos);
  }

  private backtick(subs: Substitution[]): string {
    const start = this.pos;
    let end = skipBacktick(this.src, start + 1);
    if (end < 0) {
      this.complete = false;
      end = this.src.length;
    }
    this.pos = Math.min(end + 1, this.src.length);
    subs.push({ kind: "command", source: this.src.slice(start + 1, end).replace(/\\([`$\\])/g, "$1") });
    return this.src.slice(start, this.pos);
  }
}

export function lexShell(src: string): LexResult {
  return new Lexer(src).run();
}
