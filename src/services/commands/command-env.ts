/**
 * The environment commands run with: the user's environment minus anything that looks like a secret (the
 * model sees command output, so a printed key would leak into the transcript and the provider's logs), plus
 * settings that keep tools from waiting for input that can never come (stdin is closed).
 */
const SECRET_NAME_PATTERNS: readonly RegExp[] = [
  /API_?KEY/i,
  /TOKEN/i,
  /SECRET/i,
  /PASSWORD/i,
  /PASSWD/i,
  // DB_PASS, SMTP_PASS; MYSQL_PWD (the mysql client's own password variable); npm_config__auth (npm's base64 login).
  /_PASS$/i,
  /_PWD$/i,
  /_AUTH$/i,
  /CREDENTIAL/i,
  /PRIVATE_KEY/i,
  /_KEY$/i,
  // CHROMA_: the memory server's address, tenant and token (CHROMA_TOKEN) are no business of a command.
  /^(OPENAI|ANTHROPIC|MINI_CURSOR|CHROMA|AWS|GITHUB|GH)_/i,
];

const NON_INTERACTIVE: Readonly<Record<string, string>> = {
  CI: "1",
  NO_COLOR: "1",
  TERM: "dumb",
  // git must fail instead of prompting for credentials, and never open a pager.
  GIT_TERMINAL_PROMPT: "0",
  GIT_PAGER: "cat",
  PAGER: "cat",
  DEBIAN_FRONTEND: "noninteractive",
};

/** Overrides NO_COLOR in many tools. */
const DROPPED_NAMES: ReadonlySet<string> = new Set(["FORCE_COLOR"]);

export function isSecretEnvName(name: string): boolean {
  return SECRET_NAME_PATTERNS.some((pattern) => pattern.test(name));
}

/**
 * A URL with a password in it, whatever the variable is called: DATABASE_URL=postgres://app:pw@db/app,
 * REDIS_URL=redis://:pw@cache, a proxy with a login. Several such URLs in one value (a list) count too.
 */
const URL_WITH_PASSWORD = /[a-z][a-z0-9+.-]*:\/\/[^\s/?#@:]*:[^\s@]+@/i;

export function isSecretEnvValue(value: string): boolean {
  return URL_WITH_PASSWORD.test(value);
}

/** Secrets this process uses under whatever variable name they came in (src/services/commands/command-env.ts keepFromCommands). */
const secretValues = new Set<string>();

/**
 * A secret the session itself uses (a web search key, read from the variable `web.search.apiKeyEnv` names, which may
 * be called anything): no command gets a variable holding it, from now on in this process.
 */
export function keepFromCommands(value: string | undefined): void {
  if (value) secretValues.add(value);
}

export function buildCommandEnv(parentEnv: NodeJS.ProcessEnv): Record<string, string> {
  const env: Record<string, string> = {};
  for (const [name, value] of Object.entries(parentEnv)) {
    if (value === undefined || isSecretEnvName(name) || isSecretEnvValue(value) || secretValues.has(value) || DROPPED_NAMES.has(name)) continue;
    env[name] = value;
  }
  return { ...env, ...NON_INTERACTIVE };
}
