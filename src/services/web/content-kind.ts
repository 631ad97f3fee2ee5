import type { IncomingHttpHeaders } from "node:http";

/** How fetch_url shows a response: as a page, as JSON, as text, or only described (images, archives, PDFs...). */
export type ContentKind = "html" | "json" | "text" | "binary" | "unknown";

export function mediaType(headers: IncomingHttpHeaders): string {
  return (
    String(headers["content-type"] ?? "")
      .split(";", 1)[0]
      ?.trim()
      .toLowerCase() ?? ""
  );
}

export function contentKind(type: string): ContentKind {
  if (type === "") return "unknown";
  if (type === "text/html" || type === "application/xhtml+xml") return "html";
  if (type === "application/json" || type.endsWith("+json")) return "json";
  if (type.startsWith("text/") || type.endsWith("+xml") || /^application\/(xml|javascript|ecmascript|x-yaml|yaml|toml|x-sh|graphql)$/.test(type)) return "text";
  return "binary";
}

/** No declared type: HTML if it looks like it, binary if it has NUL bytes, else text. */
export function sniff(body: Buffer): ContentKind {
  const head = body.subarray(0, 1024);
  if (head.includes(0)) return "binary";
  return /^\s*(<!doctype html|<html|<head|<body)/i.test(head.toString("latin1")) ? "html" : "text";
}

export function decodeText(body: Buffer, headers: IncomingHttpHeaders): string {
  const charset = /charset\s*=\s*"?([\w.:-]+)/i.exec(String(headers["content-type"] ?? ""))?.[1];
  try {
    return new TextDecoder(charset ?? "utf-8").decode(body);
  } catch {
    return new TextDecoder("utf-8").decode(body);
  }
}
