// The TypeScript SDK against the BBS server over a socket: every route and
// every documented error, values round-tripping unchanged. Run by the
// cargo test `sdk_typescript`, which starts the servers and sets BBS_URL
// and BBS_UNAVAILABLE_URL.
import assert from "node:assert/strict";
import { test } from "node:test";

import api, {
  CredentialError,
  HttpError,
  type ArticleCreate,
  type ArticleSort,
  type BbsArticle,
  type IConnection,
} from "../src/index.js";

const articles = api.functional.bbs.articles;
const section = "free talk/ünïcode?&#";

function env(name: string): string {
  const value = process.env[name];
  if (value === undefined) throw new Error(`${name} is not set: run this through \`cargo test -p bbs sdk_typescript\``);
  return value;
}

function createInput(title: string, format: ArticleCreate["format"]): ArticleCreate {
  return {
    writer: "Robert «Bob» 鈴木",
    title,
    body: 'Hello, 世界! 👋\n"quoted" \\ and \u0000',
    format,
    files: [
      { name: "logo", extension: "png", url: "https://example.com/logo.png" },
      { name: null, extension: null, url: "https://example.com/README" },
    ],
    password: "correct horse",
  };
}

async function refused(promise: Promise<unknown>, status: number, code: string): Promise<HttpError> {
  try {
    await promise;
  } catch (err) {
    assert.ok(err instanceof HttpError, `expected an HttpError, got ${String(err)}`);
    assert.equal(err.status, status, err.body);
    assert.equal(err.problem?.code, code, err.body);
    return err;
  }
  assert.fail(`expected ${status} ${code}, got a success`);
}

test("every route and documented error through the TypeScript SDK", async () => {
  const connection: IConnection = { host: env("BBS_URL") };

  const created: BbsArticle[] = [];
  for (const [index, format] of (["md", "html", "txt"] as const).entries()) {
    const input = createInput(`Title ${index}`, format);
    const article = await articles.create(connection, section, input);
    assert.equal(article.section, section);
    assert.equal(article.writer, input.writer);
    const { title, body, format: written, files } = article.snapshots[0]!;
    assert.deepEqual({ title, body, format: written, files }, {
      title: input.title,
      body: input.body,
      format: input.format,
      files: input.files,
    });
    created.push(article);
  }

  for (const article of created) {
    assert.deepEqual(await articles.at(connection, section, article.id), article);
  }

  const sorts: ArticleSort[] = [
    "+writer", "-writer", "+title", "-title",
    "+created_at", "-created_at", "+updated_at", "-updated_at",
  ];
  for (const sort of sorts) {
    const page = await articles.index(connection, section, {
      page: 1,
      limit: 2,
      search: { writer: "bob" },
      sort: [sort],
    });
    assert.equal(page.data.length, 2, sort);
    assert.deepEqual(page.pagination, { current: 1, limit: 2, records: 3, pages: 2 });
  }
  const ascending = await articles.index(connection, section, { sort: ["+title"] });
  assert.deepEqual(ascending.data.map((summary) => summary.title), ["Title 0", "Title 1", "Title 2"]);

  // update: a documented 403, thrown or propagated; then the right password.
  const target = created[0]!;
  const update = { title: "Second version", body: "Body v2 — ✓", format: "txt" as const, files: [], password: "wrong" };
  await refused(articles.update(connection, section, target.id, update), 403, "wrong_password");
  const propagated = await articles.update.propagate(connection, section, target.id, update);
  assert.equal(propagated.success, false);
  assert.equal(propagated.status, 403);
  if (!propagated.success) assert.equal(propagated.data.code, "wrong_password");
  const snapshot = await articles.update(connection, section, target.id, { ...update, password: "correct horse" });
  assert.deepEqual([snapshot.title, snapshot.body, snapshot.format], ["Second version", "Body v2 — ✓", "txt"]);
  const ok = await articles.at.propagate(connection, section, target.id);
  assert.equal(ok.success, true);
  if (ok.success) assert.deepEqual(ok.data.snapshots[1], snapshot);

  // 400: the server's list of problems; client-side validation lists the same.
  const invalid = createInput("no", "md");
  invalid.files[0]!.url = "not a uri";
  const server = await refused(articles.create(connection, section, invalid), 400, "invalid_body");
  const client = await refused(
    articles.create({ ...connection, validate: true }, section, invalid),
    400,
    "invalid_body",
  );
  assert.deepEqual(server.problem?.errors?.map((issue) => issue.path), ["$input.title", "$input.files[0].url"]);
  assert.deepEqual(client.problem?.errors, server.problem?.errors);
  await refused(articles.at({ ...connection, validate: true }, section, "not-a-uuid"), 400, "invalid_path_parameter");
  await refused(articles.at(connection, section, "not-a-uuid"), 400, "invalid_path_parameter");

  // 413: a body over the limit; 415: a fetch that mislabels the body.
  const huge = createInput("Huge", "md");
  huge.body = "x".repeat(2 * 1024 * 1024 + 1);
  await refused(articles.create(connection, section, huge), 413, "payload_too_large");
  const mislabel: typeof fetch = (url, init) => {
    const headers = new Headers(init?.headers);
    headers.set("content-type", "text/plain");
    return fetch(url, { ...init, headers });
  };
  await refused(articles.create({ ...connection, fetch: mislabel }, section, createInput("Plain", "md")), 415, "unsupported_media_type");

  // erase: 403, done (void), then 404 thrown and propagated.
  await refused(articles.erase(connection, section, target.id, { password: "wrong" }), 403, "wrong_password");
  assert.equal(await articles.erase(connection, section, target.id, { password: "correct horse" }), undefined);
  await refused(articles.at(connection, section, target.id), 404, "not_found");
  const gone = await articles.erase.propagate(connection, section, target.id, { password: "correct horse" });
  assert.deepEqual([gone.success, gone.status], [false, 404]);
});

test("an unavailable store is a documented 503", async () => {
  const connection: IConnection = { host: env("BBS_UNAVAILABLE_URL") };
  await refused(articles.at(connection, "general", "00000000-0000-0000-0000-000000000000"), 503, "unavailable");
  const answer = await articles.create.propagate(connection, "general", createInput("Down", "md"));
  assert.deepEqual([answer.success, answer.status], [false, 503]);
});

test("path parameters are URI-encoded", () => {
  assert.equal(articles.at.path("a/b?c#d", "x y"), "/bbs/articles/a%2Fb%3Fc%23d/x%20y");
  assert.equal(articles.create.path(section), "/bbs/articles/free%20talk%2F%C3%BCn%C3%AFcode%3F%26%23");
});

test("a moderator erases with the token on the connection", async () => {
  const host = env("BBS_URL");
  const section = "moderated";
  const article = await articles.create({ host }, section, createInput("To be moderated", "md"));
  const moderation = api.functional.bbs.moderation.articles;

  await assert.rejects(moderation.erase({ host }, section, article.id), CredentialError);
  await refused(moderation.erase({ host, security: { moderator: "not it" } }, section, article.id), 401, "unauthorized");
  await moderation.erase({ host, security: { moderator: env("BBS_MODERATOR_TOKEN") } }, section, article.id);
  await refused(articles.at({ host }, section, article.id), 404, "not_found");
});

test("the live feed: typed events as they come, resumed with Last-Event-ID or after", async () => {
  const connection: IConnection = { host: env("BBS_URL") };
  const live = "live feed/ü";
  const events = await articles.events.follow(connection, live, {});
  const feed = events[Symbol.asyncIterator]();
  const first = await articles.create(connection, live, createInput("Live one", "md"));
  const second = await articles.create(connection, live, createInput("Live two", "txt"));
  const seen = [];
  for (let n = 0; n < 2; n++) {
    const next = await feed.next();
    assert.equal(next.done, false);
    seen.push(next.value);
  }
  await events.close();
  const [created, then] = seen;
  assert.ok(created !== undefined && then !== undefined);
  assert.equal(created.event, "created");
  assert.ok(created.data.type === "created");
  assert.deepEqual(created.data.article, {
    id: first.id,
    writer: first.writer,
    title: "Live one",
    created_at: first.created_at,
    updated_at: first.created_at,
  });
  assert.ok(then.data.type === "created" && then.data.article.id === second.id);
  assert.ok(Number(then.id) > Number(created.id), `${then.id} after ${created.id}`);

  // A client that saw the first event resumes after it with Last-Event-ID...
  const resumed = await articles.events.follow({ ...connection, headers: { "last-event-id": created.id } }, live, {});
  for await (const event of resumed) {
    assert.equal(event.id, then.id);
    break;
  }
  // ... or with `after`, and then follows live: an update, an erasure.
  const after = await articles.events.follow(connection, live, { after: Number(then.id) });
  const rest = after[Symbol.asyncIterator]();
  await articles.update(connection, live, second.id, {
    title: "Live two, again",
    body: "edited",
    format: "txt",
    files: [],
    password: "correct horse",
  });
  await articles.erase(connection, live, second.id, { password: "correct horse" });
  const updated = await rest.next();
  assert.ok(!updated.done && updated.value.data.type === "updated");
  assert.equal(updated.value.data.article.title, "Live two, again");
  const erased = await rest.next();
  assert.ok(!erased.done && erased.value.event === "erased");
  assert.deepEqual(erased.value.data, { type: "erased", id: second.id });
  await after.close();

  await refused(
    articles.events.follow({ ...connection, headers: { "last-event-id": "seven" } }, live, {}),
    400,
    "invalid_last_event_id",
  );
});

test("files are uploaded to an article, listed and downloaded", async () => {
  const connection: IConnection = { host: env("BBS_URL") };
  const article = await articles.create(connection, section, createInput("with files", "md"));
  const picture = new File([new Uint8Array([0x89, 0x50, 0x4e, 0x47])], "photo.png", { type: "image/png" });
  const notes = new Blob(["first line\n"], { type: "text/plain" });
  const snapshot = await articles.files.upload(connection, section, article.id, {
    password: "correct horse",
    files: [picture, notes],
  });
  assert.equal(snapshot.files.length, 4);
  assert.deepEqual(
    snapshot.files.slice(2).map((file) => [file.name, file.extension]),
    [["photo", "png"], ["blob", null]],
  );
  const url = snapshot.files[2]?.url ?? "";
  const fileId = url.split("/").pop() ?? "";
  assert.equal(url, `/bbs/articles/${encodeURIComponent(section)}/${article.id}/files/${fileId}`);
  const whole = await articles.files.download.propagate(connection, section, article.id, fileId, {});
  assert.equal(whole.status, 200);
  assert.ok(whole.success);
  assert.equal(whole.headers?.["content-type"], "image/png");
  assert.deepEqual([...(whole.data ?? [])], [0x89, 0x50, 0x4e, 0x47]);
  const part = await articles.files.download(connection, section, article.id, fileId, { range: "bytes=1-3" });
  assert.equal(new TextDecoder().decode(part), "PNG");

  await refused(
    articles.files.upload(connection, section, article.id, { password: "guess", files: [notes] }),
    403,
    "wrong_password",
  );
  const html = new Blob(["<script>"], { type: "text/html" });
  const wrongType = await refused(
    articles.files.upload(connection, section, article.id, { password: "correct horse", files: [html] }),
    400,
    "invalid_body",
  );
  assert.deepEqual(wrongType.problem?.errors?.map((issue) => issue.path), ["$input.files[0]"]);
  const tooLarge = await refused(
    articles.files.upload(connection, section, article.id, {
      password: "correct horse",
      files: [new Blob([new Uint8Array(11 * 1024 * 1024)], { type: "text/plain" })],
    }),
    413,
    "file_too_large",
  );
  assert.equal(tooLarge.problem?.errors?.[0]?.path, "$input.files[0]");
});
