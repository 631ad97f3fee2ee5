import { gitEffectiveSubcommands, parseGit } from "./git-args.js";
import { shown, type CommandRule } from "./rule-context.js";

/** Rules against sending work out of the machine: git push, package publishing, image pushes, releases. */

export const gitPush: CommandRule = (command) => {
  const git = parseGit(command.argv);
  if (!git) return undefined;
  const names = gitEffectiveSubcommands(git);
  const pushes =
    names.includes("push") || names.includes("send-pack") || ((git.subcommand === "subtree" || git.subcommand === "lfs") && git.args.includes("push"));
  if (!pushes) return undefined;
  return {
    rule: "git-push",
    reason: `${shown(command)} would publish commits to a remote, which the agent may not do; commit locally and leave pushing to the user.`,
  };
};

/** Program → words that publish with it (looked for among its non-option arguments). */
const PUBLISH_VERBS: Record<string, string[]> = {
  npm: ["publish", "unpublish"],
  yarn: ["publish", "unpublish"],
  pnpm: ["publish", "unpublish"],
  bun: ["publish"],
  lerna: ["publish"],
  changeset: ["publish"],
  cargo: ["publish", "yank"],
  poetry: ["publish"],
  flit: ["publish"],
  hatch: ["publish"],
  uv: ["publish"],
  twine: ["upload"],
  gem: ["push", "yank"],
  dotnet: ["push"],
  mvn: ["deploy"],
  jsr: ["publish"],
  deno: ["publish"],
  vsce: ["publish"],
  ovsx: ["publish"],
};

/** `python -m twine upload` is `twine upload`. */
function asModule(argv: readonly string[]): string[] {
  if (!/^python[\d.]*$/.test(argv[0] ?? "")) return [...argv];
  const m = argv.indexOf("-m");
  return m > 0 && argv[m + 1] ? argv.slice(m + 1) : [...argv];
}

export const packagePublish: CommandRule = (command) => {
  const [name = "", ...args] = asModule(command.argv);
  const verbs = PUBLISH_VERBS[name];
  // Only before `--`: after it come arguments for a script or test runner (`npm test -- --grep publish`).
  const dash = args.indexOf("--");
  const verb = verbs && (dash < 0 ? args : args.slice(0, dash)).find((w) => !w.startsWith("-") && verbs.includes(w));
  if (!verb) return undefined;
  return {
    rule: "package-publish",
    reason: `${shown(command)} would publish a package to a public registry, which the agent may not do; leave releases to the user.`,
  };
};

const IMAGE_TOOLS = new Set(["docker", "podman", "buildah", "nerdctl", "helm", "oras"]);

export const imagePush: CommandRule = (command) => {
  const [name = "", ...args] = command.argv;
  if (!IMAGE_TOOLS.has(name) || !args.some((a) => a === "push" || a === "--push" || /^--output=.*type=registry/.test(a))) return undefined;
  return {
    rule: "image-push",
    reason: `${shown(command)} would push an image or chart to a registry, which the agent may not do; build locally and leave publishing to the user.`,
  };
};

export const releasePublish: CommandRule = (command) => {
  const [name = "", sub, verb] = command.argv;
  if (!["gh", "hub", "glab"].includes(name) || sub !== "release" || !["create", "upload", "edit", "delete"].includes(verb ?? "")) return undefined;
  return {
    rule: "release-publish",
    reason: `${shown(command)} would change a public release on the hosting service, which the agent may not do; leave releases to the user.`,
  };
};
