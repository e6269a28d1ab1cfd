// The kitchen fixture's TypeScript SDK against its server: every enum
// representation, recursion, maps, null vs absent, defaults, the query
// encoding and typed headers round-trip; 64-bit integers beyond 2^53 are
// refused instead of rounded. Run by `cargo test -p sdk-gen --test kitchen`.
import assert from "node:assert/strict";
import { test } from "node:test";

import api, { DecodeError, HttpError, type EverythingInput, type IConnection } from "../typescript/src/index.js";

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
    const output = await kitchen.echo.echo(connection(), input);
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
    await kitchen.echo.echo(connection(), bad);
    assert.fail("accepted");
  } catch (err) {
    assert.ok(err instanceof HttpError);
    assert.deepEqual(err.problem?.errors?.map((issue) => issue.path), ["$input.shape"]);
  }
  const client = await kitchen.echo.echo.propagate({ ...connection(), validate: true }, bad);
  assert.equal(client.success, false);
  if (!client.success) assert.deepEqual(client.data.errors?.map((issue) => issue.path), ["$input.shape"]);
});

test("the query is encoded as the server decodes it", async () => {
  const queries = [
    {},
    { page: 2 },
    { search: { writer: "kim & lee", title: "a=b?c#d[0]" }, tags: ["x y", "ü", "+plus"] },
    { page: 1, tags: [] },
  ];
  for (const query of queries) {
    const echoed = await kitchen.query.query(connection(), query);
    const expected = { ...query };
    if ("tags" in expected && expected.tags?.length === 0) delete expected.tags;
    assert.deepEqual(echoed, expected);
  }
  await assert.rejects(kitchen.query.query(connection(), { page: 0 }), (err: unknown) => err instanceof HttpError && err.status === 400);
});

test("typed headers are sent, repeated ones each", async () => {
  assert.deepEqual(await kitchen.headers.headers(connection(), { "x-tenant-id": 42 }), { "x-tenant-id": 42 });
  const labels = { "x-tenant-id": 7, "x-label": ["a", "b c"] };
  assert.deepEqual(await kitchen.headers.headers(connection(), labels), labels);
});

test("64-bit integers beyond 2^53 are refused, not rounded", async () => {
  assert.equal(await kitchen.numbers.number(connection(), 9007199254740991), 9007199254740991);
  await assert.rejects(kitchen.numbers.number(connection(), 2 ** 60), (err: unknown) => err instanceof DecodeError);
});
