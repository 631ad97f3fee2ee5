import { randomBytes } from "node:crypto";
import { promises as fs } from "node:fs";
import path from "node:path";
import { errorCode } from "./tool-result.js";

export interface AtomicWriteResult {
  /** True when the file did not exist before. */
  created: boolean;
  /** Size before the write (0 when created). */
  previousBytes: number;
  bytes: number;
}

/**
 * Writes `content` to `abs` so readers see either the old or the new file, never half of one: the data goes
 * to a temporary file in the same folder (same filesystem, so rename is atomic) and is then renamed over
 * the target. Parent folders are created. An existing file keeps its permission bits.
 */
export async function atomicWriteFile(abs: string, content: string): Promise<AtomicWriteResult> {
  const dir = path.dirname(abs);
  await fs.mkdir(dir, { recursive: true });
  let previous: { mode: number; size: number } | undefined;
  try {
    const stat = await fs.stat(abs);
    previous = { mode: stat.mode & 0o7777, size: stat.size };
  } catch (error) {
    if (errorCode(error) !== "ENOENT") throw error;
  }
  const temp = path.join(dir, `.${path.basename(abs)}.${process.pid}.${randomBytes(6).toString("hex")}.tmp`);
  const data = Buffer.from(content, "utf8");
  try {
    const handle = await fs.open(temp, "wx", previous?.mode ?? 0o666);
    try {
      await handle.writeFile(data);
      // The rename must not land before the data does, or a crash could leave an empty file.
      await handle.sync();
      if (previous) await handle.chmod(previous.mode);
    } finally {
      await handle.close();
    }
    await fs.rename(temp, abs);
  } catch (error) {
    await fs.rm(temp, { force: true });
    throw error;
  }
  return { created: previous === undefined, previousBytes: previous?.size ?? 0, bytes: data.length };
}
