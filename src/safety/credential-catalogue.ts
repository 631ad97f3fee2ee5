/**
 * The one list of places that hold login secrets: SSH and GPG keys, cloud and registry tokens, saved logins,
 * system password hashes. The file tools refuse them, the command rules deny commands that name them and the
 * command sandbox hides them, all through src/safety/credential-match.ts, so the three never disagree.
 *
 * Semantics (one for all three):
 * - `home` entries count directly in a home folder: $HOME, the account's own home, every home in /etc/passwd,
 *   /root, /home/*, /Users/*. Their names are common project files too (a committed `.npmrc` holds a registry
 *   URL, not a token), so elsewhere, such as in the workspace, they stay readable.
 * - `anywhere` entries count below any folder, the workspace included (`fixtures/.ssh/id_rsa`,
 *   `<workspace>/.aws/credentials`): their names say what they hold, wherever a copy lies.
 * - private SSH key file names (`id_rsa`, `id_ed25519`, …) count anywhere; `id_rsa.pub` does not.
 * - in a `.ssh` folder, host fingerprints, public keys and client settings are not secret; everything else is.
 * - `system` entries are absolute; a folder entry covers everything below it.
 * Project files such as `.env` are the project's own and never count.
 */

export interface CredentialEntry {
  /** Path segments below a home folder or any folder, or from `/` for system entries; may hold globs. */
  segments: readonly string[];
  label: string;
  scope: "home" | "anywhere" | "system";
}

/** A location covers itself and everything below it (a "file" that is a folder on some system is covered whole). */
function entry(path: string, label: string, scope: CredentialEntry["scope"]): CredentialEntry {
  return { segments: path.split("/").filter((s) => s !== ""), label, scope };
}

export const CREDENTIAL_ENTRIES: readonly CredentialEntry[] = [
  entry(".ssh", "SSH keys", "anywhere"),
  entry(".aws", "AWS credentials", "anywhere"),
  entry(".config/gcloud", "Google Cloud credentials", "anywhere"),
  entry(".azure", "Azure credentials", "anywhere"),
  entry(".kube/config", "Kubernetes credentials", "anywhere"),
  entry(".docker/config.json", "Docker registry credentials", "anywhere"),
  entry(".gnupg", "GPG keys", "anywhere"),
  entry(".git-credentials", "git credentials", "anywhere"),
  entry(".config/git/credentials", "git credentials", "anywhere"),
  entry(".config/gh", "GitHub CLI tokens", "anywhere"),
  entry(".config/hub", "GitHub tokens", "anywhere"),
  entry(".password-store", "the password store", "anywhere"),
  entry(".npmrc", "npm tokens", "home"),
  entry(".pypirc", "PyPI tokens", "home"),
  entry(".netrc", "saved logins", "home"),
  entry("_netrc", "saved logins", "home"),
  entry(".pgpass", "database passwords", "home"),
  entry(".my.cnf", "database passwords", "home"),
  entry(".vault-token", "a Vault token", "home"),
  entry(".cargo/credentials", "crates.io tokens", "home"),
  entry(".cargo/credentials.toml", "crates.io tokens", "home"),
  entry(".gem/credentials", "RubyGems tokens", "home"),
  entry(".terraform.d/credentials.tfrc.json", "Terraform tokens", "home"),
  entry(".local/share/keyrings", "desktop keyrings", "home"),
  // mini-cursor's own: the remote MCP servers' sign-ins (mini-cursor mcp login), never the model's or a command's.
  entry(".config/mini-cursor/mcp-oauth", "MCP sign-in tokens", "home"),
  entry("/etc/shadow", "system password hashes", "system"),
  entry("/etc/shadow-", "system password hashes", "system"),
  entry("/etc/gshadow", "system password hashes", "system"),
  entry("/etc/gshadow-", "system password hashes", "system"),
  entry("/etc/master.passwd", "system password hashes", "system"),
  entry("/etc/sudoers", "sudo rules", "system"),
  entry("/etc/sudoers.d", "sudo rules", "system"),
  entry("/etc/ssh/ssh_host_*_key", "the SSH host keys", "system"),
  entry("/etc/ssl/private", "TLS private keys", "system"),
  entry("/proc/*/environ", "a process's environment, which holds its secrets", "system"),
  entry("/proc/*/task/*/environ", "a process's environment, which holds its secrets", "system"),
  entry("/run/secrets", "mounted secrets", "system"),
  entry("/var/run/secrets", "mounted secrets", "system"),
];

/** Home folders by convention, besides $HOME, the account's own and those in /etc/passwd. */
export const CONVENTIONAL_HOMES: readonly string[] = ["/root", "/home/*", "/Users/*"];

export const PRIVATE_KEY_LABEL = "a private SSH key";
/** Private SSH key file names, secret wherever they lie. */
export const PRIVATE_KEY_NAME = /^id_(?:rsa|dsa|ecdsa|ed25519)(?:_sk)?$/;
export const PRIVATE_KEY_NAMES: readonly string[] = ["rsa", "dsa", "ecdsa", "ed25519"].flatMap((k) => [`id_${k}`, `id_${k}_sk`]);
/** Names in a `.ssh` folder that are not secret: host fingerprints, public keys, client settings. */
export const PUBLIC_SSH_NAME = /^(?:known_hosts.*|.*\.pub|config)$/;
/** Names a glob in a `.ssh` folder may stand for: a glob that can name one of them counts as private. */
export const PRIVATE_SSH_SAMPLES: readonly string[] = ["id_rsa", "id_ed25519", "authorized_keys", "identity"];
