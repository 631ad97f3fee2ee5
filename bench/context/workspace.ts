import fs from "node:fs/promises";
import os from "node:os";
import path from "node:path";

/**
 * The fixture of the context-budget benchmark: a real temp project with 25 source files of 6–12 KB each and a
 * `print.js` that prints about 30 KB of test-runner-like output (different for every argument).
 */
export const SOURCE_FILES = 25;

export function sourcePath(i: number): string {
  return `src/mod${String(i).padStart(2, "0")}.js`;
}

const NOUNS = ["header", "payload", "token", "route", "record", "buffer", "session", "option", "schema", "entry"];
const VERBS = ["parse", "normalize", "validate", "resolve", "format", "merge", "encode", "split"];

function pick<T>(list: readonly T[], n: number): T {
  return list[n % list.length] as T;
}

function capital(word: string): string {
  return `${word.charAt(0).toUpperCase()}${word.slice(1)}`;
}

/** Deterministic JavaScript of 6–12 KB (whole functions, so the last one is never cut). */
export function sourceText(i: number): string {
  const target = 6_000 + ((i * 2_473) % 5_400);
  let text = `// ${sourcePath(i)}: module ${i} of the bench fixture.\nimport { strict as assert } from "node:assert";\n\nconst DEFAULT_LIMIT_${i} = ${100 + i};\n`;
  for (let f = 0; text.length < target; f++) {
    const noun = pick(NOUNS, i + f);
    const verb = pick(VERBS, i * 3 + f);
    const name = `${verb}${capital(noun)}${f}`;
    text += `
/**
 * ${capital(verb)}s the ${noun} of a module-${i} request and returns a new object; never mutates its input.
 * TODO(bench): decide what an empty ${noun} should return (module ${i}, function ${f}).
 */
export function ${name}(input, options = {}) {
  const limit = options.limit ?? DEFAULT_LIMIT_${i};
  if (input === null || typeof input !== "object") throw new Error("${name}: expected an object, got " + typeof input);
  const entries = Object.entries(input).slice(0, limit);
  const out = {};
  for (const [key, value] of entries) out[key.trim().toLowerCase()] = typeof value === "string" ? value.trim() : value;
  assert.ok(Object.keys(out).length <= limit, "${name}: too many keys");
  return { ...out, ${noun}: out.${noun} ?? ${f * 7 + i} };
}
`;
  }
  return text;
}

/** Prints about 30 KB of test-runner-like output; the argument changes every line, so no two runs are equal. */
const PRINT_JS = `const run = Number(process.argv[2] ?? "1");
let out = "";
for (let i = 0; out.length < 30000; i++) {
  const mod = String((i * 7 + run) % ${SOURCE_FILES} + 1).padStart(2, "0");
  out += "[run " + run + "] ok " + String(i + 1).padStart(4, "0") + " src/mod" + mod + ".js > case " + ((i * 31 + run * 17) % 997) + " passed in " + ((i * 13 + run) % 90) + " ms (assertions: " + ((i + run) % 9 + 1) + ")\\n";
}
process.stdout.write(out + "[run " + run + "] " + out.split("\\n").length + " cases, 0 failed\\n");
`;

export async function makeContextWorkspace(): Promise<string> {
  const root = await fs.realpath(await fs.mkdtemp(path.join(os.tmpdir(), "mc-bench-context-")));
  await fs.mkdir(path.join(root, "src"));
  await fs.writeFile(path.join(root, "package.json"), '{"name":"bench-context","type":"module","scripts":{"test":"node print.js 1"}}\n');
  await fs.writeFile(path.join(root, "print.js"), PRINT_JS);
  for (let i = 1; i <= SOURCE_FILES; i++) await fs.writeFile(path.join(root, sourcePath(i)), sourceText(i));
  return root;
}
