import { describe, expect, it } from "vitest";
import { buildCommandEnv, keepFromCommands, isSecretEnvName } from "../../../src/services/commands/command-env.js";

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

describe("secrets under ordinary names", () => {
  it("drop URLs that carry a password, and the common password and login variables", () => {
    const env = buildCommandEnv({
      DATABASE_URL: "postgres://app:s3cr3t@db.internal:5432/app",
      REDIS_URL: "redis://:s3cr3t@cache:6379/0",
      AMQP_URL: "amqps://user:p/ss@mq.example.com/vhost",
      HTTPS_PROXY: "http://me:hunter2@proxy:3128",
      DB_PASS: "s3cr3t",
      MYSQL_PWD: "s3cr3t",
      npm_config__auth: "dXNlcjpzM2NyM3Q=",
      SERVICE_URL: "https://api.example.com:8443/v1",
      GIT_REMOTE: "ssh://git@github.com/acme/app.git",
      MAIL_FROM: "me@example.com",
      PWD: "/work",
      OLDPWD: "/",
    });
    expect(
      Object.keys(env)
        .filter((name) => !["CI", "NO_COLOR", "TERM", "GIT_TERMINAL_PROMPT", "GIT_PAGER", "PAGER", "DEBIAN_FRONTEND"].includes(name))
        .sort(),
    ).toEqual(["GIT_REMOTE", "MAIL_FROM", "OLDPWD", "PWD", "SERVICE_URL"]);
  });
});

describe("secrets the session uses, under any name", () => {
  it("keeps a value handed to keepFromCommands out of every command's environment, whatever its variable is called", () => {
    const key = "searx-7f3a9c1e5b";
    expect(buildCommandEnv({ SEARX: key, OTHER: "fine" })).toMatchObject({ SEARX: key, OTHER: "fine" });
    keepFromCommands(key);
    keepFromCommands(undefined);
    const env = buildCommandEnv({ SEARX: key, ALSO_SEARX: key, OTHER: "fine" });
    expect(env.SEARX).toBeUndefined();
    expect(env.ALSO_SEARX).toBeUndefined();
    expect(env.OTHER).toBe("fine");
  });
});
