import type { ContentBlock } from "@agentclientprotocol/sdk";

/** Embedded file contents are capped: a prompt is a task, and the agents read files themselves. */
const MAX_EMBEDDED_CHARS = 20_000;

/**
 * A prompt's content blocks as the task text the planner reads: text as it is, a resource link as its name and URI,
 * an embedded text resource with its contents in a fenced block. Images and audio are not offered (initialize says
 * so), and are named rather than dropped silently.
 */
export function promptText(blocks: readonly ContentBlock[]): string {
  const parts: string[] = [];
  for (const block of blocks) {
    switch (block.type) {
      case "text":
        parts.push(block.text);
        break;
      case "resource_link":
        parts.push(`[${block.name}](${block.uri})`);
        break;
      case "resource": {
        const { resource } = block;
        if ("text" in resource) {
          const text =
            resource.text.length > MAX_EMBEDDED_CHARS
              ? `${resource.text.slice(0, MAX_EMBEDDED_CHARS)}\n… (${resource.text.length - MAX_EMBEDDED_CHARS} more characters left out)`
              : resource.text;
          parts.push(`Contents of ${resource.uri}:\n\`\`\`\n${text}\n\`\`\``);
        } else {
          parts.push(`(binary resource ${resource.uri} left out)`);
        }
        break;
      }
      default:
        parts.push(`(${block.type} content left out: mini-cursor reads text only)`);
    }
  }
  return parts.join("\n\n").trim();
}
