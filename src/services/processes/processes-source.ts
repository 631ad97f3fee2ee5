import type { RunnableConfig } from "@langchain/core/runnables";
import type { BackgroundProcesses } from "./background-processes.js";

/**
 * Where a tool call finds its background processes: the session's registry (the CLI and editors run one session per
 * process), or a function that picks the one of the call's run (the Studio graph serves many threads at once).
 */
export type ProcessesSource = BackgroundProcesses | ((config: RunnableConfig | undefined) => BackgroundProcesses | undefined);

export function processesFor(source: ProcessesSource | undefined, config: RunnableConfig | undefined): BackgroundProcesses | undefined {
  return typeof source === "function" ? source(config) : source;
}
