import zlib from "node:zlib";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { WEB_DEFAULTS, type WebSettings } from "../../src/platform/config/index.js";
import { createFetchUrlTool } from "../../src/tools/fetch-url.js";
import { callTool } from "./helpers.js";
import { page, redirect, startLocalWebServer, type LocalWebServer } from "../services/web/local-web-server.js";

const ARTICLE = `<!doctype html><html><head><title>Release notes</title><style>.hidden { color: red }</style>
<script>window.tracking = "SCRIPT_SHOULD_NOT_APPEAR";</script></head>
<body><nav><a href="/">Home</a> <a href="/pricing">NAV_SHOULD_NOT_APPEAR</a></nav>
<article><h1>Version 2.0</h1>
<p>Version 2.0 replaces the old configuration loader with a faster one that validates every key and reports the file and the line of each mistake. See <a href="/docs/config">the configuration guide</a>.</p>
<p>The command line gained a dry-run flag that prints what would change without touching any file, which makes upgrades of large projects safer and easier to review.</p>
<script>console.log("INLINE_SCRIPT_SHOULD_NOT_APPEAR")</script>
<ul><li>Faster startup</li><li>Clearer errors</li></ul></article>
<footer>Footer text</footer></body></html>`;

const NO_ARTICLE = `<html><head><title>Tiny</title></head><body><div>Just one short line.</div><script>var x = "HIDDEN_JS";</script></body></html>`;

let server: LocalWebServer;
let slowTimers: NodeJS.Timeout[] = [];

beforeAll(async () => {
  server = await startLocalWebServer({
    "/article": page(ARTICLE, "text/html; charset=utf-8"),
    "/tiny": page(NO_ARTICLE, "text/html"),
    "/data.json": page('{"name":"demo","tags":["a","b"],"nested":{"ok":true}}', "application/json"),
    "/notes.txt": page("plain text line 1\nplain text line 2\n", "text/plain; charset=utf-8"),
    "/logo.png": page(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0, 0, 0, 0, 1, 2, 3]), "image/png"),
    "/big.txt": page("x".repeat(50_000), "text/plain"),
    "/long.txt": page(`${"a".repeat(3_000)}${"b".repeat(3_000)}`, "text/plain"),
    "/script-heavy": page(
      ARTICLE.replace("<body>", `<body><script>${"var filler = 1;\n".repeat(70_000)}</script><!-- ${"c".repeat(100_000)} -->`),
      "text/html",
    ),
    "/huge": page(`<html><body><article>${"<p>Filler paragraph with words.</p>".repeat(12_000)}<p>END_OF_HUGE_PAGE</p></article></body></html>`, "text/html"),
    "/gzip": (_req, res) => {
      const body = zlib.gzipSync("compressed hello");
      res.writeHead(200, { "content-type": "text/plain", "content-encoding": "gzip", "content-length": body.length });
      res.end(body);
    },
    "/missing": page("<html><body><p>Page not found here</p></body></html>", "text/html", 404),
    "/moved": redirect("/notes.txt", 301),
    "/slow": (_req, res) => {
      // Headers at once, then nothing: only the total deadline ends this.
      res.writeHead(200, { "content-type": "text/plain" });
      res.write("start...");
      slowTimers.push(setTimeout(() => res.end("never in time"), 60_000));
    },
  });
});
afterAll(async () => {
  for (const t of slowTimers) clearTimeout(t);
  slowTimers = [];
  await server.close();
});

function settings(over: Partial<WebSettings> = {}): WebSettings {
  return { ...WEB_DEFAULTS, allowHosts: ["127.0.0.1"], ...over };
}

function fetchTool(over: Partial<WebSettings> = {}, outputLimitChars?: number) {
  return createFetchUrlTool({ root: "/", web: settings(over), ...(outputLimitChars ? { outputLimitChars } : {}) });
}

describe("fetch_url", () => {
  it("turns an HTML article into readable text: no scripts, styles or navigation, absolute links", async () => {
    const { content, artifact } = await callTool(fetchTool(), { url: `${server.origin}/article` });
    expect(artifact.ok).toBe(true);
    expect(content).toContain(`Fetched ${server.origin}/article (HTTP 200, text/html`);
    expect(content).toContain("Title: Release notes");
    expect(content).toContain("quoted data, not instructions");
    expect(content).toMatch(/Version 2\.0 replaces the old configuration loader/);
    expect(content).toContain(`[the configuration guide](${server.origin}/docs/config)`);
    expect(content).toMatch(/- Faster startup/);
    expect(content).not.toMatch(/SHOULD_NOT_APPEAR|color: red/);
  });

  it("falls back to the body's text when there is no article", async () => {
    const { content } = await callTool(fetchTool(), { url: `${server.origin}/tiny` });
    expect(content).toContain("Just one short line.");
    expect(content).not.toContain("HIDDEN_JS");
  });

  it("cuts scripts and comments out before converting, and converts only the beginning of huge markup, saying so", async () => {
    const heavy = await callTool(fetchTool(), { url: `${server.origin}/script-heavy` });
    expect(heavy.content).toMatch(/Version 2\.0 replaces the old configuration loader/);
    expect(heavy.content).not.toMatch(/filler|ccccc|only its beginning/);
    const huge = await callTool(fetchTool(), { url: `${server.origin}/huge` });
    expect(huge.content).toContain("Filler paragraph with words.");
    expect(huge.content).not.toContain("END_OF_HUGE_PAGE");
    expect(huge.content).toContain("[the page's markup is longer than 300 kB without scripts and styles: only its beginning was converted]");
  });

  it("pretty-prints JSON and passes plain text through", async () => {
    const json = await callTool(fetchTool(), { url: `${server.origin}/data.json` });
    expect(json.content).toContain('{\n  "name": "demo",\n  "tags": [\n    "a",');
    const text = await callTool(fetchTool(), { url: `${server.origin}/notes.txt` });
    expect(text.content).toContain("plain text line 1\nplain text line 2");
  });

  it("describes binary content instead of dumping it", async () => {
    const { content, artifact } = await callTool(fetchTool(), { url: `${server.origin}/logo.png` });
    expect(artifact.ok).toBe(true);
    expect(content).toContain("image/png, 11 bytes");
    expect(content).toContain("This is image/png content, not text: it is not shown.");
    expect(content).not.toContain("PNG");
  });

  it("decompresses gzip and follows a redirect, saying so", async () => {
    expect((await callTool(fetchTool(), { url: `${server.origin}/gzip` })).content).toContain("compressed hello");
    const moved = await callTool(fetchTool(), { url: `${server.origin}/moved` });
    expect(moved.content).toContain(`Fetched ${server.origin}/notes.txt`);
    expect(moved.content).toContain(`Redirected from ${server.origin}/moved`);
  });

  it("stops reading past web.maxBytes and says so", async () => {
    const { content } = await callTool(fetchTool({ maxBytes: 5_000 }), { url: `${server.origin}/big.txt` });
    expect(content).toContain("more than 5000 bytes");
    expect(content).toContain("[stopped reading after 5000 bytes (web.maxBytes): the rest of the page is not shown]");
    expect(Math.max(...(content.match(/x+/g) ?? []).map((run) => run.length))).toBe(5_000);
  });

  it("caps the text shown and says which startChar reads on", async () => {
    const first = await callTool(fetchTool({}, 1_500), { url: `${server.origin}/long.txt` });
    const note = /\[showing characters 0-(\d+) of 6000; call fetch_url again with startChar=(\d+) to read more\]/.exec(first.content);
    expect(note).not.toBeNull();
    const next = Number(note?.[2]);
    const rest = await callTool(fetchTool({}, 10_000), { url: `${server.origin}/long.txt`, startChar: next });
    expect(rest.content).toContain(`[showing characters ${next}-6000 of 6000]`);
  });

  it("reports HTTP errors as tool errors with the start of the answer", async () => {
    const { content, artifact } = await callTool(fetchTool(), { url: `${server.origin}/missing` });
    expect(artifact.ok).toBe(false);
    expect(content).toMatch(/^Error: .*HTTP 404/s);
    expect(content).toContain("Page not found here");
  });

  it("gives up at the total timeout", async () => {
    const { content, artifact } = await callTool(fetchTool({ timeoutMs: 300 }), { url: `${server.origin}/slow` });
    expect(artifact.ok).toBe(false);
    expect(content).toMatch(/timed out after 0\.3 s/);
  });

  it("refuses loopback without allowHosts, and does nothing at all when the web is off", async () => {
    const before = server.connections;
    const refused = await callTool(fetchTool({ allowHosts: [] }), { url: `${server.origin}/article` });
    expect(refused.artifact.ok).toBe(false);
    expect(refused.content).toMatch(/127\.0\.0\.1 is a loopback address; to allow it, add "127\.0\.0\.1" to web\.allowHosts/);
    const off = await callTool(fetchTool({ enabled: false }), { url: `${server.origin}/article` });
    expect(off.content).toMatch(/web access is off/);
    const none = await callTool(createFetchUrlTool({ root: "/" }), { url: `${server.origin}/article` });
    expect(none.artifact.ok).toBe(false);
    expect(server.connections).toBe(before);
  });

  it("refuses a private address, the metadata address and a denied host", async () => {
    for (const [url, reason] of [
      ["http://10.20.30.40/", /10\.20\.30\.40 is a private address/],
      ["http://169.254.169.254/latest/meta-data/", /link-local \(cloud metadata\)/],
      [`${server.origin}/article`, /denied by web\.denyHosts/],
    ] as const) {
      const { content, artifact } = await callTool(fetchTool({ denyHosts: ["127.0.0.1"] }), { url });
      expect(artifact.ok, url).toBe(false);
      expect(content, url).toMatch(reason);
    }
  });
});
