import v8 from "node:v8";

/**
 * Keeps V8's young generation at its starting size in the CLI's process. By default V8 doubles its semi-spaces while
 * loading the app and during a session, and keeps them: a large share of the CLI's peak memory, for no speed a user
 * feels (the model is remote; "Special cases kept and removed" in docs/benchmarks.md). Node reads
 * `--max-semi-space-size` only at start, but V8 reads its growth factor at every resize, so setting that factor to 1
 * from inside works. (On the command line a factor below 2 is raised to 2 as V8 starts.)
 *
 * Left alone when the user chose the young generation's size (`--max-semi-space-size` and its kin on the command
 * line or in NODE_OPTIONS), and on Node majors other than 20: V8 prints an error line for a flag it does not know,
 * and this one is verified only on Node 20's V8.
 */
export interface YoungGenerationContext {
  execArgv: readonly string[];
  nodeOptions: string | undefined;
  nodeVersion: string;
  setFlags: (flags: string) => void;
}

const USER_CHOICE = /--(?:(?:max|min)[-_]semi[-_]space[-_]size|semi[-_]space[-_]growth[-_]factor)\b/;
const VERIFIED_NODE_MAJORS = new Set([20]);
export const GROWTH_FLAG = "--semi-space-growth-factor=1";

function fromProcess(): YoungGenerationContext {
  return {
    execArgv: process.execArgv,
    nodeOptions: process.env.NODE_OPTIONS,
    nodeVersion: process.versions.node,
    setFlags: (flags) => v8.setFlagsFromString(flags),
  };
}

/** Caps the young generation unless the user sized it or V8 may not know the flag; true when it did. */
export function keepYoungGenerationSmall(context: YoungGenerationContext = fromProcess()): boolean {
  if (!VERIFIED_NODE_MAJORS.has(Number(context.nodeVersion.split(".")[0]))) return false;
  if (context.execArgv.some((arg) => USER_CHOICE.test(arg)) || USER_CHOICE.test(context.nodeOptions ?? "")) return false;
  context.setFlags(GROWTH_FLAG);
  return true;
}
