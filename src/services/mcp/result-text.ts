/**
 * An MCP tool result as text for the model: text parts joined, resource links as `resource: uri (name)`, embedded
 * resources by their text, images and audio as a short note (the model gets no pixels), structured content as JSON
 * when nothing else says anything. Capped at `limit` characters, keeping the head and the tail.
 */

type Part = Record<string, unknown>;

function str(value: unknown): string {
  return typeof value === "string" ? value : "";
}

/** Base64 is 4 characters for 3 bytes. */
function sizeOf(base64: string): string {
  const bytes = Math.floor((base64.length * 3) / 4);
  return bytes >= 1024 ? `${Math.round(bytes / 1024)} KB` : `${bytes} B`;
}

function partText(part: Part): string {
  switch (part.type) {
    case "text":
      return str(part.text);
    case "image":
    case "audio":
      return `[${part.type}: ${str(part.mimeType) || "unknown type"}, ${sizeOf(str(part.data))}]`;
    case "resource_link":
      return `resource: ${str(part.uri)}${part.name ? ` (${str(part.name)})` : ""}`;
    case "resource": {
      const resource = (typeof part.resource === "object" && part.resource !== null ? part.resource : {}) as Part;
      const text = str(resource.text);
      if (text) return `resource ${str(resource.uri)}:\n${text}`;
      return `[resource ${str(resource.uri)}: ${str(resource.mimeType) || "binary"}, ${sizeOf(str(resource.blob))}]`;
    }
    default:
      return `[${str(part.type) || "unknown"} content]`;
  }
}

export function capText(text: string, limit: number): string {
  if (text.length <= limit) return text;
  const head = Math.floor(limit * 0.7);
  const tail = Math.max(0, limit - head);
  return `${text.slice(0, head)}\n… (${text.length - head - tail} characters left out) …\n${tail > 0 ? text.slice(-tail) : ""}`;
}

export function resultText(result: Record<string, unknown>, limit: number): string {
  const content = Array.isArray(result.content) ? (result.content as unknown[]) : [];
  const parts = content
    .filter((p): p is Part => typeof p === "object" && p !== null)
    .map(partText)
    .filter((t) => t !== "");
  let text = parts.join("\n");
  if (!text && result.structuredContent !== undefined) text = JSON.stringify(result.structuredContent, null, 2);
  if (!text && "toolResult" in result) text = JSON.stringify(result.toolResult);
  return capText(text || "(no output)", limit);
}
