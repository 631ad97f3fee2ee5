import { execFile } from "node:child_process";
import { mkdir, readFile, readdir, writeFile } from "node:fs/promises";
import https from "node:https";
import type { AddressInfo } from "node:net";
import { promisify } from "node:util";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import {
  startScriptedOpenAIServer,
  toolResults,
  type ScriptedReply,
  type ScriptedRequest,
  type ScriptedServer,
  userText,
} from "../../helpers/scripted-openai-server.js";
import { makeTempWorkspace, type TempWorkspace } from "../../helpers/temp-workspace.js";
import { page, redirect, startLocalWebServer, type LocalWebServer } from "../../services/web/local-web-server.js";
import { runCli } from "./cli-process.js";
import { roleOf } from "./task-script.js";

/**
 * The web tools through the built CLI: the planner routes one research step; the researcher searches (a local
 * SearXNG-style endpoint), fetches a local page allowed by `web.allowHosts` in mini-cursor.json, and tries three
 * refused URLs: localhost (not allowed), a redirect from the allowed host to the metadata address, and 10.x.
 */

const GUIDE = `<html><head><title>Greeting guide</title><script>var x = "SCRIPT_TEXT";</script></head><body><nav>Menu</nav>
<article><h1>Greetings</h1><p>The house style for greetings is UNIQUE_PAGE_FACT: always greet people by their first name and end with an exclamation mark, because the style guide of this project says so and the tests check it.</p>
<p>Second paragraph with more words so that the article is long enough to be picked as the main content of the page by the reader.</p></article></body></html>`;

let model: ScriptedServer;
let site: LocalWebServer;
let internal: LocalWebServer;
let ws: TempWorkspace;
let userConfig: TempWorkspace;
/** Replaces the researcher's first call (the search) when set. */
let firstFetches: { name: string; args: Record<string, unknown> }[] | undefined;

function script(req: ScriptedRequest): ScriptedReply {
  const role = roleOf(req);
  if (role === "planner") {
    if (userText(req).includes("There is no plan yet")) {
      return {
        toolCalls: [
          { name: "update_plan", args: { remainingSteps: [{ agent: "researcher", goal: "Find the project's greeting style on the web" }], finished: false } },
        ],
      };
    }
    return { toolCalls: [{ name: "update_plan", args: { remainingSteps: [], finished: true, outcome: "done", summary: "Researched the greeting style." } }] };
  }
  if (role === "researcher") {
    const steps = [
      ...(firstFetches ?? [{ name: "web_search", args: { query: "greeting style guide" } }]),
      { name: "fetch_url", args: { url: `${site.origin}/guide` } },
      { name: "fetch_url", args: { url: `http://localhost:${internal.port}/secret` } },
      { name: "fetch_url", args: { url: `${site.origin}/to-metadata` } },
      { name: "fetch_url", args: { url: "http://10.1.2.3/admin" } },
      {
        name: "submit_findings",
        args: { summary: "Greet by first name.", findings: [{ source: `${site.origin}/guide`, note: "Greet by first name with !" }] },
      },
    ];
    const next = steps[Math.min(toolResults(req).length, steps.length - 1)];
    return { toolCalls: next ? [next] : [] };
  }
  return { content: "Nothing to do." };
}

beforeEach(async () => {
  model = await startScriptedOpenAIServer(script);
  internal = await startLocalWebServer({ "/secret": page("INTERNAL SECRET", "text/plain") });
  site = await startLocalWebServer({
    "/guide": page(GUIDE, "text/html"),
    "/to-metadata": redirect("http://169.254.169.254/latest/meta-data/"),
    "/search": page(JSON.stringify({ results: [{ title: "Greeting guide", url: "http://127.0.0.1/guide", content: "How to greet" }] }), "application/json"),
  });
  ws = await makeTempWorkspace({ "package.json": '{ "name": "demo" }\n' });
  userConfig = await makeTempWorkspace();
  firstFetches = undefined;
});
afterEach(async () => {
  await Promise.all([model.close(), site.close(), internal.close()]);
  await Promise.all([ws.cleanup(), userConfig.cleanup()]);
});

function env(): Record<string, string> {
  return { OPENAI_BASE_URL: model.baseUrl, OPENAI_API_KEY: "sk-test", MINI_CURSOR_MODEL: "scripted", XDG_CONFIG_HOME: userConfig.root };
}

async function writeProjectConfig(web: unknown): Promise<void> {
  await writeFile(`${ws.root}/mini-cursor.json`, JSON.stringify({ web }));
}

/** Every file under a folder (the session database, logs...), as raw bytes decoded loosely. */
async function allFileContents(dir: string): Promise<string> {
  const entries = await readdir(dir, { recursive: true, withFileTypes: true });
  const files = entries.filter((e) => e.isFile()).map((e) => path.join(e.parentPath, e.name));
  return (await Promise.all(files.map((f) => readFile(f, "latin1")))).join("\n");
}

describe("web research through the built CLI", () => {
  it("searches, fetches an allowed local page into the model's next request, and refuses internal addresses before connecting", async () => {
    await writeProjectConfig({ allowHosts: ["127.0.0.1"], search: { provider: "searxng", url: site.origin } });
    const result = await runCli(["run", "--approval", "read-only", "Find our greeting style"], { cwd: ws.root, env: env() });
    expect(result.stderr).toBe("");
    expect(result.code).toBe(0);

    const research = model.requests.filter((r) => roleOf(r) === "researcher");
    expect(research[0]?.toolNames).toEqual(expect.arrayContaining(["fetch_url", "web_search"]));
    const results = toolResults(research.at(-1) as ScriptedRequest);
    expect(results.map((r) => r.name)).toEqual(["web_search", "fetch_url", "fetch_url", "fetch_url", "fetch_url"]);
    const [search, fetched, localhost, metadata, privateNet] = results;
    expect(search?.content).toContain("1. Greeting guide");
    // The page's text reached the model's next request, without its script.
    expect(research[2]?.messages.at(-1)?.content).toContain("UNIQUE_PAGE_FACT");
    expect(fetched?.content).toContain("Title: Greeting guide");
    expect(fetched?.content).not.toContain("SCRIPT_TEXT");
    expect(localhost?.content).toMatch(/^Error: fetch_url refused or failed .*localhost is a loopback name/);
    expect(metadata?.content).toMatch(/^Error: .*the redirect to http:\/\/169\.254\.169\.254\/latest\/meta-data\/ was refused: .*cloud metadata/);
    expect(privateNet?.content).toMatch(/^Error: .*10\.1\.2\.3 is a private address/);
    expect(internal.connections).toBe(0);

    // A person watching sees the fetches and their outcome.
    expect(result.stdout).toContain(`fetch_url ${site.origin}/guide`);
  });

  it("offers fetch_url without web_search when no provider is configured, and neither when the web is off", async () => {
    await writeProjectConfig({ allowHosts: ["127.0.0.1"] });
    const noSearch = await runCli(["run", "Find our greeting style"], { cwd: ws.root, env: env() });
    expect(noSearch.code).toBe(0);
    const first = model.requests.find((r) => roleOf(r) === "researcher");
    expect(first?.toolNames).toContain("fetch_url");
    expect(first?.toolNames).not.toContain("web_search");
    // The model called web_search anyway: it is refused as not available.
    const refused = toolResults(model.requests.filter((r) => roleOf(r) === "researcher")[1] as ScriptedRequest)[0];
    expect(refused?.content).toMatch(/tool "web_search" is not available to the researcher/);

    model.requests.length = 0;
    const fetchedBefore = site.requests.filter((r) => r.url.startsWith("/guide")).length;
    await writeProjectConfig({ enabled: false, search: { provider: "searxng", url: site.origin } });
    const off = await runCli(["run", "Find our greeting style"], { cwd: ws.root, env: env() });
    expect(off.code).toBe(0);
    const offered = model.requests.find((r) => roleOf(r) === "researcher")?.toolNames ?? [];
    expect(offered).not.toContain("fetch_url");
    expect(offered).not.toContain("web_search");
    // The model's fetch_url call was refused without any request.
    expect(site.requests.filter((r) => r.url.startsWith("/guide"))).toHaveLength(fetchedBefore);
  });

  it("sends a Tavily key from the environment to the provider and nowhere else (model, events, workspace files)", async () => {
    const key = "tvly-E2E-SECRET-4242";
    await mkdir(path.join(userConfig.root, "mini-cursor"), { recursive: true });
    await writeFile(path.join(userConfig.root, "mini-cursor", "config.json"), JSON.stringify({ web: { search: { provider: "tavily", url: site.origin } } }));
    await writeProjectConfig({ allowHosts: ["127.0.0.1"] });
    const result = await runCli(["run", "--json", "Find our greeting style"], { cwd: ws.root, env: { ...env(), TAVILY_API_KEY: key } });
    expect(result.code).toBe(0);
    const searches = site.requests.filter((r) => r.url === "/search");
    expect(searches).toHaveLength(1);
    expect(searches[0]?.method).toBe("POST");
    expect(searches[0]?.headers.authorization).toBe(`Bearer ${key}`);
    expect(result.stdout).toContain('"tool":"web_search"');
    expect(result.stdout + result.stderr).not.toContain(key);
    expect(JSON.stringify(model.requests.map((r) => r.body))).not.toContain(key);
    expect(await allFileContents(ws.root)).not.toContain(key);
  });

  it("says once why web search is off when the provider's key is missing, and does not offer it", async () => {
    await writeProjectConfig({ allowHosts: ["127.0.0.1"], search: { provider: "brave" } });
    const result = await runCli(["run", "Find our greeting style"], { cwd: ws.root, env: env() });
    expect(result.code).toBe(0);
    expect(result.stdout.match(/web search \(brave\) is off: BRAVE_API_KEY is not set/g)).toHaveLength(1);
    expect(model.requests.find((r) => roleOf(r) === "researcher")?.toolNames).not.toContain("web_search");
  });

  it("fetches over HTTPS from a name in allowHosts, connecting to the address it checked with the name's certificate", async () => {
    // A self-signed certificate for "localhost", trusted by the CLI through NODE_EXTRA_CA_CERTS.
    const certDir = userConfig.root;
    await promisify(execFile)("openssl", [
      "req",
      "-x509",
      "-newkey",
      "rsa:2048",
      "-nodes",
      "-days",
      "1",
      "-subj",
      "/CN=localhost",
      "-addext",
      "subjectAltName=DNS:localhost",
      "-keyout",
      path.join(certDir, "key.pem"),
      "-out",
      path.join(certDir, "cert.pem"),
    ]);
    const secure = https.createServer(
      { key: await readFile(path.join(certDir, "key.pem")), cert: await readFile(path.join(certDir, "cert.pem")) },
      (req, res) => {
        res.writeHead(200, { "content-type": "text/plain" });
        res.end(`SECURE_PAGE served to SNI ${(req.socket as unknown as { servername?: string }).servername ?? "?"}`);
      },
    );
    await new Promise<void>((resolve) => secure.listen(0, "127.0.0.1", resolve));
    try {
      const port = (secure.address() as AddressInfo).port;
      firstFetches = [{ name: "fetch_url", args: { url: `https://localhost:${port}/` } }];
      await writeProjectConfig({ allowHosts: ["localhost", "127.0.0.1"] });
      const result = await runCli(["run", "Find our greeting style"], { cwd: ws.root, env: { ...env(), NODE_EXTRA_CA_CERTS: path.join(certDir, "cert.pem") } });
      expect(result.code).toBe(0);
      const research = model.requests.filter((r) => roleOf(r) === "researcher");
      const fetched = toolResults(research.at(-1) as ScriptedRequest)[0];
      expect(fetched?.content).toContain(`Fetched https://localhost:${port}/ (HTTP 200`);
      expect(fetched?.content).toContain("SECURE_PAGE served to SNI localhost");
    } finally {
      secure.closeAllConnections();
      await new Promise<void>((resolve) => secure.close(() => resolve()));
    }
  });
});
