import fs, { promises as fsp } from "node:fs";
import path from "node:path";
import { afterEach, describe, expect, it, vi } from "vitest";
import { credentialLocationOf, credentialMatcher } from "../../src/safety/credential-files.js";
import { buildCredentialCatalogue, credentialCatalogue } from "../../src/safety/credential-homes.js";
import { matchCredential, segmentsOf } from "../../src/safety/credential-match.js";
import { containsCredentials, credentialAt, mayNameCredential } from "../../src/safety/credential-paths.js";
import { useTempWorkspace } from "../helpers/temp-workspace.js";

const ws = useTempWorkspace();
const pc = { workspace: "/work/proj", home: "/home/dev", cwd: "/work/proj" };

afterEach(() => {
  vi.restoreAllMocks();
});

describe("the credential catalogue", () => {
  it("is built once per home folder and process, and a check then touches no file", () => {
    expect(credentialCatalogue(ws.root)).toBe(credentialCatalogue(ws.root));
    expect(buildCredentialCatalogue({ home: ws.root })).not.toBe(credentialCatalogue(ws.root));
    const check = credentialMatcher(ws.root);
    credentialLocationOf("/", ws.root);
    const spies = [
      vi.spyOn(fs, "readFileSync"),
      vi.spyOn(fs, "readdirSync"),
      vi.spyOn(fs, "statSync"),
      vi.spyOn(fs, "lstatSync"),
      vi.spyOn(fs, "existsSync"),
      vi.spyOn(fs.realpathSync, "native"),
    ];
    for (let i = 0; i < 1000; i++) {
      check(path.join(ws.root, "src", `file-${i}.ts`));
      check(path.join(ws.root, "fixtures", ".ssh", "id_rsa"));
      check("/etc/shadow");
      // What read_file and write_file call once per path.
      credentialLocationOf(path.join(ws.root, ".aws", "credentials"), ws.root);
    }
    for (const spy of spies) expect(spy).not.toHaveBeenCalled();
  });

  it("takes its home folders from the password database it is given", async () => {
    const other = path.join(ws.root, "srv-account");
    await fsp.mkdir(other);
    const passwd = path.join(ws.root, "passwd");
    await fsp.writeFile(passwd, `svc:x:999:999::${other}:/usr/sbin/nologin\n`);
    const catalogue = buildCredentialCatalogue({ home: "/home/someone", passwdFile: passwd });
    expect(matchCredential(catalogue, segmentsOf(path.join(other, ".pgpass")))?.label).toBe("database passwords");
    // A home-only name elsewhere is a project file.
    expect(matchCredential(catalogue, segmentsOf(path.join(other, "project", ".pgpass")))).toBeUndefined();
  });

  it("matches a location reached through a link by its real path", async () => {
    const home = path.join(ws.root, "home");
    const vault = path.join(ws.root, "vault");
    await fsp.mkdir(home);
    await fsp.mkdir(vault);
    await fsp.symlink(vault, path.join(home, ".password-store"));
    const catalogue = buildCredentialCatalogue({ home });
    expect(matchCredential(catalogue, segmentsOf(path.join(vault, "bank.gpg")))?.label).toBe("the password store");
  });
});

describe("one matching semantics", () => {
  it.each([
    ["/home/dev/.ssh/id_rsa", "SSH keys"],
    ["/work/proj/fixtures/.ssh/deploy", "SSH keys"],
    ["/work/proj/.aws/credentials", "AWS credentials"],
    ["/work/proj/test/id_ed25519", "a private SSH key"],
    ["/home/dev/.npmrc", "npm tokens"],
    ["/home/*/.netrc", "saved logins"],
    ["/home/dev/.ssh/*", "SSH keys"],
    ["/etc/ssl/private/server.key", "TLS private keys"],
    ["/etc/sudoers.d/90-cloud", "sudo rules"],
    ["/proc/self/environ", "a process's environment, which holds its secrets"],
    ["/var/run/secrets/kubernetes.io/token", "mounted secrets"],
  ])("%s is %s", (p, label) => {
    expect(credentialAt(p, pc)).toBe(label);
    expect(mayNameCredential(p, pc)).toBe(true);
  });

  it.each([
    "/work/proj/.env",
    "/work/proj/.npmrc",
    "/work/proj/id_rsa.pub",
    "/home/dev/.ssh/known_hosts",
    "/home/dev/.ssh/id_rsa.pub",
    "/home/dev/.ssh/config",
    "/home/dev/*.md",
    "/etc/passwd",
    "/proc/self/status",
  ])("%s is not a credential", (p) => expect(credentialAt(p, pc)).toBeUndefined());

  it("knows which folders hold credentials below them", () => {
    for (const p of ["/", "/home", "/home/dev", "/home/dev/.config", "/etc", "/etc/ssl", "/run"]) expect(containsCredentials(p, pc), p).toBe(true);
    for (const p of ["/work/proj", "/home/dev/code", "/usr/share/doc"]) expect(containsCredentials(p, pc), p).toBe(false);
  });
});
