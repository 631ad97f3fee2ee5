import { readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";

/**
 * Records every module a child Node process loads, through a module hook given in NODE_OPTIONS: tests of what a
 * command imports check the list instead of timing the process. The CLI ships as an esbuild bundle (entry plus
 * chunks, scripts/bundle.mjs), so a loaded bundle file is expanded into the sources it holds, read from the build's
 * metafile: the list names `.../src/faces/cli/commands/sessions.ts` and `.../node_modules/zod/...`, as the sources are.
 */
const HOOKS = `import { appendFileSync } from "node:fs";
export async function load(url, context, next) {
  appendFileSync(process.env.MC_TEST_MODULE_TRACE, url + "\\n");
  return next(url, context);
}
`;

export interface ModuleTrace {
  /** Environment that makes a child process record its modules. */
  env: Record<string, string>;
  /** What was loaded so far: absolute paths of sources (bundle files expanded) and URLs of anything else. */
  modules(): string[];
  /** The files of the build (dist/) that were loaded, repository-relative, in load order: bundle files unexpanded. */
  buildFiles(): string[];
}

const REPO = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");
const BUNDLE_META = path.join(REPO, "dist", "cli", "meta.json");

interface Metafile {
  outputs: Record<string, { inputs: Record<string, unknown> }>;
}

/** Absolute paths of the sources in each bundle output file, by the output's absolute path. */
function bundleSources(): Map<string, string[]> {
  const meta = JSON.parse(readFileSync(BUNDLE_META, "utf8")) as Metafile;
  return new Map(Object.entries(meta.outputs).map(([out, { inputs }]) => [path.join(REPO, out), Object.keys(inputs).map((input) => path.join(REPO, input))]));
}

/** The bundle file (absolute path) that holds a source, e.g. "src/host/session-runner.ts": a hook can wait on it. */
export function bundleFileOf(source: string): string {
  const wanted = path.join(REPO, source);
  for (const [file, sources] of bundleSources()) if (sources.includes(wanted)) return file;
  throw new Error(`${source} is in no bundle file of ${BUNDLE_META}: run npm run build`);
}

/** Loaded URLs with every bundle file replaced by the sources bundled into it. */
export function expandBundles(urls: readonly string[]): string[] {
  const sources = bundleSources();
  return urls.flatMap((url) => {
    const file = url.startsWith("file:") ? fileURLToPath(url) : url;
    return sources.get(file) ?? [url];
  });
}

/** A fresh trace whose files live in `dir` under `name`. */
export function moduleTrace(dir: string, name: string): ModuleTrace {
  const hooks = path.join(dir, `${name}-hooks.mjs`);
  const register = path.join(dir, `${name}-register.mjs`);
  const trace = path.join(dir, `${name}-trace.txt`);
  writeFileSync(hooks, HOOKS);
  writeFileSync(register, `import { register } from "node:module";\nregister(${JSON.stringify(pathToFileURL(hooks).href)});\n`);
  writeFileSync(trace, "");
  return {
    env: { NODE_OPTIONS: `--import ${pathToFileURL(register).href}`, MC_TEST_MODULE_TRACE: trace },
    modules: () => expandBundles(readFileSync(trace, "utf8").split("\n").filter(Boolean)),
    buildFiles: () =>
      readFileSync(trace, "utf8")
        .split("\n")
        .filter((url) => url.startsWith("file:"))
        .map((url) => path.relative(REPO, fileURLToPath(url)))
        .filter((file) => file.startsWith(`dist${path.sep}`)),
  };
}
