import { afterEach, beforeEach, vi } from "vitest";
import { makeWorkspace, writeFiles, type TempWorkspace } from "./helpers.js";

/** A workspace that is also the home folder (someone running the agent in ~), with credential files in it. */
export let ws: TempWorkspace;

/** Registers the set-up and clean-up in the calling test file (call it once, at its top level). */
export function useWorkspace(): void {
  beforeEach(async () => {
    ws = await makeWorkspace();
    vi.stubEnv("HOME", ws.root);
    vi.stubEnv("MINI_CURSOR_ALLOW_CREDENTIAL_FILES", "");
    await writeFiles(ws.root, {
      ".ssh/id_rsa": "FAKE-PRIVATE-KEY\n",
      ".aws/credentials": "aws_secret_access_key=FAKE-AWS\n",
      ".netrc": "machine example.com password FAKE-NETRC\n",
      ".env": "API_URL=http://localhost FAKE-ENV\n",
      "src/app.ts": "const x = 'FAKE-CODE';\n",
    });
  });
  afterEach(async () => {
    vi.unstubAllEnvs();
    await ws.cleanup();
  });
}
