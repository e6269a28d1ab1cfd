// Drives the BBS (at BBS_URL) with a client made by openapi-typescript
// (generated/schema.d.ts, from the committed document) and openapi-fetch:
// what a TypeScript user of another generator gets. Compiled with
// `tsc --strict`, then run by examples/bbs/tests/it/generators.rs.
import assert from "node:assert/strict";
import createClient from "openapi-fetch";
import type { components, paths } from "./generated/schema.js";

type Problem = components["schemas"]["Problem"];

const url = process.env.BBS_URL;
assert.ok(url, "BBS_URL names the server");
const client = createClient<paths>({ baseUrl: url });
const section = "generators";

// Create an article, then find it in the listing and read it back.
const created = await client.POST("/bbs/articles/{section}", {
  params: { path: { section } },
  body: {
    writer: "kim",
    title: "From openapi-fetch",
    body: "Typed by openapi-typescript.",
    format: "md",
    files: [],
    password: "secret",
  },
});
assert.equal(created.response.status, 201);
assert.ok(created.data, "the article");
const article = created.data;
assert.equal(article.snapshots[0]?.title, "From openapi-fetch");

const page = await client.PATCH("/bbs/articles/{section}", {
  params: { path: { section } },
  body: { limit: 10, sort: ["-created_at"], search: { writer: "kim" } },
});
assert.ok(page.data, "a page");
assert.ok(page.data.data.some((summary) => summary.id === article.id));

const read = await client.GET("/bbs/articles/{section}/{id}", {
  params: { path: { section, id: article.id } },
});
assert.ok(read.data, "the article read back");
assert.equal(read.data.id, article.id);

// A refused input: a problem document, typed as the schema says.
const refused = await client.POST("/bbs/articles/{section}", {
  params: { path: { section } },
  body: {
    writer: "kim",
    title: "no",
    body: "",
    format: "md",
    files: [],
    password: "secret",
  },
});
assert.equal(refused.response.status, 400);
assert.equal(refused.response.headers.get("content-type"), "application/problem+json");
assert.equal(refused.data, undefined);
const problem: Problem | undefined = refused.error;
assert.ok(problem, "the problem document");
assert.equal(problem.code, "invalid_body");
assert.equal(problem.status, 400);
assert.ok(problem.errors?.some((issue) => issue.path === "$input.title"), JSON.stringify(problem));

// An array in the query, written as the document says (form, exploded:
// `sort=-title&sort=%2Bwriter`) and read by the server.
const listing = await client.GET("/sections/{section}", {
  params: { path: { section }, query: { sort: ["-title", "+writer"], search: { writer: "kim" } } },
  parseAs: "text",
});
assert.equal(listing.response.status, 200, String(listing.error));
assert.match(new URL(listing.response.url).search, /sort=-title&sort=%2Bwriter/);
assert.ok(listing.data?.includes("From openapi-fetch"));
const badSort = await fetch(`${url}/sections/${section}?sort=sideways`);
assert.equal(badSort.status, 400, "the server reads the repeated key as the list");

console.log("openapi-fetch: 6 calls as documented");
