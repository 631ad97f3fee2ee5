import { defineConfig } from "vitest/config";

/**
 * Three tiers, told apart by the file name (docs/testing.md):
 * - unit (`*.test.ts`): starts no process and opens no listening socket (tests/unit-setup.ts refuses both); under a minute.
 * - integration (`*.int.test.ts`): real git, bubblewrap, ripgrep, Chroma, local HTTP servers and tsx subprocesses.
 * - e2e (`*-e2e.test.ts`): the built CLI, `langgraph dev`, PostgreSQL; the files of e2e-postgres and e2e-studio share
 *   one server each.
 */
const INTEGRATION = "tests/**/*.int.test.ts";
const E2E = "tests/**/*-e2e.test.ts";
// System credential locations the sandbox tests need, present for the whole run (see the file).
const CREDENTIAL_LOCATIONS = "tests/global-setup.ts";
// End-to-end files that share one server, started once by their project's global setup (docs/testing.md).
const ON_SHARED_POSTGRES = [
  "tests/sessions/postgres-records-e2e.test.ts",
  "tests/sessions/postgres-conformance-e2e.test.ts",
  "tests/faces/acp/postgres-session-e2e.test.ts",
  "tests/faces/cli/worktree-postgres-e2e.test.ts",
  "tests/faces/serve/postgres-serve-e2e.test.ts",
];
const ON_SHARED_STUDIO = [
  "tests/faces/studio/custom-agents-studio-e2e.test.ts",
  "tests/faces/studio/diagnostics-studio-e2e.test.ts",
  "tests/faces/studio/mcp-studio-e2e.test.ts",
  "tests/faces/studio/mcp-form-studio-e2e.test.ts",
];

export default defineConfig({
  test: {
    testTimeout: 60_000,
    hookTimeout: 120_000,
    // Two cores are enough for two files at once.
    maxWorkers: 2,
    // A local Chroma server stops with its last session in tests (the product keeps it up for a while: see
    // MINI_CURSOR_CHROMA_IDLE); the tests of that keep-alive set it themselves.
    env: { MINI_CURSOR_CHROMA_IDLE: "0" },
    projects: [
      {
        extends: true,
        test: {
          name: "unit",
          include: ["tests/**/*.test.ts"],
          exclude: [INTEGRATION, E2E],
          setupFiles: ["tests/unit-setup.ts"],
          // Files share one module cache per worker: importing LangChain once instead of in every file is most of the
          // tier's time. The files keep no state between them (env stubs are undone, temp folders removed).
          isolate: false,
        },
      },
      { extends: true, test: { name: "integration", include: [INTEGRATION], globalSetup: [CREDENTIAL_LOCATIONS] } },
      { extends: true, test: { name: "e2e", include: [E2E], exclude: [...ON_SHARED_POSTGRES, ...ON_SHARED_STUDIO], globalSetup: [CREDENTIAL_LOCATIONS] } },
      {
        extends: true,
        test: { name: "e2e-postgres", include: ON_SHARED_POSTGRES, globalSetup: [CREDENTIAL_LOCATIONS, "tests/sessions/shared-postgres.ts"] },
      },
      {
        extends: true,
        test: { name: "e2e-studio", include: ON_SHARED_STUDIO, globalSetup: [CREDENTIAL_LOCATIONS, "tests/faces/studio/shared-dev-server.ts"] },
      },
    ],
  },
});
