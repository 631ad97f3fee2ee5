import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { HOME_CREDENTIAL_LOCATIONS } from "./credential-paths.js";

/**
 * Well-known places that hold login secrets (keys, tokens, cloud and cluster credentials). The file tools refuse
 * them and the command sandbox hides them. Kept to known locations on purpose: workspace files such as `.env`
 * belong to the project and stay readable.
 */

/** Folders and files under a home folder, relative to it (one list with the command rules). */
export const HOME_CREDENTIAL_DIRS: readonly string[] = HOME_CREDENTIAL_LOCATIONS.filter((l) => !l.file).map((l) => l.relative);
export const HOME_CREDENTIAL_FILES: readonly string[] = HOME_CREDENTIAL_LOCATIONS.filter((l) => l.file).map((l) => l.relative);

export const SYSTEM_CREDENTIAL_FILES: readonly string[] = ["/etc/shadow", "/etc/shadow-", "/etc/gshadow", "/etc/gshadow-"];
export const SYSTEM_CREDENTIAL_DIRS: readonly string[] = ["/etc/ssl/private"];
/** The machine's own SSH host keys. */
const SSH_HOST_KEY = /^\/etc\/ssh\/ssh_host_[^/]*_key$/;

export const ALLOW_CREDENTIAL_FILES_VAR = "MINI_CURSOR_ALLOW_CREDENTIAL_FILES";

export function credentialFilesAllowed(env: NodeJS.ProcessEnv = process.env): boolean {
  return env[ALLOW_CREDENTIAL_FILES_VAR] === "1";
}

function realPath(p: string): string | undefined {
  try {
    return fs.realpathSync.native(p);
  } catch {
    return undefined;
  }
}

/** Home folders from the password database: run as root, commands could otherwise read every user's keys. */
function passwdHomes(): string[] {
  let text = "";
  try {
    text = fs.readFileSync("/etc/passwd", "utf8");
  } catch {
    return [];
  }
  return text
    .split("\n")
    .map((line) => line.split(":")[5] ?? "")
    .filter((home) => path.isAbsolute(home) && home !== "/");
}

/**
 * `home`, the account's own home (running with another HOME must not expose it) and every other account's home
 * that exists.
 */
export function credentialHomes(home: string = os.homedir()): string[] {
  const homes = new Set([path.resolve(home)]);
  try {
    homes.add(path.resolve(os.userInfo().homedir));
  } catch {
    // No password database entry for this uid.
  }
  for (const other of passwdHomes()) {
    if (fs.existsSync(other)) homes.add(path.resolve(other));
  }
  return [...homes];
}

/** Every candidate location, as written and (when it exists) as its real path, so symlinked homes match too. */
function candidates(home: string): { dirs: string[]; files: string[] } {
  const dirs = new Set<string>();
  const files = new Set<string>();
  const add = (into: Set<string>, p: string) => {
    into.add(p);
    const real = realPath(p);
    if (real) into.add(real);
  };
  for (const h of credentialHomes(home)) {
    for (const rel of HOME_CREDENTIAL_DIRS) add(dirs, path.join(h, rel));
    for (const rel of HOME_CREDENTIAL_FILES) add(files, path.join(h, rel));
  }
  SYSTEM_CREDENTIAL_DIRS.forEach((p) => add(dirs, p));
  SYSTEM_CREDENTIAL_FILES.forEach((p) => add(files, p));
  return { dirs: [...dirs], files: [...files] };
}

function isAtOrBelow(parent: string, abs: string): boolean {
  const rel = path.relative(parent, abs);
  return rel === "" || (rel !== ".." && !rel.startsWith(`..${path.sep}`) && !path.isAbsolute(rel));
}

/**
 * A check for many paths at once: returns the credential location a resolved absolute path is (or lies in), or
 * undefined. Candidates are computed once, so use one matcher per tool call rather than one per path.
 */
export function credentialMatcher(home: string = os.homedir()): (absRealPath: string) => string | undefined {
  const { dirs, files } = candidates(home);
  // A "file" location may be a folder on some systems (e.g. ~/.cargo/credentials), and then everything below it counts too.
  const locations = [...dirs, ...files];
  return (absRealPath) => locations.find((location) => isAtOrBelow(location, absRealPath)) ?? (SSH_HOST_KEY.test(absRealPath) ? absRealPath : undefined);
}

/** The credential location `absRealPath` is (or lies in), or undefined. `absRealPath` must be absolute and resolved. */
export function credentialLocationOf(absRealPath: string, home: string = os.homedir()): string | undefined {
  return credentialMatcher(home)(absRealPath);
}

export function isCredentialPath(absRealPath: string, home: string = os.homedir()): boolean {
  return credentialLocationOf(absRealPath, home) !== undefined;
}

/** ripgrep `--glob` exclusions for the existing credential locations inside `root` (a real path). */
export function credentialSearchExclusions(root: string, home: string = os.homedir()): string[] {
  const { dirs, files } = existingCredentialLocations(home);
  return [...dirs, ...files]
    .filter((location) => location !== root && isAtOrBelow(root, location))
    .map((location) => `!/${path.relative(root, location).split(path.sep).join("/")}`);
}

/** Existing credential locations (real paths), split by kind, for the sandbox to hide. */
export function existingCredentialLocations(home: string = os.homedir()): { dirs: string[]; files: string[] } {
  const { dirs, files } = candidates(home);
  const out = { dirs: new Set<string>(), files: new Set<string>() };
  for (const p of [...dirs, ...files]) {
    const real = realPath(p);
    if (!real) continue;
    const isDir = fs.statSync(real, { throwIfNoEntry: false })?.isDirectory() ?? false;
    (isDir ? out.dirs : out.files).add(real);
  }
  let sshEntries: string[] = [];
  try {
    sshEntries = fs.readdirSync("/etc/ssh");
  } catch {
    // No SSH server configuration here.
  }
  for (const name of sshEntries) {
    const p = `/etc/ssh/${name}`;
    if (SSH_HOST_KEY.test(p)) out.files.add(realPath(p) ?? p);
  }
  return { dirs: [...out.dirs], files: [...out.files] };
}

/** The tool error for a refused credential path (without the "Error: " prefix). */
export function credentialRefusal(inputPath: string, location: string): string {
  return `path "${inputPath}" holds credentials (${location}); set ${ALLOW_CREDENTIAL_FILES_VAR}=1 if you really want the agent to read it.`;
}
