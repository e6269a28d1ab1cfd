// What every node peer shares: its command line and how it says where it
// listens (the runner reads `listening on ADDR routes=0` from stdout, as
// from `bench-server`).
import { readFileSync } from "node:fs";
import type { AddressInfo, Server } from "node:net";

export const HELLO = "Hello, World!";

/** `node dist/PEER.js PORT STRINGIFY_JSON`: the port (0 for any free one)
 * and the file holding the value `GET /stringify` answers. */
export function commandLine(): { port: number; stringify: unknown } {
  const [port, file] = process.argv.slice(2);
  if (port === undefined || file === undefined) {
    console.error("usage: node dist/PEER.js PORT STRINGIFY_JSON");
    process.exit(2);
  }
  return { port: Number(port), stringify: JSON.parse(readFileSync(file, "utf8")) };
}

export function announce(server: Server): void {
  const address = server.address() as AddressInfo;
  console.log(`listening on 127.0.0.1:${address.port} routes=0`);
}
