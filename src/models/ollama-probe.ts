import { z } from "zod";

const tagsSchema = z.object({ models: z.array(z.object({ name: z.string() })).default([]) });

/** Ask a local Ollama for its models; null when nothing (valid) answers quickly. */
export async function probeOllama(baseUrl: string, timeoutMs = 800): Promise<string[] | null> {
  try {
    const res = await fetch(`${baseUrl}/api/tags`, { signal: AbortSignal.timeout(timeoutMs) });
    if (!res.ok) return null;
    const parsed = tagsSchema.safeParse(await res.json());
    return parsed.success ? parsed.data.models.map((m) => m.name) : null;
  } catch {
    return null;
  }
}
