import { stripVTControlCharacters } from "node:util";
import wrapAnsi from "wrap-ansi";

/** Text from a model or a command, made safe for one terminal line: no escape sequences, no control characters. */
export function sanitize(text: string): string {
  return stripVTControlCharacters(text).replace(/[\u0000-\u0008\u000b-\u001f\u007f]/g, " ");
}

/** At most `max` characters on one line, with "…" when cut. */
export function oneLine(text: string, max: number): string {
  const flat = sanitize(text)
    .replace(/\s*\n\s*/g, " ")
    .trim();
  return flat.length > max ? `${flat.slice(0, Math.max(1, max - 1))}…` : flat;
}

/**
 * Model text wrapped to the terminal width: the first line after `first`, every other line indented by `rest`, so a
 * long reply never runs into the left margin or breaks the layout.
 */
export function wrapIndented(text: string, width: number, first: string, rest: string = " ".repeat(first.length)): string[] {
  const room = Math.max(20, width - rest.length);
  const out: string[] = [];
  for (const paragraph of sanitize(text).split("\n")) {
    const wrapped = wrapAnsi(paragraph, room, { hard: true, trim: true }).split("\n");
    for (const line of wrapped) out.push(`${out.length === 0 ? first : rest}${line}`);
  }
  return out;
}

/** 0:42, 12:05, 1:02:03. */
export function formatElapsed(ms: number): string {
  const total = Math.max(0, Math.floor(ms / 1000));
  const h = Math.floor(total / 3600);
  const m = Math.floor((total % 3600) / 60);
  const s = String(total % 60).padStart(2, "0");
  return h > 0 ? `${h}:${String(m).padStart(2, "0")}:${s}` : `${m}:${s}`;
}

export function formatSize(chars: number): string {
  if (chars >= 1_000_000) return `${(chars / 1_000_000).toFixed(1)} MB`;
  return `${Math.max(1, Math.round(chars / 1_000))} kB`;
}
