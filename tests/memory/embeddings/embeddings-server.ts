/**
 * A real OpenAI-compatible embeddings server on 127.0.0.1 (port chosen by the OS) for tests. It implements
 * `POST /v1/embeddings`, records every request, and answers through the test's `reply` function; the default
 * reply gives each input a deterministic vector of `dimension` numbers derived from its text.
 */
import http from "node:http";
import type { AddressInfo } from "node:net";

export interface EmbeddingsRequest {
  path: string;
  authorization: string | undefined;
  body: { model?: unknown; input?: unknown; encoding_format?: unknown };
}

export type EmbeddingsReply =
  | { status?: number; json: unknown; headers?: Record<string, string> }
  | { status: number; text: string; headers?: Record<string, string> }
  /** Never answer (the socket is destroyed when the server closes). */
  | { hang: true };

export interface EmbeddingsServer {
  /** e.g. `http://127.0.0.1:PORT/v1` */
  baseUrl: string;
  requests: EmbeddingsRequest[];
  close(): Promise<void>;
}

/** The vector the default reply gives a text: stable, and different for different texts. */
export function fakeVector(text: string, dimension: number): number[] {
  return Array.from({ length: dimension }, (_, i) => (text.charCodeAt(i % Math.max(1, text.length)) || 1) / (i + 1));
}

export function openAIAnswer(inputs: string[], dimension: number): unknown {
  return {
    object: "list",
    model: "fake-embedder",
    data: inputs.map((text, index) => ({ object: "embedding", index, embedding: fakeVector(text, dimension) })),
    usage: { prompt_tokens: 1, total_tokens: 1 },
  };
}

function inputsOf(body: EmbeddingsRequest["body"]): string[] {
  if (typeof body.input === "string") return [body.input];
  if (Array.isArray(body.input)) return body.input.map(String);
  return [];
}

export async function startEmbeddingsServer(
  options: { dimension?: number; reply?: (req: EmbeddingsRequest, inputs: string[]) => EmbeddingsReply } = {},
): Promise<EmbeddingsServer> {
  const dimension = options.dimension ?? 8;
  const reply = options.reply ?? ((_req, inputs): EmbeddingsReply => ({ json: openAIAnswer(inputs, dimension) }));
  const requests: EmbeddingsRequest[] = [];

  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      if (req.method !== "POST" || req.url !== "/v1/embeddings") {
        res.writeHead(404, { "content-type": "application/json" });
        res.end(JSON.stringify({ error: { message: `no route ${req.method} ${req.url}` } }));
        return;
      }
      let body: EmbeddingsRequest["body"] = {};
      try {
        const parsed: unknown = JSON.parse(Buffer.concat(chunks).toString("utf8"));
        if (typeof parsed === "object" && parsed !== null) body = parsed;
      } catch {
        // Recorded with an empty body; the test's assertions will say so.
      }
      const request: EmbeddingsRequest = { path: req.url, authorization: req.headers.authorization, body };
      requests.push(request);
      const answer = reply(request, inputsOf(body));
      if ("hang" in answer) return;
      if ("text" in answer) {
        res.writeHead(answer.status, { "content-type": "text/plain", ...answer.headers });
        res.end(answer.text);
        return;
      }
      res.writeHead(answer.status ?? 200, { "content-type": "application/json", ...answer.headers });
      res.end(JSON.stringify(answer.json));
    });
  });

  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  let closed = false;
  return {
    baseUrl: `http://127.0.0.1:${port}/v1`,
    requests,
    close: async () => {
      if (closed) return;
      closed = true;
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
