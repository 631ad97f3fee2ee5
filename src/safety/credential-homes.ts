import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { CONVENTIONAL_HOMES, CREDENTIAL_ENTRIES, type CredentialEntry } from "./credential-catalogue.js";
import { hasGlob } from "../platform/glob.js";
import { realPath } from "../platform/real-path.js";

/**
 * The credential catalogue resolved for one home folder: which folders count as homes and where existing
 * credential locations really lie. Reading /etc/passwd and resolving a few hundred paths takes milliseconds, so
 * it is done once per home folder and process (a session), not per file-tool call or search match.
 */
export interface CredentialCatalogue {
  home: string;
  /** Home folders as path segments; conventional ones hold globs (`home/*`). */
  homeRoots: readonly (readonly string[])[];
  /** Existing home folders as real paths, for the sandbox (which can only hide what exists). */
  existingHomes: readonly string[];
  /**
   * Real paths of existing home and system locations that differ from the path as written (`~/.aws` linked to
   * another disk), so a path reached through the link's target still matches.
   */
  aliases: readonly { path: string; segments: readonly string[]; entry: CredentialEntry }[];
}

/** Accounts "homed" in a system folder (daemon, bin, sync in /usr/sbin, /bin, /dev) have no home of their own. */
const NOT_HOMES = /^\/(?:(?:usr\/)?s?bin|dev|proc|sys)?\/?$/;

/** Home folders from the password database: run as root, commands could otherwise read every user's keys. */
function passwdHomes(passwdFile: string): string[] {
  let text = "";
  try {
    text = fs.readFileSync(passwdFile, "utf8");
  } catch {
    return [];
  }
  return text
    .split("\n")
    .map((line) => line.split(":")[5] ?? "")
    .filter((home) => path.isAbsolute(home) && !NOT_HOMES.test(home));
}

function conventionalHomes(): string[] {
  const found: string[] = [];
  for (const pattern of CONVENTIONAL_HOMES) {
    if (!pattern.endsWith("/*")) {
      found.push(pattern);
      continue;
    }
    const parent = pattern.slice(0, -2);
    try {
      for (const e of fs.readdirSync(parent, { withFileTypes: true })) if (e.isDirectory()) found.push(path.join(parent, e.name));
    } catch {
      // No such parent folder here.
    }
  }
  return found;
}

export interface CatalogueOptions {
  home: string;
  /** Default /etc/passwd. */
  passwdFile?: string;
}

/** Builds a fresh catalogue (tests use this for a given home; everything else the memoized one). */
export function buildCredentialCatalogue(options: CatalogueOptions): CredentialCatalogue {
  const home = path.resolve(options.home);
  const written = new Set<string>([home]);
  try {
    // Running with another HOME must not expose the account's own home.
    written.add(path.resolve(os.userInfo().homedir));
  } catch {
    // No password database entry for this uid.
  }
  for (const other of passwdHomes(options.passwdFile ?? "/etc/passwd")) written.add(path.resolve(other));
  const existing = new Set<string>();
  const roots = new Set<string>(CONVENTIONAL_HOMES);
  for (const h of [...written, ...conventionalHomes()]) {
    roots.add(h);
    const real = realPath(h);
    if (real === undefined) continue;
    roots.add(real);
    if (real !== "/") existing.add(real);
  }
  const aliases: { path: string; segments: string[]; entry: CredentialEntry }[] = [];
  const addAlias = (written: string, e: CredentialEntry) => {
    const real = realPath(written);
    if (real !== undefined && real !== written) aliases.push({ path: real, segments: real.split("/").filter((s) => s !== ""), entry: e });
  };
  for (const e of CREDENTIAL_ENTRIES) {
    if (e.segments.some(hasGlob)) continue;
    if (e.scope === "system") addAlias(`/${e.segments.join("/")}`, e);
    else for (const h of existing) addAlias(path.join(h, ...e.segments), e);
  }
  return {
    home,
    homeRoots: [...roots].filter((r) => r !== "/").map((r) => r.split("/").filter((s) => s !== "")),
    existingHomes: [...existing],
    aliases,
  };
}

const memo = new Map<string, CredentialCatalogue>();

/** The catalogue for `home` (default: $HOME), built on first use and kept for the process. */
export function credentialCatalogue(home: string = os.homedir()): CredentialCatalogue {
  let catalogue = memo.get(home);
  if (!catalogue) {
    // Tests switch HOME per test; keep the memo small without ever rebuilding within a session.
    if (memo.size > 64) memo.clear();
    catalogue = buildCredentialCatalogue({ home });
    memo.set(home, catalogue);
  }
  return catalogue;
}
