import { globToRegExp, hasGlob, type PathContext } from "./command-paths.js";

/**
 * Where credentials live: SSH and GPG keys, cloud and registry tokens, saved logins, system password hashes.
 * Paths may hold globs (`~/.ssh/*`), matched against these names segment by segment. The project's own files
 * (`.env`, a committed `.npmrc`) are not credentials here: the home-only names count only directly in a home.
 */

interface CredentialPattern {
  segments: string[];
  label: string;
  /** Also matched below any folder, not only in a home folder (the names are unambiguous). */
  anywhere: boolean;
  /** A single file: nothing lies below it. */
  file?: boolean;
}

const HOME_PATTERNS: CredentialPattern[] = [
  { segments: [".ssh"], label: "SSH keys", anywhere: true },
  { segments: [".aws"], label: "AWS credentials", anywhere: true },
  { segments: [".config", "gcloud"], label: "Google Cloud credentials", anywhere: true },
  { segments: [".azure"], label: "Azure credentials", anywhere: true },
  { segments: [".kube", "config"], label: "Kubernetes credentials", anywhere: true, file: true },
  { segments: [".docker", "config.json"], label: "Docker registry credentials", anywhere: true, file: true },
  { segments: [".gnupg"], label: "GPG keys", anywhere: true },
  { segments: [".git-credentials"], label: "git credentials", anywhere: true, file: true },
  { segments: [".config", "git", "credentials"], label: "git credentials", anywhere: true, file: true },
  { segments: [".config", "gh"], label: "GitHub CLI tokens", anywhere: true },
  { segments: [".config", "hub"], label: "GitHub tokens", anywhere: true, file: true },
  { segments: [".password-store"], label: "the password store", anywhere: true },
  { segments: [".npmrc"], label: "npm tokens", anywhere: false, file: true },
  { segments: [".pypirc"], label: "PyPI tokens", anywhere: false, file: true },
  { segments: [".netrc"], label: "saved logins", anywhere: false, file: true },
  { segments: ["_netrc"], label: "saved logins", anywhere: false, file: true },
  { segments: [".pgpass"], label: "database passwords", anywhere: false, file: true },
  { segments: [".my.cnf"], label: "database passwords", anywhere: false, file: true },
  { segments: [".vault-token"], label: "a Vault token", anywhere: false, file: true },
  { segments: [".cargo", "credentials"], label: "crates.io tokens", anywhere: false, file: true },
  { segments: [".cargo", "credentials.toml"], label: "crates.io tokens", anywhere: false, file: true },
  { segments: [".gem", "credentials"], label: "RubyGems tokens", anywhere: false, file: true },
  { segments: [".terraform.d", "credentials.tfrc.json"], label: "Terraform tokens", anywhere: false, file: true },
  { segments: [".local", "share", "keyrings"], label: "desktop keyrings", anywhere: false },
];

/**
 * The same home locations as plain relative paths, for the file tools and the command sandbox, so the three
 * places that protect credentials share one list.
 */
export const HOME_CREDENTIAL_LOCATIONS: readonly { relative: string; file: boolean; label: string }[] = HOME_PATTERNS.map((p) => ({
  relative: p.segments.join("/"),
  file: p.file === true,
  label: p.label,
}));

const SYSTEM_PATTERNS: Array<{ glob: string; label: string }> = [
  { glob: "/etc/shadow", label: "system password hashes" },
  { glob: "/etc/shadow-", label: "system password hashes" },
  { glob: "/etc/gshadow", label: "system password hashes" },
  { glob: "/etc/gshadow-", label: "system password hashes" },
  { glob: "/etc/master.passwd", label: "system password hashes" },
  { glob: "/etc/sudoers", label: "sudo rules" },
  { glob: "/etc/sudoers.d", label: "sudo rules" },
  { glob: "/etc/ssh/ssh_host_*_key", label: "the SSH host keys" },
  { glob: "/proc/*/environ", label: "another process's environment, which holds its secrets" },
  { glob: "/run/secrets", label: "mounted secrets" },
  { glob: "/var/run/secrets", label: "mounted secrets" },
];

const KEY_FILE = /^id_(?:rsa|dsa|ecdsa|ed25519)(?:_sk)?$/;
/** Names in ~/.ssh that are not secret: host fingerprints, public keys, client settings. */
const PUBLIC_SSH = /^(?:known_hosts.*|.*\.pub|config)$/;
const PRIVATE_SSH_SAMPLES = ["id_rsa", "id_ed25519", "authorized_keys", "identity"];

function segmentsOf(p: string): string[] {
  return p.split("/").filter((s) => s !== "");
}

/** Whether path segment `a` (maybe a glob) can name `b` (maybe a glob). A glob not starting with "." skips dotfiles. */
function canMatch(a: string, b: string): boolean {
  if (a === b) return true;
  if (hasGlob(a) && hasGlob(b)) return true;
  if (hasGlob(a)) return !(b.startsWith(".") && !a.startsWith(".")) && globToRegExp(a).test(b);
  if (hasGlob(b)) return !(a.startsWith(".") && !b.startsWith(".")) && globToRegExp(b).test(a);
  return false;
}

function startsWith(segments: readonly string[], prefix: readonly string[]): boolean {
  return segments.length >= prefix.length && prefix.every((p, i) => canMatch(segments[i] ?? "", p));
}

function sshEntryIsPublic(name: string): boolean {
  if (!hasGlob(name)) return PUBLIC_SSH.test(name);
  const pattern = globToRegExp(name);
  return !PRIVATE_SSH_SAMPLES.some((sample) => pattern.test(sample));
}

function homeRoots(pc: PathContext): string[][] {
  return [segmentsOf(pc.home), ["root"], ["home", "*"], ["Users", "*"]];
}

/** What credential `rel` (segments below a home folder or any folder) points into, if any. */
function matchRelative(rel: readonly string[], anywhereOnly: boolean): string | undefined {
  for (const pattern of HOME_PATTERNS) {
    if (anywhereOnly && (!pattern.anywhere || rel[0] !== pattern.segments[0])) continue;
    if (!startsWith(rel, pattern.segments) || (pattern.file && rel.length > pattern.segments.length)) continue;
    if (pattern.segments[0] === ".ssh" && rel.length > 1 && sshEntryIsPublic(rel[1] ?? "")) continue;
    return pattern.label;
  }
  return undefined;
}

/**
 * The kind of credential an absolute path (globs allowed) names or lies inside, if any. `keyNames` also counts
 * any file named like an SSH key (`id_rsa`); off for bare words, which are more often search text than paths.
 */
export function credentialAt(absolute: string, pc: PathContext, keyNames = true): string | undefined {
  const segments = segmentsOf(absolute);
  for (const system of SYSTEM_PATTERNS) if (startsWith(segments, segmentsOf(system.glob))) return system.label;
  const last = segments.at(-1) ?? "";
  const keyLike = KEY_FILE.test(last) || (hasGlob(last) && last.includes("id_") && globToRegExp(last).test("id_rsa"));
  if (keyNames && keyLike) return "a private SSH key";
  for (const root of homeRoots(pc)) {
    if (!startsWith(segments, root)) continue;
    const label = matchRelative(segments.slice(root.length), false);
    if (label) return label;
  }
  for (let i = 0; i < segments.length; i++) {
    const label = matchRelative(segments.slice(i), true);
    if (label) return label;
  }
  return undefined;
}

/** Whether a folder holds credentials somewhere below it: `/`, `/home`, a home folder, `~/.config`, … */
export function containsCredentials(absolute: string, pc: PathContext): boolean {
  const segments = segmentsOf(absolute);
  if (segments.length === 0) return true;
  return homeRoots(pc).some((root) => {
    if (segments.length <= root.length) return root.slice(0, segments.length).every((r, i) => canMatch(segments[i] ?? "", r));
    const rel = segments.slice(root.length);
    return startsWith(segments, root) && HOME_PATTERNS.some((p) => p.segments.length > rel.length && startsWith(p.segments, rel));
  });
}
