// `simulate` mode: no server; inputs are validated as the server would,
// answers are random values of the response type. The cargo test
// `sdk_typescript` also decodes the values written to SIMULATED_OUT with
// the server's own validators.
import assert from "node:assert/strict";
import { writeFileSync } from "node:fs";
import { test } from "node:test";

import api, { HttpError, type ArticleCreate, type IConnection } from "../src/index.js";
import { check, type RouteMetadata, type ValidationIssue } from "../src/runtime.js";

const articles = api.functional.bbs.articles;
const connection: IConnection = { host: "http://simulation.invalid", simulate: true };
const id = "7a6c1d5e-2b3f-4c8d-9e0a-1b2c3d4e5f60";
const input: ArticleCreate = {
  writer: "kim",
  title: "hello",
  body: "",
  format: "md",
  files: [],
  password: "secret",
};

function valid(route: RouteMetadata, value: unknown): void {
  const issues: ValidationIssue[] = [];
  if (route.response !== null) check(route.response, value, "$output", "out", issues);
  assert.deepEqual(issues, [], JSON.stringify(value));
}

test("simulated answers are valid values of the response types", async () => {
  const out: Record<string, unknown[]> = { index: [], at: [], create: [], update: [], follow: [] };
  for (let round = 0; round < 25; round++) {
    const page = await articles.index(connection, "general", { limit: 10 });
    valid(articles.index.METADATA, page);
    out["index"]!.push(page);
    const article = await articles.at(connection, "general", id);
    valid(articles.at.METADATA, article);
    out["at"]!.push(article);
    const created = await articles.create(connection, "general", input);
    valid(articles.create.METADATA, created);
    out["create"]!.push(created);
    const snapshot = await articles.update(connection, "general", id, { ...input, format: "html" });
    valid(articles.update.METADATA, snapshot);
    out["update"]!.push(snapshot);
    assert.equal(await articles.erase(connection, "general", id, { password: "x" }), undefined);
    for await (const event of await articles.events.follow(connection, "general", {})) {
      out["follow"]!.push(event.data);
    }
  }
  const file = process.env["SIMULATED_OUT"];
  if (file !== undefined) writeFileSync(file, JSON.stringify(out));
});

test("simulated calls refuse invalid input with the server's 400", async () => {
  const bad = { ...input, title: "no", files: [{ name: null, extension: "", url: "https://example.com" }] };
  try {
    await articles.create(connection, "general", bad);
    assert.fail("an invalid input was accepted");
  } catch (err) {
    assert.ok(err instanceof HttpError);
    assert.equal(err.status, 400);
    assert.equal(err.problem?.code, "invalid_body");
    assert.deepEqual(err.problem?.errors?.map((issue) => [issue.path, issue.expected]), [
      ["$input.title", 'string & MinLength<3> & MaxLength<50>'],
      ["$input.files[0].extension", '(string & MinLength<1> & MaxLength<8>) | null'],
    ]);
  }
  const answer = await articles.at.propagate(connection, "general", "nope");
  assert.deepEqual([answer.success, answer.status], [false, 400]);
});

test("64-bit integers beyond 2^53 are refused, never rounded silently", () => {
  const issues: ValidationIssue[] = [];
  const page = {
    data: [],
    pagination: { current: 1, limit: 1, records: 2 ** 53 + 2, pages: 1 },
  };
  check(articles.index.METADATA.response, page, "$output", "precision", issues);
  assert.deepEqual(issues.map((issue) => issue.path), ["$output.pagination.records"]);
});
