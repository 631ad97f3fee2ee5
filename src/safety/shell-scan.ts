/** Low-level scanning shared by the shell lexer and path resolution: matching brackets, quotes, escapes. */

const ANSI_ESCAPES: Record<string, string> = { n: "\n", t: "\t", r: "\r", a: "\x07", b: "\b", e: "\x1b", E: "\x1b", f: "\f", v: "\v" };

/** Index of the bracket closing the one opened just before `from`, honouring quotes and nesting; -1 if none. */
export function findClose(src: string, from: number, open: string, close: string): number {
  let depth = 1;
  for (let i = from; i < src.length; i++) {
    const c = src.charAt(i);
    if (c === "\\") {
      i++;
    } else if (c === "'") {
      i = src.indexOf("'", i + 1);
      if (i < 0) return -1;
    } else if (c === '"') {
      i = skipDoubleQuoted(src, i + 1);
      if (i < 0) return -1;
    } else if (c === "`") {
      i = skipBacktick(src, i + 1);
      if (i < 0) return -1;
    } else if (c === open) {
      depth++;
    } else if (c === close && --depth === 0) {
      return i;
    }
  }
  return -1;
}

function skipDoubleQuoted(src: string, from: number): number {
  for (let i = from; i < src.length; i++) {
    const c = src.charAt(i);
    if (c === "\\") i++;
    else if (c === '"') return i;
    else if (c === "`") {
      i = skipBacktick(src, i + 1);
      if (i < 0) return -1;
    } else if (c === "$" && src.charAt(i + 1) === "(") {
      i = findClose(src, i + 2, "(", ")");
      if (i < 0) return -1;
    }
  }
  return -1;
}

export function skipBacktick(src: string, from: number): number {
  for (let i = from; i < src.length; i++) {
    const c = src.charAt(i);
    if (c === "\\") i++;
    else if (c === "`") return i;
  }
  return -1;
}

export function decodeAnsiC(body: string): string {
  return body.replace(/\\(x[0-9A-Fa-f]{1,2}|u[0-9A-Fa-f]{1,4}|U[0-9A-Fa-f]{1,8}|[0-7]{1,3}|c.|.)/gs, (_m, esc: string) => {
    const head = esc.charAt(0);
    if (head === "x" || head === "u" || head === "U") return String.fromCodePoint(parseInt(esc.slice(1), 16));
    if (/[0-7]/.test(head)) return String.fromCharCode(parseInt(esc, 8));
    if (head === "c" && esc.length === 2) return String.fromCharCode(esc.charCodeAt(1) & 31);
    return ANSI_ESCAPES[esc] ?? esc;
  });
}

/** Whether the quote at `index` is backslash-escaped (only meaningful inside `$'…'`). */
export function isEscaped(src: string, index: number, from: number): boolean {
  let slashes = 0;
  for (let i = index - 1; i >= from && src.charAt(i) === "\\"; i--) slashes++;
  return slashes % 2 === 1;
}
