import { defineConfig } from "vitest/config";

/**
 * Three tiers, told apart by the file name (docs/testing.md):
 * - unit (`*.test.ts`): starts no process and opens no listening socket (tests/unit-setup.ts refuses both); under a minute.
 * - integration (`*.int.test.ts`): real git, bubblewrap, ripgrep, Chroma, local HTTP servers and tsx subprocesses.
 * - e2e (`*-e2e.test.ts`): the built CLI, `langgraph dev`, PostgreSQL.
 */
const INTEGRATION = "tests/**/*.int.test.ts";
const E2E = "tests/**/*-e2e.test.ts";
// System credential locations the sandbox tests need, present for the whole run (see the file).
const CREDENTIAL_LOCATIONS = "tests/global-setup.ts";

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
      { extends: true, test: { name: "e2e", include: [E2E], globalSetup: [CREDENTIAL_LOCATIONS] } },
    ],
  },
});
