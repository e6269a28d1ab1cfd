// The kitchen fixture's TypeScript SDK against its server: every enum
// representation, recursion, maps, null vs absent, defaults, the query
// encoding and typed headers round-trip; 64-bit integers beyond 2^53 are
// refused instead of rounded; forms, text, bytes, cookies, credentials,
// catch-all paths, downloads, redirects, `Created` and several success
// statuses go through as their media types say; multipart uploads, a
// streamed upload and a file streamed back (200, 206 for a range, 304)
// too. Run by
// `cargo test -p sdk-gen --test kitchen`.
import assert from "node:assert/strict";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { test } from "node:test";

import api, {
  CredentialError,
  DecodeError,
  EventStream,
  HttpError,
  InputError,
  MessageError,
  SocketClosedError,
  fileFromPath,
  reconnecting,
  type ChatEcho,
  type EverythingInput,
  type IConnection,
  type ServerEvent,
  type Tree,
  type Upload,
} from "../typescript/src/index.js";
import { random } from "../typescript/src/runtime.js";

const kitchen = api.functional.kitchen;

function connection(): IConnection {
  const host = process.env["KITCHEN_URL"];
  if (host === undefined) throw new Error("KITCHEN_URL is not set: run `cargo test -p sdk-gen --test kitchen`");
  return { host };
}

const base: EverythingInput = {
  shape: { type: "circle", radius: 1.5 },
  event: { t: "Started" },
  command: "Stop",
  loose: 2.5,
  tree: {
    label: "root ✓",
    children: [{ label: "leaf", children: [], only: null }],
    only: { label: "only", children: [], only: { label: "deeper", children: [], only: null } },
  },
  scores: { "a b": -3, "ünï": 9007199254740991 },
  bigNumber: 9007199254740991,
  small: -10,
  nullable: null,
  when: "2026-11-30T04:20:11.123+09:00",
  anything: { nested: [1, "two", null, { deep: true }] },
};

test("values of every shape round-trip unchanged", async () => {
  const variants: Partial<EverythingInput>[] = [
    { shape: { type: "square", side: 2 }, event: { t: "Renamed", c: "new ✓" }, command: { Say: "hi" }, loose: "text" },
    { shape: { type: "dot" }, event: { t: "Moved", c: { x: -1, y: 2 } }, command: { Go: { speed: 255 } }, loose: { a: true, b: false } },
    { nullable: "present", absent: 7, both: null },
    { both: "text", defaulted: 5 },
  ];
  for (const variant of [{}, ...variants]) {
    const input: EverythingInput = { ...base, ...variant };
    const output = await kitchen.echo(connection(), input);
    // The output shape: `defaulted` is always there; absent stays absent.
    const expected = { ...input, defaulted: input.defaulted ?? 0 };
    assert.deepEqual(output, expected);
    assert.equal("absent" in output, "absent" in input);
    assert.equal("both" in output, "both" in input);
  }
});

test("a refused union is listed with its path", async () => {
  const bad = { ...base, shape: { type: "triangle" } } as unknown as EverythingInput;
  try {
    await kitchen.echo(connection(), bad);
    assert.fail("accepted");
  } catch (err) {
    assert.ok(err instanceof HttpError);
    assert.deepEqual(err.problem?.errors?.map((issue) => issue.path), ["$input.shape"]);
  }
  const client = await kitchen.echo.propagate({ ...connection(), validate: true }, bad);
  assert.equal(client.success, false);
  if (!client.success) assert.deepEqual(client.data.errors?.map((issue) => issue.path), ["$input.shape"]);
});

test("the query is encoded as the server decodes it", async () => {
  const queries = [
    {},
    { page: 2 },
    { search: { writer: "kim & lee", title: "a=b?c#d[0]" }, tags: ["x y", "ü", "+plus"] },
    { page: 1, tags: [] },
    { counts: { "a b": 1, "ü&=": 2 } },
  ];
  for (const query of queries) {
    const echoed = await kitchen.query(connection(), query);
    const expected = { ...query };
    if ("tags" in expected && expected.tags?.length === 0) delete expected.tags;
    assert.deepEqual(echoed, expected);
  }
  await assert.rejects(kitchen.query(connection(), { page: 0 }), (err: unknown) => err instanceof HttpError && err.status === 400);
  // A key the server would read as nesting cannot travel: refused before sending.
  let sent = false;
  const spy: typeof fetch = async () => {
    sent = true;
    return new Response("{}");
  };
  for (const key of ["a[b]", "]"]) {
    for (const call of [kitchen.query, kitchen.forms.form]) {
      await assert.rejects(call({ ...connection(), fetch: spy }, { counts: { [key]: 1 } }), (err: unknown) => {
        assert.ok(err instanceof InputError);
        assert.equal(err.code, "unencodable_key");
        assert.equal(err.issues[0]?.value, key);
        return true;
      });
    }
  }
  assert.equal(sent, false);
});

test("typed headers are sent, repeated ones each", async () => {
  assert.deepEqual(await kitchen.headers(connection(), { "x-tenant-id": 42 }), { "x-tenant-id": 42 });
  const labels = { "x-tenant-id": 7, "x-label": ["a", "b c"] };
  assert.deepEqual(await kitchen.headers(connection(), labels), labels);
  // What the server would refuse or read otherwise is refused before sending.
  let sent = false;
  const spy: typeof fetch = async () => {
    sent = true;
    return new Response("{}");
  };
  const refused: [string, string][] = [["ü", "visible ASCII text"], [" a", "text without white space at either end"], ["a,b", "a list item without a comma"]];
  for (const [label, expected] of refused) {
    await assert.rejects(kitchen.headers({ ...connection(), fetch: spy }, { "x-tenant-id": 7, "x-label": ["ok", label] }), (err: unknown) => {
      assert.ok(err instanceof InputError);
      assert.equal(err.code, "unencodable_header");
      assert.deepEqual(err.issues, [{ path: '$headers["x-label"][1]', expected, value: label }]);
      return true;
    });
  }
  assert.equal(sent, false);
});

test("header items of the shared corpus are read as sent or refused before sending", async () => {
  const path = process.env["KITCHEN_STRINGS"];
  if (path === undefined) throw new Error("KITCHEN_STRINGS is not set: run `cargo test -p sdk-gen --test kitchen`");
  const { headers } = JSON.parse(readFileSync(path, "utf8")) as { headers: { sent: string[]; refused: string[] } };
  for (const label of headers.sent) {
    const sent = { "x-tenant-id": 7, "x-label": [label] };
    assert.deepEqual(await kitchen.headers(connection(), sent), sent, JSON.stringify(label));
  }
  for (const label of headers.refused) {
    await assert.rejects(kitchen.headers(connection(), { "x-tenant-id": 7, "x-label": [label] }), (err: unknown) => {
      assert.ok(err instanceof InputError, JSON.stringify(label));
      assert.equal(err.code, "unencodable_header");
      return true;
    });
  }
});

test("64-bit integers beyond 2^53 are refused, not rounded", async () => {
  assert.equal(await kitchen.numbers.number(connection(), 9007199254740991), 9007199254740991);
  await assert.rejects(kitchen.numbers.number(connection(), 2 ** 60), (err: unknown) => err instanceof DecodeError);
});

/** A connection that counts the requests it sends. */
function counted(security?: IConnection["security"]): { connection: IConnection; sent: () => number } {
  let count = 0;
  const connection: IConnection = {
    ...connection_(),
    fetch: (input, init) => {
      count++;
      return fetch(input, init);
    },
  };
  if (security !== undefined) connection.security = security;
  return { connection, sent: () => count };
}

function connection_(): IConnection {
  return connection();
}

async function status(promise: Promise<unknown>): Promise<HttpError> {
  try {
    await promise;
  } catch (err) {
    assert.ok(err instanceof HttpError, String(err));
    return err;
  }
  assert.fail("expected an HttpError");
}

test("a form body is encoded as the server decodes it, nested and listed", async () => {
  const filter = { page: 2, search: { writer: "kim & lee", title: "a=b?c#d[0]" }, tags: ["x y", "ü", "+plus"] };
  assert.deepEqual(await kitchen.forms.form(connection(), filter), filter);
  assert.deepEqual(await kitchen.forms.form(connection(), {}), {});
  const refused = await status(kitchen.forms.form(connection(), { page: 0 }));
  assert.equal(refused.status, 400);
  assert.deepEqual(refused.problem?.errors?.map((issue) => issue.path), ["$input.page"]);
});

test("text goes as text/plain and comes back as a string", async () => {
  const shouted: string = await kitchen.text.shout(connection(), "héllo wörld ✓ {\"json\": no}");
  assert.equal(shouted, "HÉLLO WÖRLD ✓ {\"JSON\": NO}");
});

test("a route is named by its operation_id, and the app's /api prefix is left out of names", async () => {
  const welcome: string = await api.functional.accounts.signIn(connection(), "ada");
  assert.equal(welcome, "welcome ada");
  assert.equal(await api.functional.accounts.profile(connection(), "ada"), "profile of ada");
  assert.equal(api.functional.accounts.signIn.path(), "/api/accounts/login");
});

test("bytes go as Uint8Array or Blob and come back as Uint8Array", async () => {
  const reversed: Uint8Array = await kitchen.bytes.reverse(connection(), new Uint8Array([0, 1, 2, 255]));
  assert.ok(reversed instanceof Uint8Array);
  assert.deepEqual([...reversed], [255, 2, 1, 0]);
  const blob = new Blob([new Uint8Array([9, 8, 7])], { type: "image/png" });
  assert.deepEqual([...(await kitchen.bytes.reverse(connection(), blob))], [7, 8, 9]);
  assert.deepEqual([...(await kitchen.bytes.reverse(connection(), new Uint8Array()))], []);
});

test("cookies are sent in a Cookie header and validated", async () => {
  const session = { sid: "a b;c=d,ü", theme: "dark" };
  assert.deepEqual(await kitchen.cookies(connection(), session), session);
  assert.deepEqual(await kitchen.cookies(connection(), { sid: "x" }), { sid: "x" });
  const refused = await status(kitchen.cookies(connection(), { sid: "" }));
  assert.equal(refused.status, 400);
  assert.deepEqual(refused.problem?.errors?.map((issue) => issue.path), ["$cookies.sid"]);
});

test("a credential is sent as a bearer token; without one nothing is sent", async () => {
  const missing = counted();
  await assert.rejects(kitchen.moderation.erase(missing.connection, 7), (err: unknown) => {
    assert.ok(err instanceof CredentialError);
    assert.equal(err.scheme, "moderator");
    assert.match(err.message, /connection\.security\.moderator/);
    return true;
  });
  await assert.rejects(kitchen.moderation.erase.propagate(missing.connection, 7), CredentialError);
  assert.equal(missing.sent(), 0);

  const wrong = await status(kitchen.moderation.erase({ ...connection(), security: { moderator: "guess" } }, 7));
  assert.equal(wrong.status, 401);
  assert.equal(wrong.problem?.code, "unauthorized");
  assert.equal(wrong.headers["www-authenticate"], "Bearer");

  const moderator = counted({ moderator: "m0d-t0ken" });
  const erased: void = await kitchen.moderation.erase(moderator.connection, 7);
  assert.equal(erased, undefined);
  const absent = await kitchen.moderation.erase.propagate(moderator.connection, 0);
  assert.equal(absent.success, false);
  assert.equal(absent.status, 404);
  const done = await kitchen.moderation.erase.propagate(moderator.connection, 8);
  assert.deepEqual([done.success, done.status], [true, 204]);
  assert.equal(moderator.sent(), 3);
});

test("a Token scheme's credential is the bare token: the SDK adds `Token `", async () => {
  const missing = counted();
  await assert.rejects(kitchen.reading.read(missing.connection), CredentialError);
  assert.equal(missing.sent(), 0);

  const wrong = await status(kitchen.reading.read({ ...connection(), security: { reader: "guess" } }));
  assert.equal(wrong.status, 401);
  assert.equal(wrong.problem?.code, "unauthorized");
  assert.equal(wrong.headers["www-authenticate"], "Token");

  const authorization: (string | null)[] = [];
  const reader: IConnection = {
    ...connection(),
    security: { reader: "r3ader.jwt" },
    fetch: (input, init) => {
      authorization.push(new Headers(init?.headers).get("authorization"));
      return fetch(input, init);
    },
  };
  const read: string = await kitchen.reading.read(reader);
  assert.equal(read, "read");
  assert.deepEqual(authorization, ["Token r3ader.jwt"]);
});

test("a catch-all parameter keeps its slashes; a download is bytes with its headers", async () => {
  const path = "a b/ünï/c.txt";
  const file = await kitchen.files.file(connection(), path);
  assert.equal(new TextDecoder().decode(file), path);
  assert.equal(kitchen.files.file.path(path), "/kitchen/files/a%20b/%C3%BCn%C3%AF/c.txt");
  const answer = await kitchen.files.file.propagate(connection(), "x");
  assert.ok(answer.success);
  if (answer.success) {
    assert.equal(answer.headers["content-type"], "text/plain");
    assert.equal(answer.headers["content-disposition"], 'attachment; filename="path.txt"');
  }
});

test("a redirect is reported with its location, not followed", async () => {
  const redirect = await kitchen.go(connection(), "x/y");
  assert.deepEqual(redirect, { status: 303, location: "/kitchen/files/x/y" });
  const propagated = await kitchen.go.propagate(connection(), "z");
  assert.equal(propagated.status, 303);
  if (propagated.success) assert.equal(propagated.data.location, "/kitchen/files/z");
});

test("Created answers its body with the new location", async () => {
  const tree: Tree = { label: "oak", children: [{ label: "twig", children: [], only: null }], only: null };
  const created = await kitchen.trees.plant(connection(), tree);
  assert.deepEqual(created, { location: "/kitchen/trees/1", body: tree });
});

test("several success statuses: the union of their data, propagate tells them apart", async () => {
  assert.deepEqual(await kitchen.jobs.job(connection(), 2), { id: 2 });
  assert.deepEqual(await kitchen.jobs.job(connection(), 3), { id: 3, poll: "/kitchen/jobs/3" });
  const queued = await kitchen.jobs.job.propagate(connection(), 5);
  assert.equal(queued.status, 202);
  if (queued.success && queued.status === 202) {
    // The 202 member's data is a Ticket: `poll` type-checks.
    assert.equal(queued.data.poll, "/kitchen/jobs/5");
  } else {
    assert.fail("expected 202");
  }
  const done = await kitchen.jobs.job.propagate(connection(), 4);
  assert.deepEqual([done.status, done.data], [200, { id: 4 }]);
  const simulated = await kitchen.jobs.job({ ...connection(), simulate: true }, 1);
  assert.equal(typeof simulated.id, "number");
});

test("a route marked sdk = false is not in the SDK", () => {
  assert.equal("page" in kitchen, false);
  assert.deepEqual(Object.keys(kitchen).sort(), [
    "bytes", "chat", "cookies", "echo", "files", "formats", "forms", "go", "headers", "jobs", "limits", "moderation", "numbers", "patterns", "query", "reading", "streamed", "streams", "text", "ticks", "trees", "uploads",
  ]);
});

test("server-sent events arrive typed, in order, and resume after Last-Event-ID", async () => {
  const events = await kitchen.ticks(connection(), { count: 3 });
  assert.ok(events instanceof EventStream, "the entry point exports EventStream and ServerEvent");
  const row = (event: ServerEvent<{ n: number; note: string }>): [number, string, string, string] => [event.data.n, event.event, event.id, event.data.note];
  const seen: [number, string, string, string][] = [];
  for await (const event of events) seen.push(row(event));
  assert.deepEqual(seen, [
    [1, "tick", "1", "tick 1\nof 3"],
    [2, "tick", "2", "tick 2\nof 3"],
    [3, "tick", "3", "tick 3\nof 3"],
  ]);
  const resumed = await kitchen.ticks({ ...connection(), headers: { "last-event-id": "2" } }, { count: 4 });
  const rest: number[] = [];
  for await (const event of resumed) rest.push(event.data.n);
  assert.deepEqual(rest, [3, 4]);
});

test("an event stream stops when the loop breaks or the signal aborts", async () => {
  const events = await kitchen.ticks(connection(), { count: 100 });
  let first: number | undefined;
  for await (const event of events) {
    first = event.data.n;
    break;
  }
  assert.equal(first, 1);
  const controller = new AbortController();
  const aborted = await kitchen.ticks({ ...connection(), signal: controller.signal }, { count: 100 });
  const read: number[] = [];
  await assert.rejects(async () => {
    for await (const event of aborted) {
      read.push(event.data.n);
      if (read.length === 2) controller.abort();
    }
  }, (err: unknown) => err instanceof Error && err.name === "AbortError");
  assert.ok(read.length >= 2 && read.length < 100, `${read.length} events read`);
});

test("reconnecting resumes a broken stream after the last event, and stops at a refusal", async () => {
  // The first connection breaks after its first event, as a network would.
  const sent: (string | null)[] = [];
  const flaky: typeof fetch = async (input, init) => {
    const request = new Request(input, init);
    sent.push(request.headers.get("last-event-id"));
    const response = await fetch(request);
    if (sent.length > 1) return response;
    const text = await response.text();
    const first = new TextEncoder().encode(text.slice(0, text.indexOf("\n\n") + 2));
    let pulls = 0;
    const body = new ReadableStream<Uint8Array>({
      pull(controller) {
        if (pulls++ === 0) controller.enqueue(first);
        else controller.error(new TypeError("terminated"));
      },
    });
    return new Response(body, { status: response.status, headers: response.headers });
  };
  const seen: number[] = [];
  const ticks = reconnecting((resume) => kitchen.ticks({ ...connection(), fetch: flaky, headers: resume }, { count: 3 }), { delay: 1 });
  for await (const event of ticks) {
    seen.push(event.data.n);
    if (seen.length === 3) break;
  }
  assert.deepEqual(seen, [1, 2, 3], "nothing missed or read twice");
  assert.deepEqual(sent, [null, "1"], "the second connection resumes after event 1");

  let opened = 0;
  const refused = reconnecting(() => {
    opened += 1;
    return kitchen.ticks(connection(), { count: 101 });
  }, { delay: 1 });
  await assert.rejects(refused.next(), (err: unknown) => err instanceof HttpError && err.status === 400);
  assert.equal(opened, 1, "a 4xx is not retried");

  opened = 0;
  const unavailable: typeof fetch = async () => {
    opened += 1;
    return new Response("", { status: 503 });
  };
  const down = reconnecting((resume) => kitchen.ticks({ ...connection(), fetch: unavailable, headers: resume }, { count: 3 }), { delay: 1, attempts: 3 });
  await assert.rejects(down.next(), (err: unknown) => err instanceof HttpError && err.status === 503);
  assert.equal(opened, 3, "a 5xx is retried until the attempts run out");
});

test("a refused events query is the server's 400 and simulate gives typed events", async () => {
  await assert.rejects(kitchen.ticks(connection(), { count: 101 }), (err: unknown) => err instanceof HttpError && err.status === 400);
  const simulated = await kitchen.ticks({ host: "http://simulation.invalid", simulate: true }, { count: 1 });
  let count = 0;
  for await (const event of simulated) {
    assert.equal(typeof event.data.n, "number");
    assert.ok(event.data.n >= 1);
    count += 1;
  }
  assert.equal(count, 3);
});

// WebSocket routes need a global WebSocket (Node 20 runs these tests with
// --experimental-websocket) or `connection.webSocket`. The chat's typed
// headers go with the handshake (the server echoes the tenant).

const tenant = { "x-tenant-id": 3 };

test("a WebSocket route carries typed messages both ways and closes cleanly", async () => {
  const socket = await kitchen.chat(connection(), "lobby ✓", { "x-tenant-id": 7 }, { nick: "kim" });
  socket.send({ text: "hello" });
  socket.send({ text: "there", aside: "quietly" });
  const heard: ChatEcho[] = [];
  for await (const echo of socket) {
    heard.push(echo);
    if (heard.length === 2) break;
  }
  assert.deepEqual(heard, [
    { room: "lobby ✓", nick: "kim", tenant: 7, text: "hello", seq: 1 },
    { room: "lobby ✓", nick: "kim", tenant: 7, text: "there", seq: 2 },
  ]);
  // Breaking out of the loop closed the socket.
  assert.equal((await socket.closed).code, 1000);
  assert.throws(() => socket.send({ text: "late" }), SocketClosedError);
});

test("a socket the server ends (bye) ends the iteration", async () => {
  const socket = await kitchen.chat(connection(), "lobby", tenant, { nick: "kim" });
  socket.send({ text: "one" });
  socket.send({ text: "bye" });
  const heard: string[] = [];
  for await (const echo of socket) heard.push(echo.text);
  assert.deepEqual(heard, ["one"]);
  assert.deepEqual(await socket.closed, { code: 1000, reason: "" });
});

test("an invalid message closes the socket with 1007 and the problem, a long one with 1009", async () => {
  const expectClose = async (text: string, aside: string | undefined, code: number, reason: RegExp) => {
    const socket = await kitchen.chat(connection(), "lobby", tenant, { nick: "kim" });
    socket.send(aside === undefined ? { text } : { text, aside });
    await assert.rejects(
      async () => {
        for await (const echo of socket) assert.fail(`no echo expected, got ${echo.text}`);
      },
      (err: unknown) => err instanceof SocketClosedError && err.code === code && reason.test(err.reason),
    );
  };
  // `aside` is checked by the server only (check = quiet): even a
  // validating client sends it.
  const validating = await kitchen.chat({ ...connection(), validate: true }, "lobby", tenant, { nick: "kim" });
  validating.send({ text: "hi", aside: "SHOUT" });
  await assert.rejects(
    async () => {
      for await (const echo of validating) assert.fail(`no echo expected, got ${echo.text}`);
    },
    (err: unknown) => err instanceof SocketClosedError && err.code === 1007 && /^message: \$input\.aside is not /.test(err.reason),
  );
  await expectClose("x".repeat(2000), undefined, 1009, /^message_too_large: larger than 1024 bytes$/);
  // Without `validate`, the server lists the first problem and the count.
  const unchecked = await kitchen.chat(connection(), "lobby", tenant, { nick: "kim" });
  unchecked.send({ text: "" });
  await assert.rejects(
    async () => {
      for await (const _ of unchecked) assert.fail("no echo expected");
    },
    (err: unknown) =>
      err instanceof SocketClosedError &&
      err.code === 1007 &&
      err.reason === "message: $input.text is not string & MinLength<1> & MaxLength<200>",
  );
});

test("with validate, an invalid message is refused by the client, every issue listed", async () => {
  const socket = await kitchen.chat({ ...connection(), validate: true }, "lobby", tenant, { nick: "kim" });
  assert.throws(
    () => socket.send({ text: "" }),
    (err: unknown) => err instanceof MessageError && err.issues.length === 1 && err.issues[0]?.path === "$input.text",
  );
  socket.send({ text: "still open" });
  for await (const echo of socket) {
    assert.equal(echo.text, "still open");
    break;
  }
});

test("a refused handshake throws the route's error; simulate answers each message", async () => {
  await assert.rejects(
    kitchen.chat(connection(), "lobby", tenant, { nick: "" }),
    (err: unknown) => {
      assert.ok(err instanceof HttpError, String(err));
      assert.equal(err.status, 400);
      assert.equal(err.problem?.errors?.[0]?.path, "$query.nick");
      return true;
    },
  );
  const simulated = await kitchen.chat({ host: "http://simulation.invalid", simulate: true }, "lobby", tenant, { nick: "kim" });
  simulated.send({ text: "anyone?" });
  assert.throws(() => simulated.send({ text: "" }), MessageError);
  for await (const echo of simulated) {
    assert.equal(typeof echo.seq, "number");
    assert.equal(typeof echo.text, "string");
    break;
  }
  assert.equal((await simulated.closed).code, 1000);
});

test("aborting the connection's signal ends a socket's iteration and closes it", async () => {
  const controller = new AbortController();
  const socket = await kitchen.chat({ ...connection(), signal: controller.signal }, "lobby", tenant, { nick: "kim" });
  socket.send({ text: "first" });
  const heard: string[] = [];
  await assert.rejects(
    async () => {
      for await (const echo of socket) {
        heard.push(echo.text);
        controller.abort();
      }
    },
    (err: unknown) => err instanceof Error && err.name === "AbortError",
  );
  assert.deepEqual(heard, ["first"]);
  assert.equal((await socket.closed).code, 1000);
});

const text = (bytes: Uint8Array | undefined): string => new TextDecoder().decode(bytes);

function upload(): Upload {
  return {
    title: "holiday ü & co",
    copies: 2,
    labels: ["a b", "c"],
    picture: new File([new Uint8Array([80, 78, 71, 33])], "sea.png", { type: "image/png" }),
    note: new Blob(["a note"], { type: "text/plain" }),
    attachments: [new File(["one"], "1.txt"), new Blob([new Uint8Array([0, 1, 2])])],
  };
}

test("a multipart upload sends text fields and files as the server reads them", async () => {
  const received = await kitchen.uploads.upload(connection(), upload());
  assert.deepEqual(received, {
    title: "holiday ü & co",
    copies: 2,
    labels: ["a b", "c"],
    picture: { name: "sea.png", media_type: "image/png", size: 4, text: "PNG!" },
    note: { name: "blob", media_type: "text/plain", size: 6, text: "a note" },
    attachments: [
      { name: "1.txt", media_type: "application/octet-stream", size: 3, text: "one" },
      { name: "blob", media_type: "application/octet-stream", size: 3, text: "\u0000\u0001\u0002" },
    ],
  });
  const { note: _note, ...without } = upload();
  // A file from disk is named after it (a bare `fs.openAsBlob` would be `blob`).
  const dir = mkdtempSync(join(tmpdir(), "kitchen-"));
  writeFileSync(join(dir, "from disk.png"), "PNG!");
  const fromDisk = await kitchen.uploads.upload(connection(), { ...upload(), picture: await fileFromPath(join(dir, "from disk.png"), "image/png") });
  assert.deepEqual(fromDisk.picture, { name: "from disk.png", media_type: "image/png", size: 4, text: "PNG!" });
  rmSync(dir, { recursive: true });
  const bare = await kitchen.uploads.upload(connection(), { ...without, labels: [], attachments: [] });
  assert.equal("note" in bare, false);
  assert.deepEqual([bare.labels, bare.attachments], [[], []]);
});

test("a refused upload lists every problem; a file over its limit is 413", async () => {
  const wrong = { ...upload(), picture: new Blob(["GIF89a"], { type: "image/gif" }), copies: 0 };
  const refused = await status(kitchen.uploads.upload(connection(), wrong));
  assert.equal(refused.status, 400);
  assert.deepEqual(
    refused.problem?.errors?.map((issue) => [issue.path, issue.expected]),
    [
      ["$input.picture", 'File & MaxSize<65536> & Accept<"image/png, image/jpeg">'],
      ["$input.copies", 'number & Type<"uint32"> & Minimum<1>'],
    ],
  );
  // The client's own check gives the server's verdict, paths and all.
  const checked = await status(kitchen.uploads.upload({ ...connection(), validate: true }, wrong));
  assert.equal(checked.status, 400);
  assert.deepEqual(
    checked.problem?.errors?.map((issue) => [issue.path, issue.expected]),
    [
      ["$input.copies", 'number & Type<"uint32"> & Minimum<1>'],
      ["$input.picture", 'File & MaxSize<65536> & Accept<"image/png, image/jpeg">'],
    ],
  );
  const big = { ...upload(), attachments: [new Blob([new Uint8Array(2000)])] };
  const tooLarge = await status(kitchen.uploads.upload(connection(), big));
  assert.equal(tooLarge.status, 413);
  assert.equal(tooLarge.problem?.code, "file_too_large");
  assert.equal(tooLarge.problem?.errors?.[0]?.path, "$input.attachments[0]");
  const many = await status(kitchen.uploads.upload({ ...connection(), validate: true }, { ...upload(), attachments: [1, 2, 3, 4].map(() => new Blob(["x"])) }));
  assert.deepEqual(many.problem?.errors?.map((issue) => issue.path), ["$input.attachments"]);
});

test("a file the runtime draws is of a media type its field accepts, wildcards too", () => {
  for (let round = 0; round < 50; round++) {
    const drawn = random(kitchen.uploads.upload.METADATA.body, 0) as Upload;
    assert.ok(["image/png", "image/jpeg"].includes(drawn.picture.type), drawn.picture.type);
    // `note` accepts `text/*`.
    if (drawn.note != null) assert.equal(drawn.note.type, "text/plain");
  }
});

test("simulate checks an upload and answers a random receipt", async () => {
  const simulated = await kitchen.uploads.upload({ ...connection(), simulate: true }, upload());
  assert.equal(typeof simulated.title, "string");
  assert.equal(typeof simulated.picture.size, "number");
  const refused = await status(kitchen.uploads.upload({ ...connection(), simulate: true }, { ...upload(), picture: new Blob([new Uint8Array(70000)], { type: "image/png" }) }));
  assert.equal(refused.status, 400);
  assert.deepEqual(refused.problem?.errors?.map((issue) => issue.path), ["$input.picture"]);
});

test("a streamed upload is summed as it arrives; over the body limit it is 413", async () => {
  const bytes = new Uint8Array(1024 * 1024).map((_, index) => index % 251);
  const sum = bytes.reduce((total, byte) => total + byte, 0);
  assert.deepEqual(await kitchen.streams.sum(connection(), bytes), { size: bytes.length, sum });
  assert.deepEqual(await kitchen.streams.sum(connection(), new Blob([bytes, bytes])), { size: 2 * bytes.length, sum: 2 * sum });
  const tooLarge = await status(kitchen.streams.sum(connection(), new Uint8Array(3 * 1024 * 1024)));
  assert.equal(tooLarge.status, 413);
  assert.equal(tooLarge.problem?.code, "payload_too_large");
});

test("a streamed file: 200 with its length, 206 for a range, 304 for a current copy", async () => {
  const whole = await kitchen.streamed.propagate(connection(), {});
  assert.equal(whole.status, 200);
  if (!whole.success) return assert.fail("expected 200");
  assert.equal(whole.headers?.["content-length"], "4096");
  assert.equal(whole.headers?.["accept-ranges"], "bytes");
  assert.equal(text(whole.data).slice(0, 20), "0123456789abcdef0123");
  const etag = whole.headers?.["etag"] ?? "";
  assert.match(etag, /^"[0-9a-f-]+"$/);

  const part = await kitchen.streamed.propagate(connection(), { range: "bytes=16-35" });
  assert.equal(part.status, 206);
  assert.equal(part.success && part.headers?.["content-range"], "bytes 16-35/4096");
  assert.equal(text(part.data as Uint8Array), "0123456789abcdef0123");
  assert.equal(text(await kitchen.streamed(connection(), { range: "bytes=-4" })), "cdef");

  const current = await kitchen.streamed.propagate(connection(), { "if-none-match": etag });
  assert.deepEqual([current.status, current.data], [304, undefined]);
  assert.equal(await kitchen.streamed(connection(), { "if-none-match": etag }), undefined);
  const changed = await kitchen.streamed.propagate(connection(), { range: "bytes=0-3", "if-range": '"other"' });
  assert.equal(changed.status, 200);

  const beyond = await status(kitchen.streamed(connection(), { range: "bytes=5000-" }));
  assert.equal(beyond.status, 416);
  assert.equal(beyond.problem?.code, "range_not_satisfiable");
  assert.equal(beyond.headers["content-range"], "bytes */4096");
  // Read as it arrives: the same bytes, chunk by chunk; no body for a 304.
  const streamed = await kitchen.streamed.stream(connection(), {});
  assert.equal(streamed.status, 200);
  const reader = streamed.body?.getReader();
  if (reader === undefined) return assert.fail("expected a body");
  const chunks: Uint8Array[] = [];
  for (let next = await reader.read(); !next.done; next = await reader.read()) chunks.push(next.value);
  const joined = new Uint8Array(chunks.reduce((total, chunk) => total + chunk.length, 0));
  chunks.reduce((at, chunk) => (joined.set(chunk, at), at + chunk.length), 0);
  assert.equal(joined.length, 4096);
  assert.equal(text(joined), text(whole.data));
  const streamedPart = await kitchen.streamed.stream(connection(), { range: "bytes=16-35" });
  assert.equal(streamedPart.status, 206);
  assert.equal(streamedPart.headers["content-range"], "bytes 16-35/4096");
  assert.equal(await new Response(streamedPart.body).text(), "0123456789abcdef0123");
  const unchanged = await kitchen.streamed.stream(connection(), { "if-none-match": etag });
  assert.deepEqual([unchanged.status, unchanged.body], [304, null]);
  await assert.rejects(kitchen.streamed.stream(connection(), { range: "bytes=5000-" }), (err: unknown) => err instanceof HttpError && err.status === 416);
  const failure = await kitchen.streamed.propagate(connection(), { range: "bytes=5000-" });
  assert.ok(!failure.success && failure.status === 416);
  assert.equal(failure.headers["content-range"], "bytes */4096", "propagate's failure carries the headers");
});
