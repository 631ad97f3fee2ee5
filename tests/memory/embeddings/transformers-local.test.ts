import { describe, expect, it } from "vitest";
import {
  createTransformersEmbedder,
  type FeatureExtractor,
  type FeatureTensor,
  type TransformersModule,
} from "../../../src/memory/embeddings/transformers-local.js";
import { embedderError } from "./embedder-error.js";

/**
 * The transformers.js embedder with the package replaced by a fake: what it does around the library (loading once,
 * batches, errors). The real library and a real model run in transformers-local.int.test.ts.
 */

interface FakeOptions {
  /** What pipeline() does; by default a model whose vector for a text is [text length, 1]. */
  pipeline?: () => Promise<FeatureExtractor>;
}

function fakeModule(options: FakeOptions = {}) {
  const calls = { pipeline: 0, batches: [] as string[][] };
  const extractor: FeatureExtractor = async (texts) => {
    calls.batches.push(texts);
    const tensor: FeatureTensor = { dims: [texts.length, 2], data: Float32Array.from(texts.flatMap((t) => [t.length, 1])) };
    return tensor;
  };
  const module: TransformersModule = {
    env: {
      cacheDir: null,
      localModelPath: "/pkg/models/",
      allowLocalModels: true,
      allowRemoteModels: true,
      remoteHost: "https://huggingface.co/",
      logLevel: 30,
    },
    async pipeline() {
      calls.pipeline++;
      return options.pipeline ? options.pipeline() : extractor;
    },
  };
  return { module, calls };
}

describe("createTransformersEmbedder", () => {
  it("says in one line how to install the package when it is missing", async () => {
    const missing = Object.assign(
      new Error("Cannot find package '@huggingface/transformers' imported from /usr/lib/node_modules/mini-cursor/dist/app/chunk.js"),
      {
        code: "ERR_MODULE_NOT_FOUND",
      },
    );
    const embedder = createTransformersEmbedder({ model: "Xenova/all-MiniLM-L6-v2", cacheDir: "/cache", importer: () => Promise.reject(missing) });
    const error = await embedderError(embedder.embedQuery("hello"));
    expect(error.message).toContain("npm install -g @huggingface/transformers");
    expect(error.message).toContain("MINI_CURSOR_EMBEDDINGS=transformers");
    expect(error.message).not.toContain("\n");
    expect(error.transient).toBe(false);
  });

  it("tells a broken install (a dependency that does not load) from a missing one", async () => {
    const broken = Object.assign(new Error("Cannot find module '/x/onnxruntime_binding.node'\nRequire stack:\n- /x/binding.js"), { code: "MODULE_NOT_FOUND" });
    const embedder = createTransformersEmbedder({ model: "m", cacheDir: "/cache", importer: () => Promise.reject(broken) });
    const error = await embedderError(embedder.embedQuery("hello"));
    expect(error.message).toBe("cannot load @huggingface/transformers (reinstall it?): Cannot find module '/x/onnxruntime_binding.node'");
  });

  it("loads the model once for concurrent callers, into the cache folder from the host it is given", async () => {
    const { module, calls } = fakeModule();
    const embedder = createTransformersEmbedder({
      model: "org/model",
      cacheDir: "/cache/models",
      remoteHost: "http://mirror.local:8080",
      importer: async () => module,
    });
    expect(embedder.id).toBe("transformers:org/model");
    expect(embedder.knownDimension?.()).toBeUndefined();
    const [a, b] = await Promise.all([embedder.embedQuery("abc"), embedder.embedDocuments(["a", "bb"])]);
    expect(calls.pipeline).toBe(1);
    expect(a).toEqual([3, 1]);
    expect(b).toEqual([
      [1, 1],
      [2, 1],
    ]);
    expect(module.env).toMatchObject({ cacheDir: "/cache/models", remoteHost: "http://mirror.local:8080/", allowRemoteModels: true, allowLocalModels: false });
    expect(embedder.knownDimension?.()).toBe(2);
    expect(await embedder.dimension()).toBe(2);
  });

  it("without downloads reads the cache folder as the local model folder", async () => {
    const { module } = fakeModule();
    const embedder = createTransformersEmbedder({ model: "m", cacheDir: "/cache/models", allowDownload: false, importer: async () => module });
    await embedder.embedQuery("x");
    expect(module.env).toMatchObject({ allowRemoteModels: false, allowLocalModels: true, localModelPath: "/cache/models" });
  });

  it("embeds documents in batches, in order", async () => {
    const { module, calls } = fakeModule();
    const embedder = createTransformersEmbedder({ model: "m", cacheDir: "/c", batchSize: 2, importer: async () => module });
    const vectors = await embedder.embedDocuments(["a", "bb", "ccc", "dddd", "eeeee"]);
    expect(vectors.map((v) => v[0])).toEqual([1, 2, 3, 4, 5]);
    expect(calls.batches).toEqual([["a", "bb"], ["ccc", "dddd"], ["eeeee"]]);
    expect(await embedder.embedDocuments([])).toEqual([]);
  });

  it("names the model and the host when the model cannot be downloaded; a network failure is transient and retried next call", async () => {
    let attempt = 0;
    const { module, calls } = fakeModule({
      pipeline: async () => {
        attempt++;
        if (attempt === 1) throw new TypeError("fetch failed", { cause: new Error("getaddrinfo ENOTFOUND huggingface.co") });
        const notFound = new Error('Could not locate file: "https://huggingface.co/org/nope/resolve/main/config.json".');
        notFound.name = "ModelFileNotFoundError";
        throw notFound;
      },
    });
    const embedder = createTransformersEmbedder({ model: "org/nope", cacheDir: "/c", importer: async () => module });
    const offline = await embedderError(embedder.embedQuery("x"));
    expect(offline.message).toBe(
      'transformers embedder: cannot download model "org/nope" from https://huggingface.co/ (cannot reach it: getaddrinfo ENOTFOUND huggingface.co)',
    );
    expect(offline.transient).toBe(true);
    const missing = await embedderError(embedder.embedQuery("x"));
    expect(calls.pipeline).toBe(2);
    expect(missing.message).toContain('model "org/nope" is not available from https://huggingface.co/');
    expect(missing.transient).toBe(false);
  });

  it("refuses an answer of the wrong shape rather than storing it", async () => {
    const { module } = fakeModule({ pipeline: async () => async () => ({ dims: [1, 4], data: [1, 2] }) });
    const embedder = createTransformersEmbedder({ model: "m", cacheDir: "/c", importer: async () => module });
    expect((await embedderError(embedder.embedQuery("x"))).message).toContain("2 values for shape [1, 4]");
  });
});
