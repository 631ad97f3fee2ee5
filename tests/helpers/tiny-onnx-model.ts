/**
 * A tiny BERT-like feature-extraction model, built at test time (nothing binary is committed), for the transformers.js
 * embedder's tests: a real ONNX graph that ONNX Runtime runs and a real WordPiece tokenizer, small enough to write by
 * hand. Its one node is Gather(embeddings, input_ids) -> last_hidden_state: every token's vector is a row of a table
 * where synonyms share a direction ("login", "authenticate", "sign", "in" all point along dimension 0), so mean pooling
 * and normalising give the same vector for "login please" and "authenticate user". Unknown and special tokens get a
 * small value on the last dimension, which keeps every vector non-zero.
 *
 * The ONNX file is a protobuf ModelProto written with the few protobuf encodings it needs (varints, length-delimited
 * fields). Field numbers from onnx/onnx.proto (IR version 8, opset 13):
 *   ModelProto: ir_version = 1, producer_name = 2, graph = 7, opset_import = 8
 *   OperatorSetIdProto: domain = 1, version = 2
 *   GraphProto: node = 1, name = 2, initializer = 5, input = 11, output = 12
 *   NodeProto: input = 1, output = 2, name = 3, op_type = 4, attribute = 5
 *   AttributeProto: name = 1, i = 3, type = 20 (AttributeType INT = 2)
 *   TensorProto: dims = 1, data_type = 2 (FLOAT = 1, INT64 = 7), name = 8, raw_data = 9 (little-endian)
 *   ValueInfoProto: name = 1, type = 2
 *   TypeProto: tensor_type = 1; TypeProto.Tensor: elem_type = 1, shape = 2
 *   TensorShapeProto: dim = 1; Dimension: dim_value = 1, dim_param = 2
 */
import { mkdir, writeFile } from "node:fs/promises";
import path from "node:path";

/** Protobuf wire types used here: 0 varint, 2 length-delimited. */
const VARINT = 0;
const LENGTH_DELIMITED = 2;

function varint(value: number): Buffer {
  const out: number[] = [];
  let rest = BigInt(value);
  do {
    let byte = Number(rest & 0x7fn);
    rest >>= 7n;
    if (rest > 0n) byte |= 0x80;
    out.push(byte);
  } while (rest > 0n);
  return Buffer.from(out);
}

const tag = (field: number, wire: number): Buffer => varint((field << 3) | wire);
const intField = (field: number, value: number): Buffer => Buffer.concat([tag(field, VARINT), varint(value)]);

function bytesField(field: number, value: string | Uint8Array): Buffer {
  const body = typeof value === "string" ? Buffer.from(value, "utf8") : Buffer.from(value);
  return Buffer.concat([tag(field, LENGTH_DELIMITED), varint(body.length), body]);
}

const message = (field: number, ...parts: Buffer[]): Buffer => bytesField(field, Buffer.concat(parts));

const FLOAT = 1;
const INT64 = 7;
const ATTRIBUTE_INT = 2;

/** The tokenizer's words, in id order; the first four are BERT's special tokens. */
export const TINY_VOCAB = ["[PAD]", "[UNK]", "[CLS]", "[SEP]", "login", "authenticate", "sign", "in", "session", "cookie", "render", "draw", "paint", "button"];

/** Which dimension each known word points along: words of one group are synonyms to this model. */
export const TINY_GROUPS: Readonly<Record<string, number>> = {
  login: 0,
  authenticate: 0,
  sign: 0,
  in: 0,
  session: 1,
  cookie: 1,
  render: 2,
  draw: 2,
  paint: 2,
  button: 3,
};

export const TINY_DIMENSION = 8;

function embeddingTable(): Float32Array {
  const table = new Float32Array(TINY_VOCAB.length * TINY_DIMENSION);
  TINY_VOCAB.forEach((word, id) => {
    const group = TINY_GROUPS[word];
    table[id * TINY_DIMENSION + (group ?? TINY_DIMENSION - 1)] = group === undefined ? 0.01 : 1;
  });
  return table;
}

function tensorValue(field: number, name: string, elemType: number, dims: Buffer[]): Buffer {
  const shape = message(2, ...dims);
  return message(field, bytesField(1, name), message(2, message(1, intField(1, elemType), shape)));
}

const symbolicDim = (name: string): Buffer => message(1, bytesField(2, name));
const fixedDim = (size: number): Buffer => message(1, intField(1, size));

/** The ONNX ModelProto bytes. */
export function tinyOnnxModel(): Buffer {
  const table = embeddingTable();
  const initializer = message(
    5,
    intField(1, TINY_VOCAB.length),
    intField(1, TINY_DIMENSION),
    intField(2, FLOAT),
    bytesField(8, "embeddings"),
    bytesField(9, new Uint8Array(table.buffer, table.byteOffset, table.byteLength)),
  );
  const gather = message(
    1,
    bytesField(1, "embeddings"),
    bytesField(1, "input_ids"),
    bytesField(2, "last_hidden_state"),
    bytesField(3, "gather"),
    bytesField(4, "Gather"),
    message(5, bytesField(1, "axis"), intField(3, 0), intField(20, ATTRIBUTE_INT)),
  );
  const batchAndSequence = (): Buffer[] => [symbolicDim("batch"), symbolicDim("sequence")];
  const graph = message(
    7,
    gather,
    bytesField(2, "tiny"),
    initializer,
    tensorValue(11, "input_ids", INT64, batchAndSequence()),
    // Declared, unused: transformers.js feeds what the graph lists, and a BERT model takes a mask.
    tensorValue(11, "attention_mask", INT64, batchAndSequence()),
    tensorValue(12, "last_hidden_state", FLOAT, [...batchAndSequence(), fixedDim(TINY_DIMENSION)]),
  );
  return Buffer.concat([intField(1, 8), bytesField(2, "mini-cursor-tests"), graph, message(8, bytesField(1, ""), intField(2, 13))]);
}

function tokenizerJson(): unknown {
  const special = TINY_VOCAB.slice(0, 4).map((content, id) => ({
    id,
    content,
    single_word: false,
    lstrip: false,
    rstrip: false,
    normalized: false,
    special: true,
  }));
  return {
    version: "1.0",
    truncation: null,
    padding: null,
    added_tokens: special,
    normalizer: { type: "BertNormalizer", clean_text: true, handle_chinese_chars: true, strip_accents: null, lowercase: true },
    pre_tokenizer: { type: "BertPreTokenizer" },
    post_processor: { type: "BertProcessing", sep: ["[SEP]", 3], cls: ["[CLS]", 2] },
    decoder: { type: "WordPiece", prefix: "##", cleanup: true },
    model: {
      type: "WordPiece",
      unk_token: "[UNK]",
      continuing_subword_prefix: "##",
      max_input_chars_per_word: 100,
      vocab: Object.fromEntries(TINY_VOCAB.map((word, id) => [word, id])),
    },
  };
}

/** The model's files by their path in a hub repository (what transformers.js asks for), with their contents. */
export function tinyModelFiles(): Map<string, Buffer> {
  const json = (value: unknown): Buffer => Buffer.from(`${JSON.stringify(value, null, 2)}\n`);
  return new Map([
    ["config.json", json({ model_type: "bert", hidden_size: TINY_DIMENSION, vocab_size: TINY_VOCAB.length })],
    [
      "tokenizer_config.json",
      // The special tokens by name: padding a batch of texts of different lengths needs pad_token.
      json({
        tokenizer_class: "BertTokenizer",
        do_lower_case: true,
        model_max_length: 64,
        pad_token: "[PAD]",
        unk_token: "[UNK]",
        cls_token: "[CLS]",
        sep_token: "[SEP]",
      }),
    ],
    ["tokenizer.json", json(tokenizerJson())],
    ["onnx/model.onnx", tinyOnnxModel()],
  ]);
}

/** Writes the model's files under `dir` (as a local model folder); returns `dir`. */
export async function writeTinyModel(dir: string): Promise<string> {
  for (const [file, contents] of tinyModelFiles()) {
    await mkdir(path.dirname(path.join(dir, file)), { recursive: true });
    await writeFile(path.join(dir, file), contents);
  }
  return dir;
}
