// Peak resident memory of an 80 MB download through the TypeScript SDK,
// against a plain `fetch().arrayBuffer()` in the same run: the kitchen
// SDK's `streamed` route read whole (`call`) and as it arrives (`stream`),
// each in a process of its own, three rounds.
//
//   node bench/sdk-memory/download.mjs <compiled SDK dir> [<older compiled SDK dir>]
//
// A compiled SDK dir is the kitchen TypeScript package built with `tsc`
// (its `lib/`, holding `index.js`); see bench/README.md.
import { execFile } from "node:child_process";
import http from "node:http";

const SIZE = 80 * 1024 * 1024;

if (process.argv[2] === "--client") {
  const [mode, lib, port] = process.argv.slice(3);
  const host = `http://127.0.0.1:${port}`;
  const { default: api } = await import(`${lib}/index.js`);
  let size = 0;
  if (mode === "fetch") {
    size = (await (await fetch(`${host}/kitchen/streamed`)).arrayBuffer()).byteLength;
  } else if (mode === "call") {
    size = (await api.functional.kitchen.streamed({ host }, {})).byteLength;
  } else {
    const answer = await api.functional.kitchen.streamed.stream({ host }, {});
    const reader = answer.body.getReader();
    for (let next = await reader.read(); !next.done; next = await reader.read()) size += next.value.length;
  }
  if (size !== SIZE) throw new Error(`${mode}: read ${size} bytes`);
  console.log((process.resourceUsage().maxRSS / 1024).toFixed(0));
} else {
  const libs = process.argv.slice(2);
  if (libs.length === 0) throw new Error("usage: download.mjs <compiled SDK dir> [<older compiled SDK dir>]");
  const body = Buffer.alloc(SIZE, 7);
  const server = http.createServer((_, res) => {
    res.writeHead(200, { "content-type": "application/octet-stream", "content-length": body.length });
    res.end(body);
  });
  await new Promise((resolve) => server.listen(0, "127.0.0.1", resolve));
  const port = String(server.address().port);
  const runs = [["fetch", libs[0]], ["call", libs[0]], ["stream", libs[0]], ...libs.slice(1).map((lib) => ["call", lib])];
  const peaks = runs.map(() => []);
  for (let round = 0; round < 3; round++) {
    for (const [index, [mode, lib]] of runs.entries()) {
      // The server answers from this process: the client runs beside it.
      const stdout = await new Promise((resolve, reject) => {
        execFile(process.execPath, [process.argv[1], "--client", mode, lib, port], (err, out, stderr) =>
          err ? reject(new Error(`${err.message}\n${stderr}`)) : resolve(out),
        );
      });
      peaks[index].push(Number(stdout.trim()));
    }
  }
  server.close();
  for (const [index, [mode, lib]] of runs.entries()) {
    const label = index >= 3 ? `${mode} (${lib})` : mode;
    console.log(`${label.padEnd(12)} peak RSS MB, 3 rounds: ${peaks[index].join(", ")}`);
  }
}
