import { describe, expect, it } from "vitest";
import { buildCommandEnv, isSecretEnvName } from "../../src/tools/command-env.js";

describe("buildCommandEnv", () => {
  it("drops secrets and keeps ordinary variables", () => {
    const env = buildCommandEnv({
      PATH: "/usr/bin",
      HOME: "/home/me",
      LANG: "C.UTF-8",
      OPENAI_API_KEY: "sk-fake",
      CHROMA_TOKEN: "chroma-secret",
      CHROMA_URL: "http://chroma:8000",
      CHROMA_TENANT: "acme",
      OPENAI_BASE_URL: "http://x",
      ANTHROPIC_MODEL: "m",
      MINI_CURSOR_MODEL: "m",
      AWS_REGION: "eu",
      GITHUB_TOKEN: "t",
      GH_HOST: "h",
      NPM_TOKEN: "n",
      npm_config__authToken: "n",
      DB_PASSWORD: "p",
      MYSQL_PASSWD: "p",
      GOOGLE_APPLICATION_CREDENTIALS: "/c.json",
      SSH_PRIVATE_KEY: "k",
      STRIPE_KEY: "k",
      CLIENT_SECRET: "s",
      SOMEAPIKEY: "k",
      FORCE_COLOR: "3",
      EDITOR: "vim",
      KEYBOARD: "us",
      UNDEFINED: undefined,
    });
    expect(env).toEqual({
      PATH: "/usr/bin",
      HOME: "/home/me",
      LANG: "C.UTF-8",
      EDITOR: "vim",
      KEYBOARD: "us",
      CI: "1",
      NO_COLOR: "1",
      TERM: "dumb",
      GIT_TERMINAL_PROMPT: "0",
      GIT_PAGER: "cat",
      PAGER: "cat",
      DEBIAN_FRONTEND: "noninteractive",
    });
  });

  it("classifies names", () => {
    expect(isSecretEnvName("HUGGINGFACE_TOKEN")).toBe(true);
    expect(isSecretEnvName("api_key")).toBe(true);
    expect(isSecretEnvName("PATH")).toBe(false);
    expect(isSecretEnvName("SSH_AUTH_SOCK")).toBe(false);
  });
});
