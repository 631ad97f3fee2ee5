import { readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { pathToFileURL } from "node:url";

/**
 * Records every module a child Node process loads, through a module hook given in NODE_OPTIONS: tests of what a
 * command imports check the list instead of timing the process.
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
  /** The URLs of the modules loaded so far. */
  modules(): string[];
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
    modules: () => readFileSync(trace, "utf8").split("\n").filter(Boolean),
  };
}
