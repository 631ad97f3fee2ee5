import { execFileSync } from "node:child_process";
import { mkdirSync, rmSync, symlinkSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

const REPO = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");

/**
 * Gives a temp project this repository's installed copy of `name` as its own node_modules/<name> (`all`: the whole
 * node_modules, for a package with dependencies such as eslint). The command sandbox hides /tmp, so a symlink into a
 * checkout that lives under /tmp (a CI clone) would dangle inside it: the package is hard-linked (fast, and the temp
 * folder is then on the same filesystem), and linked by a symlink only when hard links cannot cross filesystems.
 * `without`: packages left out of a whole node_modules (a project that must not have them).
 */
export function addRepoPackage(projectRoot: string, name: string | "all", without: readonly string[] = []): void {
  const modules = path.join(projectRoot, "node_modules");
  const [from, to] = name === "all" ? [path.join(REPO, "node_modules"), modules] : [path.join(REPO, "node_modules", name), path.join(modules, name)];
  mkdirSync(path.dirname(to), { recursive: true });
  try {
    execFileSync("cp", ["-al", from, to], { stdio: "ignore" });
    // Removing a hard-linked copy leaves the repository's own files as they are.
    for (const left of without) rmSync(path.join(to, left), { recursive: true, force: true });
  } catch {
    if (without.length > 0) throw new Error(`cannot hard-link ${from} into ${to} to leave out ${without.join(", ")}`);
    symlinkSync(from, to);
  }
}
