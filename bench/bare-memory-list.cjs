// The floor for `mini-cursor memory list` (bench/cold-start.ts): a plain Node script that makes the same two
// requests to Chroma's REST API over node:http (find the collection, get the workspace's rows with their text and
// metadata) and prints how many rows came back. No mini-cursor code, no sorting or formatting.
"use strict";
// CommonJS like the CLI's entry (dist/cli/main.js): an ES module would start slower and flatter the CLI.
// eslint-disable-next-line @typescript-eslint/no-require-imports
const http = require("node:http");
const [url, collection, workspace] = process.argv.slice(2);
const target = new URL(url);
const base = "/api/v2/tenants/default_tenant/databases/default_database/collections";

function request(method, path, body) {
  return new Promise((resolve, reject) => {
    const req = http.request({ host: target.hostname, port: target.port, method, path, headers: { "content-type": "application/json" } }, (res) => {
      let text = "";
      res.setEncoding("utf8");
      res.on("data", (chunk) => (text += chunk));
      res.on("end", () => (res.statusCode === 200 ? resolve(JSON.parse(text)) : reject(new Error(`HTTP ${res.statusCode}: ${text}`))));
    });
    req.on("error", reject);
    req.end(body === undefined ? undefined : JSON.stringify(body));
  });
}

(async () => {
  const found = await request("GET", `${base}/${encodeURIComponent(collection)}`);
  const rows = await request("POST", `${base}/${found.id}/get`, { where: { workspace }, include: ["documents", "metadatas"] });
  process.stdout.write(`${rows.ids.length}\n`);
})().catch((error) => {
  process.stderr.write(`${error.message}\n`);
  process.exit(1);
});
