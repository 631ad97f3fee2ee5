import { defineConfig } from "vitest/config";

/**
 * End-to-end suites: built CLIs, `langgraph dev`, Chroma and PostgreSQL servers and real git stores. `npm test` runs everything;
 * `npm run test:unit` runs the rest, a fast inner loop.
 */
const E2E = [
  "tests/**/*-e2e.test.ts",
  "tests/faces/studio/**",
  "tests/memory/chroma/**",
  "tests/memory/chroma-memory.test.ts",
  "tests/sessions/undo/**",
  "tests/faces/cli/doctor.test.ts",
  "tests/sessions/postgres-*.test.ts",
  "tests/architecture/**",
];

export default defineConfig({
  test: {
    testTimeout: 60_000,
    hookTimeout: 120_000,
    // End-to-end tests spawn CLIs and servers; two cores are enough for two files at once.
    maxWorkers: 2,
    // System credential locations the sandbox tests need, present for the whole run (see the file).
    globalSetup: ["tests/global-setup.ts"],
    // A local Chroma server stops with its last session in tests (the product keeps it up for a while: see
    // MINI_CURSOR_CHROMA_IDLE); the tests of that keep-alive set it themselves.
    env: { MINI_CURSOR_CHROMA_IDLE: "0" },
    projects: [
      { extends: true, test: { name: "unit", include: ["tests/**/*.test.ts"], exclude: E2E } },
      { extends: true, test: { name: "e2e", include: E2E.map((glob) => (glob.endsWith(".ts") ? glob : `${glob}/*.test.ts`)) } },
    ],
  },
});
