import { completeMention } from "./mentions.js";

/** The line after Tab, and the choices when there is more than one. */
export interface Completion {
  line: string;
  options: string[];
}

/** The longest start all the options share. */
function commonStart(options: readonly string[]): string {
  const [first = "", ...rest] = options;
  let end = first.length;
  for (const option of rest) {
    end = Math.min(end, option.length);
    while (end > 0 && option.slice(0, end) !== first.slice(0, end)) end -= 1;
  }
  return first.slice(0, end);
}

/**
 * Tab on the input line: a `/command` at the start is completed from the commands, an `@path` word from the
 * workspace's files (git-ignored ones left out). One match completes it; several complete what they share and are
 * listed.
 */
export async function completeInput(line: string, o: { workspace: string; commandNames: readonly string[] }): Promise<Completion> {
  if (/^\/\S*$/.test(line)) {
    const options = o.commandNames.filter((n) => n.startsWith(line.slice(1))).map((n) => `/${n}`);
    if (options.length === 1) return { line: `${options[0]} `, options };
    return { line: options.length > 0 ? commonStart(options) : line, options };
  }
  const word = /(^|\s)@([^\s@]*)$/.exec(line);
  if (!word) return { line, options: [] };
  const partial = word[2] ?? "";
  const options = await completeMention(o.workspace, partial).catch(() => []);
  const head = line.slice(0, line.length - partial.length);
  if (options.length === 1) {
    const only = options[0] ?? "";
    return { line: `${head}${only}${only.endsWith("/") ? "" : " "}`, options };
  }
  return { line: options.length > 0 ? `${head}${commonStart(options)}` : line, options: options.map((p) => `@${p}`) };
}
