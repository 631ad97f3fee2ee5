/**
 * The environment of the Node processes mini-cursor runs for itself (the launcher helper, the local Chroma server,
 * the TypeScript service behind diagnostics), as opposed to the programs it runs for the user, which get the user's
 * environment unchanged.
 *
 * - `NODE_OPTIONS`: a profiler, loader or `--import` meant for the CLI is not for these processes, and can break them.
 * - `NODE_EXTRA_CA_CERTS`: Node 20 reads and parses the whole file at startup, before any code runs; with a system
 *   bundle of ~140 certificates that doubled a bare `node -e 0` here (45 to 90 ms, 40 ms more CPU). These processes
 *   open no TLS connection from JavaScript (Chroma's server is Rust, which does not read the variable), so they do
 *   not need it; the CLI keeps it for the model endpoint.
 */
const FOR_THE_CLI_ONLY = ["NODE_OPTIONS", "NODE_EXTRA_CA_CERTS"] as const;

export function internalNodeEnv<Env extends Record<string, string | undefined>>(env: Env): Env {
  if (!FOR_THE_CLI_ONLY.some((name) => name in env)) return env;
  const copy = { ...env };
  for (const name of FOR_THE_CLI_ONLY) delete copy[name];
  return copy;
}
