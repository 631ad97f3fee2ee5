/**
 * The architecture, written down once: the folders of src/ are layers, listed bottom to top. A module may import
 * from its own folder and from folders in lower layers only; never upward, never sideways within a layer, never in a
 * cycle. `npm run lint` enforces it (dependency-cruiser; type-only imports count too).
 */
const LAYERS = [
  ["core"], // the domain vocabulary: agents, plans, reviews, commands, usage, reports, stop reasons, events
  ["runtime"], // logger, clock, processes, config-file parsing
  ["config"], // the one configuration resolver
  ["models", "safety", "sessions", "cost"], // model clients, approval rules, the session database, usage and prices
  ["sandbox", "memory", "undo", "mcp", "worktree"], // bubblewrap, long-term memory in Chroma, the shadow store for undo, MCP servers, git worktrees
  ["retrieval"], // the codebase index in Chroma (chunks, hybrid ranking, freshness), on memory's server and embedders
  ["tools"], // the workspace tools the agents call
  ["agents"], // sub-agents: LangChain agents with their middleware
  ["graph"], // the session graph: planner, agent adapters, finish
  ["wiring"], // the one factory of the graph's dependencies
  ["host"], // running a session for any face: settings, services, the run loop under its lock, prompter contract
  ["acp"], // the editors' face (Agent Client Protocol); below the CLI, whose `mini-cursor acp` starts it
  ["cli", "studio"], // the faces
];

const ALL = LAYERS.flat();

const layerRules = LAYERS.flatMap((layer, index) =>
  layer.map((folder) => {
    const forbidden = LAYERS.slice(index).flat().filter((other) => other !== folder);
    return {
      name: `layer-${folder}`,
      comment: `src/${folder} may import only from lower layers (${LAYERS.slice(0, index).flat().join(", ") || "none"}), not from ${forbidden.join(", ")}`,
      severity: "error",
      from: { path: `^src/${folder}/` },
      to: { path: `^src/(${forbidden.join("|")})/` },
    };
  }),
);

module.exports = {
  forbidden: [
    ...layerRules,
    {
      name: "no-circular",
      comment: "No import cycles, even inside a folder.",
      severity: "error",
      from: {},
      to: { circular: true },
    },
    {
      name: "studio-uses-the-servers-checkpointer",
      comment:
        "The Studio graph runs on a LangGraph server (langgraph dev, or the Agent Server on Postgres), which brings its own checkpointer and store: it must not reach the session database (src/sessions, SQLite, Postgres, our checkpointers), not even through another module. The workspace lock (a file lock beside it, with the data folder it lives in) is shared: one session per workspace, whichever face runs it.",
      severity: "error",
      from: { path: "^src/studio/graph\\.ts$" },
      to: {
        path: "^src/sessions/|node_modules/(pg|@langchain/langgraph-checkpoint-[^/]+)/",
        pathNot: "^src/sessions/(workspace-lock|data-dir|paths|data-errors)\\.ts$",
        reachable: true,
      },
    },
    {
      name: "sqlite-only-for-sessions-and-the-index-store",
      comment:
        "better-sqlite3 is the session database's (src/sessions) and the codebase index's own store's (src/retrieval/index-store.ts, a cache derived from its Chroma collection, which a Studio run on a LangGraph server uses too); nothing else opens SQLite.",
      severity: "error",
      from: { path: "^src/", pathNot: "^src/sessions/|^src/retrieval/index-store\\.ts$" },
      to: { path: "node_modules/better-sqlite3/" },
    },
    {
      name: "unplaced-folder",
      comment: `Every folder of src/ has a layer in .dependency-cruiser.cjs (${ALL.join(", ")}).`,
      severity: "error",
      from: { path: "^src/", pathNot: `^src/(${ALL.join("|")})/` },
      to: {},
    },
  ],
  options: {
    doNotFollow: { path: "node_modules" },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: "tsconfig.json" },
  },
};
