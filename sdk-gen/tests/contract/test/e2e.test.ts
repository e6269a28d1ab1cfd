// The contract fixture's TypeScript SDK against its server: errors come
// with the app's body, `FieldErrors`, typed in `propagate`'s failures and
// carried by `HttpError` as `data`; a documented status whose body is not
// a `FieldErrors` throws; the reader's token (`Authorization: Token <jwt>`)
// is sent to the route that needs it and to the one that takes it.
// Run by `cargo test -p sdk-gen --test contract`.
import assert from "node:assert/strict";
import { test } from "node:test";

import api, {
  CredentialError,
  HttpError,
  InputError,
  type FieldErrors,
  type IConnection,
} from "../typescript/src/index.js";

const articles = api.functional.articles;

function connection(): IConnection {
  const host = process.env["CONTRACT_URL"];
  if (host === undefined) throw new Error("CONTRACT_URL is not set: run `cargo test -p sdk-gen --test contract`");
  return { host };
}

const refused: FieldErrors = {
  errors: {
    title: ["must be string & MinLength<3>"],
    body: ["must be string & MaxLength<10>"],
  },
};

test("refused input is propagated as the app's 422 body", async () => {
  const answer = await articles.create.propagate(connection(), { title: "x", body: "far too long a body" });
  assert.equal(answer.success, false);
  if (answer.success) return;
  assert.equal(answer.status, 422);
  // Typed: `data` is a `FieldErrors`, not a problem document.
  const titles: string[] | undefined = answer.data.errors["title"];
  assert.deepEqual(titles, refused.errors["title"]);
  assert.deepEqual(answer.data, refused);
});

test("a thrown error carries the app's body as data", async () => {
  await assert.rejects(
    articles.create(connection(), { title: "x", body: "far too long a body" }),
    (err: unknown) => {
      assert.ok(err instanceof HttpError);
      assert.equal(err.status, 422);
      assert.equal(err.problem, null);
      assert.deepEqual(err.data, refused);
      assert.equal(err.message, "HTTP 422");
      return true;
    },
  );
});

test("a handler's own error and the successes of several statuses", async () => {
  const missing = await articles.at.propagate(connection(), 3);
  assert.deepEqual(
    { success: missing.success, status: missing.status, data: missing.data },
    { success: false, status: 404, data: { errors: { not_found: ["no article 3"] } } },
  );
  const here = await articles.at.propagate(connection(), 1);
  assert.deepEqual({ status: here.status, data: here.data }, { status: 200, data: { id: 1, title: "one" } });
  const moved = await articles.at.propagate(connection(), 2);
  assert.deepEqual({ status: moved.status, data: moved.data }, { status: 202, data: { id: 1 } });
  const created = await articles.create(connection(), { title: "three", body: "short" });
  assert.deepEqual(created, { id: 1, title: "three" });
});

test("a documented status whose body is not the app's throws HttpError", async () => {
  const problem = { type: "about:blank", title: "Not Found", status: 404, code: "not_found", detail: "gone" };
  for (const body of [JSON.stringify(problem), "not json", JSON.stringify({ errors: { id: [1] } })]) {
    const fake: typeof fetch = async () => new Response(body, { status: 404 });
    await assert.rejects(articles.at.propagate({ ...connection(), fetch: fake }, 3), (err: unknown) => {
      assert.ok(err instanceof HttpError);
      assert.equal(err.status, 404);
      assert.equal(err.body, body);
      return true;
    });
  }
});

test("the optional guard's route answers with and without the token", async () => {
  const anonymous = await articles.readFeed(connection());
  assert.equal(anonymous.reader, null);
  const kim = await articles.readFeed({ ...connection(), security: { api_token: "jwt-kim" } });
  assert.equal(kim.reader, "kim");
  const wrong = await articles.readFeed.propagate({ ...connection(), security: { api_token: "guess" } });
  assert.deepEqual(
    { success: wrong.success, status: wrong.status, data: wrong.data },
    { success: false, status: 401, data: { errors: { unauthorized: ["the token is not known"] } } },
  );
});

test("the route that needs the token is not called without it", async () => {
  await assert.rejects(articles.favorite(connection(), 7), (err: unknown) => {
    assert.ok(err instanceof CredentialError);
    assert.equal(err.scheme, "api_token");
    return true;
  });
  const favorited = await articles.favorite({ ...connection(), security: { api_token: "jwt-kim" } }, 7);
  assert.deepEqual(favorited, { id: 7, title: "favorited by kim" });
});

test("the token is sent as `Token <jwt>` when set, and nothing without it", async () => {
  let sent: string | null = null;
  const spy: typeof fetch = async (_url, init) => {
    sent = new Headers(init?.headers).get("authorization");
    return new Response(JSON.stringify({ articles: [] }), { status: 200, headers: { "content-type": "application/json" } });
  };
  await articles.readFeed({ ...connection(), fetch: spy, security: { api_token: "jwt-kim" } });
  assert.equal(sent, "Token jwt-kim");
  await articles.readFeed({ ...connection(), fetch: spy });
  assert.equal(sent, null);
});

test("input refused by the client is an InputError, not an answer the server would not give", async () => {
  let called = false;
  const spy: typeof fetch = async () => {
    called = true;
    return new Response("{}", { status: 200 });
  };
  for (const mode of [{ validate: true }, { simulate: true }]) {
    await assert.rejects(
      articles.create.propagate({ ...connection(), ...mode, fetch: spy }, { title: "x", body: "far too long a body" }),
      (err: unknown) => {
        assert.ok(err instanceof InputError);
        assert.equal(err.code, "invalid_body");
        assert.deepEqual(
          err.issues.map((issue) => issue.path),
          ["$input.title", "$input.body"],
        );
        return true;
      },
    );
  }
  assert.equal(called, false);
});
