import fs from "node:fs";
import { ConfigError, parseConfigJson } from "../config-file.js";
import { projectConfigPath, userConfigPath } from "./env.js";
import { configFileSchema, type ConfigFile } from "./schema.js";
import { errorMessage } from "../error-info.js";

export { ConfigError };
export { envValue, memoryDataDir, projectConfigPath, userConfigPath } from "./env.js";

export interface ConfigFileLayer {
  path: string;
  /** The validated contents; null when there is no such file. */
  contents: ConfigFile | null;
}

/** Both config files, read and validated; the project file is absent without a workspace. */
export interface ConfigFiles {
  user: ConfigFileLayer;
  project?: ConfigFileLayer;
}

function readLayer(file: string): ConfigFileLayer {
  let text: string;
  try {
    text = fs.readFileSync(file, "utf8");
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    // No file there (or no folder for it) is the normal case; anything else would silently drop rules.
    if (code === "ENOENT" || code === "ENOTDIR") return { path: file, contents: null };
    throw new ConfigError(`${file} cannot be read (${code ?? errorMessage(error)})`);
  }
  return { path: file, contents: parseConfigJson(file, text, configFileSchema) };
}

/** The only place config files are read. Throws ConfigError naming the file. */
export function loadConfigFiles(env: NodeJS.ProcessEnv, workspace?: string): ConfigFiles {
  const user = readLayer(userConfigPath(env));
  return workspace === undefined ? { user } : { user, project: readLayer(projectConfigPath(workspace)) };
}

/** The layers that have a file, most important first (project, then user). */
export function presentLayers(files: ConfigFiles): { path: string; contents: ConfigFile }[] {
  return [files.project, files.user].flatMap((layer) => (layer?.contents ? [{ path: layer.path, contents: layer.contents }] : []));
}
