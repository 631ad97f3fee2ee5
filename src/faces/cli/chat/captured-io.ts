import { Readable } from "node:stream";
import type { CliIo } from "../io.js";
import { reportFailure } from "../top-level.js";

/** What a CLI command run inside the conversation printed, and how it ended. */
export interface Captured {
  code: number;
  text: string;
}

/**
 * Runs one of the CLI's own commands (`diff`, `undo`, `sessions`, `memory`, ...) in this process for a slash command,
 * with what it prints collected instead of written: the conversation shows it above the prompt. It reads no stdin
 * (an empty stream) and sees no terminal, so it asks nothing and draws no live view. Errors are its usual one line.
 */
export async function runCaptured(
  command: (argv: string[], io: CliIo) => Promise<number>,
  name: string,
  argv: string[],
  o: { env: NodeJS.ProcessEnv; cwd: string },
): Promise<Captured> {
  let text = "";
  const sink = { write: (chunk: string) => void (text += chunk), isTTY: false };
  const io: CliIo = { stdin: Readable.from([]), stdout: sink, stderr: sink, env: o.env, cwd: o.cwd };
  let code: number;
  try {
    code = await command(argv, io);
  } catch (error) {
    code = reportFailure(error, name, io);
  }
  return { code, text: text.replace(/\n$/, "") };
}
