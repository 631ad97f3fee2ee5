import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    include: ["tests/**/*.test.ts"],
    testTimeout: 60_000,
    hookTimeout: 120_000,
    // End-to-end tests spawn CLIs and servers; two cores are enough for two files at once.
    maxWorkers: 2,
  },
});
