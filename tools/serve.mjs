// A small static file server for the playground: correct MIME types (application/wasm), no caching.
// Usage: node tools/serve.mjs [root=www] [port=$PORT or 8080]
import { createServer } from "node:http";
import { readFile, stat } from "node:fs/promises";
import { extname, join, normalize, resolve } from "node:path";

const TYPES = {
  ".html": "text/html; charset=utf-8",
  ".js": "text/javascript; charset=utf-8",
  ".mjs": "text/javascript; charset=utf-8",
  ".css": "text/css; charset=utf-8",
  ".json": "application/json",
  ".wasm": "application/wasm",
  ".png": "image/png",
  ".svg": "image/svg+xml",
  ".ts": "text/plain; charset=utf-8",
};

/** Starts the server; resolves to { server, url } once it listens. */
export function serve(root = "www", port = Number(process.env.PORT ?? 8080), host = "127.0.0.1") {
  const base = resolve(root);
  const server = createServer(async (req, res) => {
    try {
      const path = decodeURIComponent(new URL(req.url, "http://x").pathname);
      let file = normalize(join(base, path));
      if (!file.startsWith(base)) throw new Error("outside root");
      if ((await stat(file)).isDirectory()) file = join(file, "index.html");
      const body = await readFile(file);
      res.writeHead(200, {
        "Content-Type": TYPES[extname(file)] ?? "application/octet-stream",
        "Cache-Control": "no-store",
      });
      res.end(body);
    } catch {
      res.writeHead(404, { "Content-Type": "text/plain" });
      res.end("not found");
    }
  });
  return new Promise((ok) =>
    server.listen(port, host, () => ok({ server, url: `http://${host}:${server.address().port}/` })),
  );
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const [root = "www", port] = process.argv.slice(2);
  const { url } = await serve(root, port === undefined ? undefined : Number(port));
  console.log(`contactlab playground: ${url}  (Ctrl-C to stop)`);
}
