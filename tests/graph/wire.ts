import type { BaseCheckpointSaver } from "@langchain/langgraph";
import { DEFAULT_PRICE_TABLE, type PriceTable } from "../../src/models/cost/prices.js";
import { compileGraph } from "../../src/graph/build-graph.js";
import { memoryOff, type MemoryStore } from "../../src/memory/types.js";
import type { ModelProvider } from "../../src/models/chat-model.js";
import type { EventSink } from "../../src/core/index.js";
import type { SandboxStatus } from "../../src/safety/sandbox/types.js";
import { wireGraphDeps } from "../../src/host/graph-deps.js";

/** CI installs bubblewrap; without it the commands fail loudly (tests/safety/sandbox says why). */
const BUBBLEWRAP: SandboxStatus = { kind: "bubblewrap", reason: "bubblewrap (tests)" };

/** The session graph wired as the CLI wires it (src/host/graph-deps.ts), with scripted models; commands run in the real sandbox. */
export function testGraph(o: {
  models: ModelProvider;
  events: EventSink;
  checkpointer: BaseCheckpointSaver;
  memory?: MemoryStore;
  prices?: PriceTable;
  /** Called after a sub-agent step that may have changed the workspace (the CLI snapshots for undo there). */
  afterStep?: () => Promise<void>;
}) {
  return compileGraph(
    wireGraphDeps({
      models: o.models,
      events: o.events,
      memory: o.memory ?? memoryOff,
      sandbox: BUBBLEWRAP,
      prices: o.prices ?? DEFAULT_PRICE_TABLE,
      ...(o.afterStep ? { afterStep: o.afterStep } : {}),
    }),
    o.checkpointer,
  );
}
