import fs from "node:fs";
import path from "node:path";
import { uniqueToken } from "../../platform/unique-token.js";
import { processAlive } from "./state-file.js";

/**
 * Who is using a local Chroma server: one lease file per endpoint handed out (`<pid>-<random>`). The last
 * holder to let go stops the server, so two overlapping sessions never pull it out from under each other.
 * Leases of dead processes (crash, SIGKILL) are ignored and cleared.
 */
export function leasesDir(dataDir: string): string {
  return path.join(dataDir, "chroma-users");
}

export function takeLease(dataDir: string): string {
  const dir = leasesDir(dataDir);
  fs.mkdirSync(dir, { recursive: true });
  const name = `${process.pid}-${uniqueToken()}`;
  fs.writeFileSync(path.join(dir, name), "");
  return name;
}

export function dropLease(dataDir: string, lease: string): void {
  fs.rmSync(path.join(leasesDir(dataDir), lease), { force: true });
}

/** Leases whose process is still alive; stale ones are removed on the way. */
export function liveLeases(dataDir: string): string[] {
  let names: string[];
  try {
    names = fs.readdirSync(leasesDir(dataDir));
  } catch {
    return [];
  }
  return names.filter((name) => {
    const pid = Number(name.split("-")[0]);
    if (Number.isInteger(pid) && pid > 0 && processAlive(pid)) return true;
    fs.rmSync(path.join(leasesDir(dataDir), name), { force: true });
    return false;
  });
}
