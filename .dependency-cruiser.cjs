/**
 * The architecture, written down once: the folders of src/ are its parts, listed bottom to top in layers. A module
 * may import from its own part and from parts in lower layers only; never upward, never sideways within a layer,
 * never in a cycle. `npm run lint` enforces it (dependency-cruiser; type-only imports count too). docs/architecture.md
 * draws the picture.
 */
const LAYERS = [
  ["core"], // the domain vocabulary: agents, plans, reviews, commands, usage, reports, stop reasons, events
  ["platform"], // logger, clock, processes and the launcher, paths, atomic writes, file locks; config/: the one configuration resolver
  ["models", "safety"], // model clients and cost/ (usage, prices, budgets); approval rules, credentials and sandbox/ (bubblewrap)
  ["sessions", "memory", "services"], // the session database, undo/ and worktree/; long-term memory in Chroma and retrieval/ (the codebase index); the services the tools use (commands, workspace files, processes, diagnostics, skills, web, MCP servers)
  ["tools"], // the workspace tools the agents call: thin adapters over the services
  ["agents"], // sub-agents: LangChain agents with their middleware
  ["graph"], // the session graph: planner, agent adapters, finish
  ["host"], // one session host for every face: settings, services, the graph's dependencies, the run loop under its lock
  ["faces"], // cli/, acp/ (editors; `mini-cursor acp` in the CLI starts it), serve/ (`mini-cursor serve`: the Agent Server API over the sessions) and studio/ (langgraph dev, the Agent Server)
];

const ALL = LAYERS.flat();

const layerRules = LAYERS.flatMap((layer, index) =>
  layer.map((folder) => {
    const forbidden = LAYERS.slice(index)
      .flat()
      .filter((other) => other !== folder);
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
      name: "faces-stand-alone",
      comment: "The faces do not import each other, except the CLI starting the editors' face (`mini-cursor acp`) and the API server (`mini-cursor serve`).",
      severity: "error",
      from: { path: "^src/faces/(acp|serve|studio)/" },
      to: { path: "^src/faces/", pathNot: "^src/faces/$1/" },
    },
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
      from: { path: "^src/faces/studio/graph\\.ts$" },
      to: {
        path: "^src/sessions/|node_modules/(pg|@langchain/langgraph-checkpoint-[^/]+)/",
        pathNot: "^src/sessions/(workspace-lock|busy-error|data-dir|paths|data-errors)\\.ts$",
        reachable: true,
      },
    },
    {
      name: "sqlite-only-for-sessions-and-the-index-store",
      comment:
        "better-sqlite3 is the session database's (src/sessions) and the codebase index's own store's (src/memory/retrieval/index-store.ts, a cache derived from its Chroma collection, which a Studio run on a LangGraph server uses too); nothing else opens SQLite.",
      severity: "error",
      from: { path: "^src/", pathNot: "^src/sessions/|^src/memory/retrieval/index-store\\.ts$" },
      to: { path: "node_modules/better-sqlite3/" },
    },
    {
      name: "unplaced-folder",
      comment: `Every folder of src/ is a part with a layer in .dependency-cruiser.cjs (${ALL.join(", ")}).`,
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
