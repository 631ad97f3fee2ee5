/**
 * A sentence-embedding model run in this process by transformers.js (`@huggingface/transformers`, on ONNX Runtime).
 * The package is an optional peer dependency (it brings about 475 MB of ONNX Runtime): a user who wants it installs
 * it beside mini-cursor, and it is imported here, on first use, only when this embedder is chosen.
 *
 * The model is downloaded on first use from the Hugging Face Hub (or `remoteHost`, e.g. a mirror from HF_ENDPOINT)
 * into `cacheDir`, laid out as `<cacheDir>/<model>/<file>`, and read from there afterwards without asking the host.
 * Vectors are the mean of the token vectors, normalised (what sentence-transformers models are trained for).
 *
 * transformers.js keeps its settings (`env`) in one object per process: they are set before each load, so two
 * embedders with different caches or hosts in one process work as long as their first loads do not overlap.
 */
import { logger } from "../../platform/logger.js";
import { sharedAttempt } from "../../platform/shared-attempt.js";
import { EmbedderError, type Embedder } from "./types.js";

export const TRANSFORMERS_PACKAGE = "@huggingface/transformers";
export const HUGGING_FACE_HUB = "https://huggingface.co/";

/** The vectors a feature-extraction pipeline returns: a [texts, dimension] tensor, row after row in `data`. */
export interface FeatureTensor {
  readonly dims: readonly number[];
  readonly data: ArrayLike<number>;
}

export type FeatureExtractor = (texts: string[], options: { pooling: "mean"; normalize: boolean }) => Promise<FeatureTensor>;

/** The part of `@huggingface/transformers` this embedder uses. */
export interface TransformersModule {
  env: { cacheDir: string | null; localModelPath: string; allowLocalModels: boolean; allowRemoteModels: boolean; remoteHost: string; logLevel: number };
  pipeline(task: "feature-extraction", model: string, options: { dtype: "fp32"; cache_dir: string; local_files_only: boolean }): Promise<FeatureExtractor>;
}

export interface TransformersEmbedderOptions {
  /** A Hub model id with an ONNX export, e.g. `Xenova/all-MiniLM-L6-v2`. */
  model: string;
  /** Where downloaded models are kept. */
  cacheDir: string;
  /** Where models are downloaded from; the Hugging Face Hub by default. */
  remoteHost?: string;
  /** false: use the model only if it is already in `cacheDir`, never download (the bench). Default true. */
  allowDownload?: boolean;
  /**
   * Texts per run of the model. Default 8: attention takes batch × heads × tokens² floats per layer (all-MiniLM-L6-v2,
   * 12 heads, chunks cut at 512 tokens: about 12 MB a text), so a large batch raises peak memory for no speed.
   */
  batchSize?: number;
  /** Loads the package; tests pass their own. */
  importer?: () => Promise<TransformersModule>;
}

const DEFAULT_BATCH_SIZE = 8;

async function importTransformers(): Promise<TransformersModule> {
  const transformers = await import("@huggingface/transformers");
  return {
    env: transformers.env,
    async pipeline(task, model, options) {
      const extractor = await transformers.pipeline(task, model, options);
      return async (texts, callOptions) => extractor(texts, callOptions);
    },
  };
}

function firstLine(error: unknown): string {
  const text = error instanceof Error ? error.message : String(error);
  const line = text.split("\n").find((l) => l.trim() !== "") ?? "";
  return line.length > 300 ? `${line.slice(0, 300)}…` : line.trim() || "(no message)";
}

function isMissingModule(error: unknown): boolean {
  return error instanceof Error && "code" in error && (error.code === "ERR_MODULE_NOT_FOUND" || error.code === "MODULE_NOT_FOUND");
}

/** The package could not be imported: not installed (one line on how to install it), or installed but broken. */
function importFailure(error: unknown): EmbedderError {
  if (isMissingModule(error) && firstLine(error).includes(TRANSFORMERS_PACKAGE)) {
    return new EmbedderError(
      `MINI_CURSOR_EMBEDDINGS=transformers needs the ${TRANSFORMERS_PACKAGE} package, which is not installed: ` +
        `npm install -g ${TRANSFORMERS_PACKAGE} (beside a global mini-cursor), or npm install ${TRANSFORMERS_PACKAGE} in mini-cursor's folder`,
      { cause: error },
    );
  }
  return new EmbedderError(`cannot load ${TRANSFORMERS_PACKAGE} (reinstall it?): ${firstLine(error)}`, { cause: error });
}

/** transformers.js's messages for HTTP statuses a later attempt may not meet (timeouts, an overloaded host). */
const TRANSIENT_HTTP = /request timeout|internal server error|bad gateway|service unavailable|gateway timeout|error \((408|425|429|5\d\d)\)/i;

/** A failed model load: the model and host named, transient when the host could not be reached or was busy. */
function loadFailure(error: unknown, model: string, host: string, cacheDir: string, allowDownload: boolean): EmbedderError {
  const why = firstLine(error);
  if (!allowDownload) {
    return new EmbedderError(`transformers embedder: model "${model}" is not in the cache ${cacheDir} (downloads are off): ${why}`, { cause: error });
  }
  // fetch() itself failed: no connection (offline, DNS, refused, reset).
  if (error instanceof TypeError && why === "fetch failed") {
    const cause = error.cause instanceof Error ? `: ${error.cause.message}` : "";
    return new EmbedderError(`transformers embedder: cannot download model "${model}" from ${host} (cannot reach it${cause})`, {
      cause: error,
      transient: true,
    });
  }
  if (error instanceof Error && error.name === "ModelFileNotFoundError") {
    return new EmbedderError(`transformers embedder: model "${model}" is not available from ${host} (${why})`, { cause: error });
  }
  return new EmbedderError(`transformers embedder: cannot load model "${model}" from ${host} or the cache ${cacheDir}: ${why}`, {
    cause: error,
    transient: TRANSIENT_HTTP.test(why),
  });
}

function rowsOf(tensor: FeatureTensor, expected: number): number[][] | string {
  const [rows, dimension] = tensor.dims;
  if (tensor.dims.length !== 2 || rows === undefined || dimension === undefined)
    return `a tensor of shape [${tensor.dims.join(", ")}], expected [texts, dimension]`;
  if (rows !== expected) return `${rows} vectors for ${expected} texts`;
  if (dimension < 1 || tensor.data.length !== rows * dimension) return `${tensor.data.length} values for shape [${rows}, ${dimension}]`;
  const out: number[][] = [];
  for (let row = 0; row < rows; row++) out.push(Array.from({ length: dimension }, (_, i) => Number(tensor.data[row * dimension + i])));
  if (out.some((vector) => vector.some((x) => !Number.isFinite(x)))) return "a vector with a value that is not a finite number";
  return out;
}

export function createTransformersEmbedder(options: TransformersEmbedderOptions): Embedder {
  const { model, cacheDir } = options;
  const host = options.remoteHost ? `${options.remoteHost.replace(/\/+$/, "")}/` : HUGGING_FACE_HUB;
  const allowDownload = options.allowDownload ?? true;
  const batchSize = options.batchSize ?? DEFAULT_BATCH_SIZE;
  const importer = options.importer ?? importTransformers;
  if (!model) throw new EmbedderError("transformers embedder: a model name is required");
  if (!Number.isInteger(batchSize) || batchSize < 1) throw new EmbedderError(`transformers embedder: batchSize must be a positive integer, got ${batchSize}`);

  let knownDimension: number | undefined;

  async function load(): Promise<FeatureExtractor> {
    let transformers: TransformersModule;
    try {
      transformers = await importer();
    } catch (error) {
      throw importFailure(error);
    }
    const { env } = transformers;
    env.cacheDir = cacheDir;
    env.remoteHost = host;
    // Only the cache and the host: never the package's own `models/` folder. Without downloads the cache folder is the
    // local model folder (its layout is the same), which transformers.js reads with local_files_only.
    env.allowRemoteModels = allowDownload;
    env.allowLocalModels = !allowDownload;
    if (!allowDownload) env.localModelPath = cacheDir;
    // Errors are ours to report, once, in one line; its warnings would go to the terminal under a live view.
    env.logLevel = 40;
    logger.debug(`loading embedding model "${model}" (cache ${cacheDir}${allowDownload ? `, downloads from ${host}` : ", no downloads"})`);
    try {
      return await transformers.pipeline("feature-extraction", model, { dtype: "fp32", cache_dir: cacheDir, local_files_only: !allowDownload });
    } catch (error) {
      throw loadFailure(error, model, host, cacheDir, allowDownload);
    }
  }

  /** The model, loaded once; a failed load is not kept, so the next call tries again (a network that came back). */
  const extractor = sharedAttempt(load);

  async function run(texts: string[]): Promise<number[][]> {
    const extract = await extractor();
    let tensor: FeatureTensor;
    try {
      tensor = await extract(texts, { pooling: "mean", normalize: true });
    } catch (error) {
      throw new EmbedderError(`transformers embedder (model "${model}") failed: ${firstLine(error)}`, { cause: error });
    }
    const vectors = rowsOf(tensor, texts.length);
    if (typeof vectors === "string") throw new EmbedderError(`transformers embedder (model "${model}"): unexpected output, ${vectors}`);
    const length = vectors[0]?.length ?? 0;
    if (knownDimension !== undefined && length !== knownDimension) {
      throw new EmbedderError(`transformers embedder (model "${model}"): vectors of length ${length}, earlier ones had ${knownDimension}`);
    }
    knownDimension = length;
    return vectors;
  }

  async function embedDocuments(texts: string[]): Promise<number[][]> {
    const out: number[][] = [];
    for (let start = 0; start < texts.length; start += batchSize) out.push(...(await run(texts.slice(start, start + batchSize))));
    return out;
  }

  const probeDimension = sharedAttempt(async () => (await run(["dimension probe"]))[0]?.length ?? 0);

  return {
    id: `transformers:${model}`,
    knownDimension: () => knownDimension,
    dimension: async () => knownDimension ?? probeDimension(),
    embedDocuments,
    async embedQuery(text) {
      const [vector] = await run([text]);
      if (!vector) throw new EmbedderError(`transformers embedder (model "${model}"): no vector for the query`);
      return vector;
    },
  };
}
