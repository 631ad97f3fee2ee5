import { Readable } from "node:stream";

/**
 * What a stream carries up to its first newline (bubblewrap's `--json-status-fd` writes one JSON line per event),
 * or all of it when it ends sooner; "" when there is no stream. Never rejects.
 */
export function firstLineOf(stream: unknown): Promise<string> {
  return new Promise((resolve) => {
    if (!(stream instanceof Readable)) return resolve("");
    let text = "";
    stream.setEncoding("utf8");
    stream.on("data", (chunk: string) => {
      text += chunk;
      if (text.includes("\n")) resolve(text);
    });
    stream.once("close", () => resolve(text));
    stream.once("error", () => resolve(text));
  });
}
