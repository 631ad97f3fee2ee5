/**
 * Finds where an expansion written inside a word value ends (`$( … )`, `${ … }`, a backtick, a `{a,b}` group), for
 * path resolution: the parser has already split the line; these values keep expansions as written.
 */

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

function skipBacktick(src: string, from: number): number {
  for (let i = from; i < src.length; i++) {
    const c = src.charAt(i);
    if (c === "\\") i++;
    else if (c === "`") return i;
  }
  return -1;
}
