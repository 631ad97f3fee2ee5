import { Readability } from "@mozilla/readability";
import { parseHTML } from "linkedom";
import TurndownService from "turndown";

/**
 * An HTML page as readable Markdown-ish text: Readability picks the article (the page's main content); without one,
 * the whole body is used. Scripts, styles, navigation, forms and embedded frames are dropped first, links are made
 * absolute, images shrink to their alt text.
 */

export interface PageText {
  title: string;
  text: string;
  /** Readability found an article; false: the whole body's text. */
  article: boolean;
  /** The HTML (without scripts and styles) was longer than HTML_WORK_CAP: only its beginning was converted. */
  cut: boolean;
}

/**
 * The conversion runs on the event loop and costs about 2.5 s per MB of markup here (Readability, then turndown):
 * scripts, styles and comments are cut out as text first (often most of a page's bytes), and at most this much of
 * the rest is converted, so one fetch blocks the session for about a second at most.
 */
export const HTML_WORK_CAP = 300_000;

function lighten(html: string): { html: string; cut: boolean } {
  const light = html.replace(/<(script|style|noscript|template|svg)\b[\s\S]*?<\/\1\s*>/gi, "").replace(/<!--[\s\S]*?-->/g, "");
  if (light.length <= HTML_WORK_CAP) return { html: light, cut: false };
  const end = light.lastIndexOf("<", HTML_WORK_CAP);
  return { html: light.slice(0, end > 0 ? end : HTML_WORK_CAP), cut: true };
}

/** The little of the DOM used here (the project compiles without the DOM library; linkedom implements these). */
interface DomElement {
  textContent: string | null;
  getAttribute(name: string): string | null;
  setAttribute(name: string, value: string): void;
  remove(): void;
}
interface DomDocument {
  body: DomElement | null;
  documentElement: DomElement | null;
  querySelector(selector: string): DomElement | null;
  querySelectorAll(selector: string): Iterable<DomElement>;
  cloneNode(deep: boolean): unknown;
}

const DROPPED = "script, style, noscript, template, iframe, object, embed, svg, canvas, nav, form, button, select, input, textarea, link, meta";

let converter: TurndownService | undefined;

function turndown(): TurndownService {
  if (converter) return converter;
  converter = new TurndownService({ headingStyle: "atx", codeBlockStyle: "fenced", bulletListMarker: "-" });
  converter.remove(["script", "style", "noscript", "template", "iframe"]);
  // The text is for a model, not a Markdown renderer: identifiers such as snake_case stay as written.
  converter.escape = (text: string) => text;
  converter.addRule("image-alt", {
    filter: "img",
    replacement: (_content, node) => {
      const alt = (node as { getAttribute?: (name: string) => string | null }).getAttribute?.("alt")?.trim();
      return alt ? `[image: ${alt}]` : "";
    },
  });
  return converter;
}

/** Absolute links, so the model can fetch them; unparsable ones are left alone. */
function absolutize(document: DomDocument, baseUrl: string): void {
  for (const [selector, attribute] of [
    ["a[href]", "href"],
    ["img[src]", "src"],
  ] as const) {
    for (const element of Array.from(document.querySelectorAll(selector))) {
      const value = element.getAttribute(attribute);
      if (value === null) continue;
      try {
        element.setAttribute(attribute, new URL(value, baseUrl).toString());
      } catch {
        // Keep it as written.
      }
    }
  }
}

/** List markers with one space (turndown pads them), blank lines collapsed, trailing spaces dropped. */
function tidy(text: string): string {
  return text
    .replace(/^(\s*)([-*]|\d+\.) {2,}/gm, "$1$2 ")
    .replace(/[ \t]+\n/g, "\n")
    .replace(/\n{3,}/g, "\n\n")
    .trim();
}

export function htmlToText(page: string, baseUrl: string): PageText {
  const { html, cut } = lighten(page);
  const { document } = parseHTML(html) as unknown as { document: DomDocument };
  const title = (document.querySelector("title")?.textContent ?? "").replace(/\s+/g, " ").trim();
  for (const element of Array.from(document.querySelectorAll(DROPPED))) element.remove();
  absolutize(document, baseUrl);
  let article: ReturnType<Readability["parse"]> = null;
  try {
    article = new Readability(document.cloneNode(true) as ConstructorParameters<typeof Readability>[0], { maxElemsToParse: 50_000 }).parse();
  } catch {
    // Too big or too odd for Readability: the whole body below.
  }
  if (article?.content && (article.textContent ?? "").trim().length > 0) {
    return { title: article.title?.trim() || title, text: tidy(turndown().turndown(article.content)), article: true, cut };
  }
  const body = document.body;
  const text = body ? tidy(turndown().turndown(body as Parameters<TurndownService["turndown"]>[0])) : tidy(document.documentElement?.textContent ?? "");
  return { title, text, article: false, cut };
}
