import { randomBytes } from "node:crypto";
import type { Clock } from "../platform/clock.js";

/** Sortable and readable: 20261130-041500-a1b2. */
export function newSessionId(clock: Clock): string {
  const iso = new Date(clock.now()).toISOString();
  const stamp = `${iso.slice(0, 10).replaceAll("-", "")}-${iso.slice(11, 19).replaceAll(":", "")}`;
  return `${stamp}-${randomBytes(2).toString("hex")}`;
}
