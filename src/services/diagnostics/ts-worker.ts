import type * as TS from "typescript";
import { errorMessage } from "../../platform/error-info.js";

/**
 * The TypeScript language service process. It runs inside the sandbox (read-only workspace, no network) as
 * `node -e TS_WORKER_SOURCE <workspace>`, because the `typescript` it loads is the project's own code. The function
 * below is sent as its source text (Function.prototype.toString), so it must be self-contained: no imports, no
 * outer variables; Node's CommonJS `require` is passed in. Protocol: one JSON object per line each way.
 *
 *   → { id, type: "check", files: [{ file, before? }] }   before: the file's text before the change, null: it was new
 *   ← { id, ok: true, problems: Problem[] }               new problems in the files and their importers (3 hops)
 *   → { id, type: "project" }
 *   ← { id, ok: true, problems: Problem[], total }         every problem of the project
 *   ← { type: "ready", version } or { type: "unavailable", reason }, once at the start
 */
export interface WorkerProblem {
  /** Relative to the workspace. */
  file: string;
  line: number;
  col: number;
  code: string;
  message: string;
}

interface CheckFile {
  file: string;
  before?: string | null;
}

type Request = { id: number; type: "check"; files: CheckFile[] } | { id: number; type: "project" };

export function tsWorkerMain(req: NodeJS.Require, root: string): void {
  const fs = req("node:fs") as typeof import("node:fs");
  const path = req("node:path") as typeof import("node:path");
  const readline = req("node:readline") as typeof import("node:readline");
  const send = (message: unknown): void => {
    process.stdout.write(`${JSON.stringify(message)}\n`);
  };
  const inside = (file: string): boolean => {
    const rel = path.relative(root, file);
    return rel !== "" && !rel.startsWith("..") && !path.isAbsolute(rel);
  };

  // Only the project's own (node_modules/typescript at the workspace root, possibly a link): a typescript found in a
  // folder above the workspace is somebody else's, and ours is never used in its place.
  const tsPath = path.join(root, "node_modules", "typescript");
  if (!fs.existsSync(path.join(tsPath, "package.json"))) {
    send({ type: "unavailable", reason: "the project has no `typescript` package installed (node_modules/typescript)" });
    return;
  }
  const ts = req(tsPath) as typeof TS;

  const configPath = path.join(root, "tsconfig.json");
  let options: TS.CompilerOptions = {};
  let names: string[] = [];
  const loadConfig = (): void => {
    if (fs.existsSync(configPath)) {
      const read = ts.readConfigFile(configPath, (f) => ts.sys.readFile(f));
      const parsed = ts.parseJsonConfigFileContent(read.config ?? {}, ts.sys, root, undefined, configPath);
      options = { ...parsed.options, noEmit: true };
      names = parsed.fileNames;
    } else {
      // What an editor does for files outside any project: modern defaults, JavaScript allowed but not type-checked.
      options = {
        allowJs: true,
        noEmit: true,
        skipLibCheck: true,
        target: ts.ScriptTarget.ES2022,
        module: ts.ModuleKind.ESNext,
        moduleResolution: ts.ModuleResolutionKind.Bundler,
      };
      names = [];
    }
  };
  loadConfig();
  const known = new Set<string>();
  const extra = new Set<string>();
  const refreshKnown = (): void => {
    known.clear();
    for (const n of names) known.add(n);
  };
  refreshKnown();

  // The content a file had before a change, while its "before" problems are computed; null: it did not exist.
  const overrides = new Map<string, string | null>();
  let overrideEpoch = 0;
  const versionOf = (file: string): string => {
    if (overrides.has(file)) return `before:${overrideEpoch}`;
    try {
      const s = fs.statSync(file);
      // An atomic write is a new inode: caught even when the size and the clock tick are the same.
      return `${s.ino}:${s.mtimeMs}:${s.size}`;
    } catch {
      return "missing";
    }
  };
  const readText = (file: string): string | undefined => {
    if (overrides.has(file)) return overrides.get(file) ?? undefined;
    try {
      return fs.readFileSync(file, "utf8");
    } catch {
      return undefined;
    }
  };
  const host: TS.LanguageServiceHost = {
    getScriptFileNames: () => [...names, ...extra],
    getScriptVersion: versionOf,
    getScriptSnapshot: (file) => {
      const text = readText(file);
      return text === undefined ? undefined : ts.ScriptSnapshot.fromString(text);
    },
    getCurrentDirectory: () => root,
    getCompilationSettings: () => options,
    getDefaultLibFileName: (o) => ts.getDefaultLibFilePath(o),
    fileExists: (file) => (overrides.has(file) ? overrides.get(file) !== null : ts.sys.fileExists(file)),
    readFile: (file, encoding) => (overrides.has(file) ? (overrides.get(file) ?? undefined) : ts.sys.readFile(file, encoding)),
    readDirectory: (...args) => ts.sys.readDirectory(...args),
    directoryExists: (dir) => ts.sys.directoryExists(dir),
    getDirectories: (dir) => ts.sys.getDirectories(dir),
    realpath: (file) => (ts.sys.realpath ? ts.sys.realpath(file) : file),
  };
  const service = ts.createLanguageService(host, ts.createDocumentRegistry());

  const rel = (file: string): string => path.relative(root, file).split(path.sep).join("/");
  const problemsOf = (file: string): WorkerProblem[] => {
    const program = service.getProgram();
    if (!program?.getSourceFile(file)) return [];
    const found = [...service.getSyntacticDiagnostics(file), ...service.getSemanticDiagnostics(file)];
    return found
      .filter((d) => d.category === ts.DiagnosticCategory.Error || d.category === ts.DiagnosticCategory.Warning)
      .map((d) => {
        const where = d.file && d.start !== undefined ? d.file.getLineAndCharacterOfPosition(d.start) : { line: 0, character: 0 };
        const text = ts.flattenDiagnosticMessageText(d.messageText, " ").replace(/\s+/g, " ");
        return {
          file: rel(d.file?.fileName ?? file),
          line: where.line + 1,
          col: where.character + 1,
          code: `TS${d.code}`,
          message: text.length > 300 ? `${text.slice(0, 300)}…` : text,
        };
      });
  };

  // Which workspace files each file imports (resolved), cached per file version: the importers of a changed file.
  const importsCache = new Map<string, { version: string; targets: string[] }>();
  const moduleHost: TS.ModuleResolutionHost = {
    fileExists: host.fileExists,
    readFile: (f) => host.readFile(f),
    realpath: host.realpath,
    directoryExists: host.directoryExists,
  };
  const importsOf = (file: string, text: string): string[] => {
    const version = versionOf(file);
    const cached = importsCache.get(file);
    if (cached?.version === version) return cached.targets;
    const targets = ts
      .preProcessFile(text, true, true)
      .importedFiles.map((i) => ts.resolveModuleName(i.fileName, file, options, moduleHost).resolvedModule?.resolvedFileName)
      .filter((t): t is string => t !== undefined && inside(t) && !t.includes("/node_modules/"));
    importsCache.set(file, { version, targets });
    return targets;
  };
  const MAX_IMPORTERS = 30;
  // Importers of importers too: a barrel (`export * from "./math.js"`) has no error of its own when math.ts drops an
  // export, its importers do. Three hops cover chained barrels; nearer importers come first under the cap.
  const IMPORT_HOPS = 3;
  const importersOf = (changed: Set<string>): string[] => {
    const program = service.getProgram();
    if (!program) return [];
    const importers = new Map<string, string[]>();
    for (const sf of program.getSourceFiles()) {
      const f = sf.fileName;
      if (!inside(f) || f.includes("/node_modules/") || sf.isDeclarationFile) continue;
      for (const t of importsOf(f, sf.text)) {
        const list = importers.get(t);
        if (list) list.push(f);
        else importers.set(t, [f]);
      }
    }
    const found: string[] = [];
    const seen = new Set(changed);
    let hop = [...changed];
    for (let depth = 0; depth < IMPORT_HOPS && hop.length > 0; depth++) {
      const next: string[] = [];
      for (const target of hop) {
        for (const f of importers.get(target) ?? []) {
          if (seen.has(f)) continue;
          if (found.length >= MAX_IMPORTERS) return found;
          seen.add(f);
          found.push(f);
          next.push(f);
        }
      }
      hop = next;
    }
    return found;
  };

  const keyOf = (p: WorkerProblem): string => `${p.file}\0${p.code}\0${p.message}`;
  // The problems each file had after the last check: "new" is measured against them.
  const baseline = new Map<string, WorkerProblem[]>();
  const isCheckable = (file: string): boolean => /\.(?:[cm]?tsx?|[cm]?jsx?)$/.test(file) && !file.endsWith(".d.ts");

  const check = (files: CheckFile[]): WorkerProblem[] => {
    const changed = new Set<string>();
    for (const f of files) {
      const abs = path.resolve(root, f.file);
      if (!isCheckable(abs)) continue;
      changed.add(abs);
      if (!known.has(abs)) {
        // A new file: the config's file list is read again (it may include it); else it is checked with the project's options.
        loadConfig();
        refreshKnown();
        if (!known.has(abs)) extra.add(abs);
      }
    }
    if (changed.size === 0) return [];
    const targets = [...changed, ...importersOf(changed)];
    const missing = targets.filter((t) => !baseline.has(t));
    const befores = files.filter((f) => f.before !== undefined && changed.has(path.resolve(root, f.file)));
    if (missing.length > 0 && befores.length > 0) {
      overrideEpoch += 1;
      for (const f of befores) overrides.set(path.resolve(root, f.file), f.before ?? null);
      try {
        for (const t of missing) baseline.set(t, problemsOf(t));
      } finally {
        overrides.clear();
      }
    }
    const fresh: WorkerProblem[] = [];
    for (const t of targets) {
      const after = problemsOf(t);
      const seen = new Map<string, number>();
      for (const p of baseline.get(t) ?? []) seen.set(keyOf(p), (seen.get(keyOf(p)) ?? 0) + 1);
      for (const p of after) {
        const left = seen.get(keyOf(p)) ?? 0;
        if (left > 0) seen.set(keyOf(p), left - 1);
        else fresh.push(p);
      }
      baseline.set(t, after);
    }
    return fresh;
  };

  const project = (): WorkerProblem[] => {
    const program = service.getProgram();
    if (!program) return [];
    const all: WorkerProblem[] = service.getCompilerOptionsDiagnostics().map((d) => ({
      file: d.file ? rel(d.file.fileName) : "tsconfig.json",
      line: 1,
      col: 1,
      code: `TS${d.code}`,
      message: ts.flattenDiagnosticMessageText(d.messageText, " "),
    }));
    for (const sf of program.getSourceFiles()) {
      if (!inside(sf.fileName) || sf.fileName.includes("/node_modules/") || sf.isDeclarationFile) continue;
      const problems = problemsOf(sf.fileName);
      baseline.set(sf.fileName, problems);
      all.push(...problems);
    }
    return all;
  };

  send({ type: "ready", version: ts.version });
  const lines = readline.createInterface({ input: process.stdin });
  lines.on("line", (line) => {
    let request: Request;
    try {
      request = JSON.parse(line) as Request;
    } catch {
      return;
    }
    try {
      const problems = request.type === "check" ? check(request.files) : project();
      send({ id: request.id, ok: true, problems });
    } catch (error) {
      send({ id: request.id, ok: false, error: errorMessage(error) });
    }
  });
  // The session closed our stdin: nothing more to do.
  lines.on("close", () => process.exit(0));
}

/**
 * The program `node -e` runs: the function above, called with Node's require and the workspace. `__name` is the helper
 * esbuild inserts when it keeps function names (tsx, some test runs); outside the module it must exist here.
 */
export const TS_WORKER_SOURCE = `var __name = (f) => f;\n(${tsWorkerMain.toString()})(require, process.argv[1]);`;
