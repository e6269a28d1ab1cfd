// Plain fastify as its documentation writes it: a JSON schema per route for
// the body (checked by ajv, compiled at start-up) and for the answer
// (written by fast-json-stringify).
import Fastify from "fastify";

import { HELLO, announce, commandLine } from "./common";

const { port, stringify } = commandLine();

const number = { type: "number" } as const;
const point = {
  type: "object",
  required: ["x", "y", "z"],
  properties: { x: number, y: number, z: number },
} as const;
const box = {
  type: "object",
  required: ["scale", "position", "rotate", "pivot"],
  properties: { scale: point, position: point, rotate: point, pivot: point },
} as const;
const boxes = {
  type: "object",
  required: ["data"],
  properties: { data: { type: "array", items: box } },
} as const;

const coordinate = { type: "number", minimum: -1000, maximum: 1000 } as const;
const coordinates = {
  type: "object",
  required: ["x", "y", "z"],
  properties: { x: coordinate, y: coordinate, z: coordinate },
} as const;
const sceneBox = {
  type: "object",
  required: ["name", "owner", "scale", "position", "rotate", "pivot"],
  properties: {
    name: { type: "string", minLength: 1, maxLength: 64 },
    owner: { type: "string", format: "email", maxLength: 254 },
    scale: coordinates,
    position: coordinates,
    rotate: coordinates,
    pivot: coordinates,
  },
} as const;
const scene = {
  type: "object",
  required: ["data"],
  properties: { data: { type: "array", maxItems: 100, items: sceneBox } },
} as const;
const message = {
  type: "object",
  required: ["message"],
  properties: { message: { type: "string" } },
} as const;

async function main(): Promise<void> {
  const app = Fastify({ logger: false });
  app.get("/plaintext", async (_request, reply) => {
    reply.type("text/plain");
    return HELLO;
  });
  app.get("/json", { schema: { response: { 200: message } } }, async () => ({
    message: HELLO,
  }));
  app.post("/assert", { schema: { body: scene } }, async (_request, reply) => {
    reply.code(204).send();
  });
  app.post(
    "/performance",
    { schema: { body: scene, response: { 200: scene } } },
    async (request) => request.body,
  );
  app.post(
    "/assert-no-constraints",
    { schema: { body: boxes } },
    async (_request, reply) => {
      reply.code(204).send();
    },
  );
  app.post(
    "/performance-no-constraints",
    { schema: { body: boxes, response: { 200: boxes } } },
    async (request) => request.body,
  );
  app.get("/stringify", { schema: { response: { 200: boxes } } }, async () => stringify);
  await app.listen({ port, host: "127.0.0.1" });
  announce(app.server);
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
