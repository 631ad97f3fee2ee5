import { afterAll, afterEach, beforeAll } from "vitest";
import { startTestChroma, type TestChroma } from "../../helpers/chroma.js";
import { makeTempWorkspace, type TempWorkspace } from "../../helpers/temp-workspace.js";
import { openAIAnswer, startEmbeddingsServer, type EmbeddingsReply, type EmbeddingsServer } from "../embeddings/embeddings-server.js";

/**
 * What the tests of the codebase index through a remote embedder share: a real Chroma for the file, and per test a
 * workspace and a real OpenAI-compatible embeddings server on 127.0.0.1, both removed after each test.
 */
export interface RemoteEmbedderFixture {
  chroma(): TestChroma;
  workspace(files: Record<string, string>): Promise<TempWorkspace>;
  /**
   * An embeddings server that answers `decide`'s reply to the n-th request (1-based), else vectors; `embedded` counts
   * the texts it gave vectors for, leaving out the one-text probes of the vector length.
   */
  embeddings(decide: (n: number, inputs: string[]) => EmbeddingsReply | undefined): Promise<{ server: EmbeddingsServer; embedded: () => number }>;
}

export function useRemoteEmbedderFixture(): RemoteEmbedderFixture {
  let chroma: TestChroma | undefined;
  let ws: TempWorkspace | undefined;
  let server: EmbeddingsServer | undefined;
  beforeAll(async () => {
    chroma = await startTestChroma();
  });
  afterAll(async () => {
    await chroma?.stop();
  });
  afterEach(async () => {
    await server?.close();
    server = undefined;
    await ws?.cleanup();
    ws = undefined;
  });
  return {
    chroma: () => {
      if (!chroma) throw new Error("Chroma is not started yet");
      return chroma;
    },
    workspace: async (files) => (ws = await makeTempWorkspace(files)),
    embeddings: async (decide) => {
      let n = 0;
      let embedded = 0;
      server = await startEmbeddingsServer({
        reply: (_req, inputs) => {
          const special = decide(++n, inputs);
          if (special) return special;
          if (!(inputs.length === 1 && inputs[0] === "dimension probe")) embedded += inputs.length;
          return { json: openAIAnswer(inputs, 8) };
        },
      });
      return { server, embedded: () => embedded };
    },
  };
}

/** `count` one-chunk modules (`src/m0.ts`…): more chunks than one embedding batch, so a build sends several requests. */
export function oneChunkModules(count: number, extension: "ts" | "js"): Record<string, string> {
  return Object.fromEntries(Array.from({ length: count }, (_, i) => [`src/m${i}.${extension}`, `/** Module ${i}. */\nexport const m${i} = () => ${i};\n`]));
}

/** A 429 that asks for a wait in milliseconds, as OpenAI's `retry-after-ms` does. */
export function rateLimited(ms: number, message = "Rate limit reached for tokens"): EmbeddingsReply {
  return { status: 429, json: { error: { message } }, headers: { "retry-after-ms": String(ms) } };
}
