import type { ExtensionProgress } from "./types.js";

/** An MCP tool's progress report as one line for every face: its message and how far it is (`step 3 of 6 (3/6)`). */
export function progressLine(event: ExtensionProgress): string {
  const amount = event.total !== undefined ? `${event.progress}/${event.total}` : `${event.progress}`;
  return event.message ? `${event.message} (${amount})` : `progress ${amount}`;
}
