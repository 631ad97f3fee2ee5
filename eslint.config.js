import tseslint from "typescript-eslint";

export default tseslint.config(
  // bench/out: the bench's own build output and scratch measurement scripts (git-ignored).
  { ignores: ["dist/**", "node_modules/**", ".mini-cursor/**", ".langgraph_api/**", "bench/out/**"] },
  ...tseslint.configs.recommended,
  {
    rules: {
      "@typescript-eslint/no-explicit-any": "error",
      "@typescript-eslint/no-unused-vars": ["error", { argsIgnorePattern: "^_", varsIgnorePattern: "^_" }],
      "no-console": "error",
    },
  },
  {
    files: ["tests/**", "bench/**"],
    rules: { "no-console": "off" },
  },
);
