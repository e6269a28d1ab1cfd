// The TypeScript runtime gives the server's verdicts (issue 14): every
// value of `tests/kitchen/parity.json`, whose verdicts the Rust test
// `the_server_gives_the_parity_corpus_verdicts` checks against the server,
// is accepted or refused by client-side validation alike, with the same
// issues where the corpus names them. Integers beyond 2^53 are refused by
// the client (`& SafeInteger`) instead of rounded, by design. Answers with
// such an integer throw `DecodeError` wherever it is, untagged unions too.
// Run by `cargo test -p sdk-gen --test kitchen`.
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { test } from "node:test";

import api, { DecodeError, type IConnection } from "../typescript/src/index.js";
import { check, integerPeriod, type ValidationIssue } from "../typescript/src/runtime.js";

interface Entry {
  type: string;
  value?: unknown;
  /** JSON text no value can hold (a key written twice): the Rust tests read it. */
  json?: string;
  valid: boolean;
  unsafe?: boolean;
  issues?: [string, string][];
}

function corpus(): Entry[] {
  const path = process.env["KITCHEN_CORPUS"];
  if (path === undefined) throw new Error("KITCHEN_CORPUS is not set: run `cargo test -p sdk-gen --test kitchen`");
  return JSON.parse(readFileSync(path, "utf8")) as Entry[];
}

test("client validation gives the server's verdict on every corpus value", () => {
  const wrong: string[] = [];
  const entries = corpus();
  assert.ok(entries.length > 50);
  for (const entry of entries) {
    // `JSON.parse` keeps the last of two equal keys: validation sees values,
    // not text, so the entries given as text are the Rust side's.
    if (entry.json !== undefined) continue;
    const issues: ValidationIssue[] = [];
    check({ k: "ref", ref: entry.type, e: entry.type }, entry.value, "$input", "in", issues);
    const found = issues.map((issue) => [issue.path, issue.expected]);
    const fits =
      entry.unsafe === true
        ? issues.length > 0 && issues.every((issue) => issue.expected.endsWith("& SafeInteger"))
        : entry.valid
          ? issues.length === 0
          : issues.length > 0 && (entry.issues === undefined || JSON.stringify(found) === JSON.stringify(entry.issues));
    if (!fits) wrong.push(`${entry.type} ${JSON.stringify(entry.value)} (valid: ${entry.valid}): ${JSON.stringify(found)}`);
  }
  assert.deepEqual(wrong, []);
});

test("an integer step has the server's integer period", () => {
  assert.equal(integerPeriod(2), 2n);
  assert.equal(integerPeriod(0.5), 1n);
  assert.equal(integerPeriod(1.5), 3n);
  assert.equal(integerPeriod(0.1), 1n);
  assert.equal(integerPeriod(2.5e-7), 1n);
  assert.equal(integerPeriod(0.75), 3n);
  assert.equal(integerPeriod(0), null);
});

/** A connection whose server answers `body` with 200. */
function answering(body: string): IConnection {
  return {
    host: "http://127.0.0.1:9",
    fetch: async () => new Response(body, { status: 200, headers: { "content-type": "application/json" } }),
  };
}

test("an integer beyond 2^53 in an untagged variant is a DecodeError, not rounded", async () => {
  const limits = api.functional.kitchen.limits;
  assert.deepEqual(await limits(answering('{"wide":9007199254740991}'), {}), { wide: 9007199254740991 });
  assert.deepEqual(await limits(answering('{"wide":[1,2]}'), {}), { wide: [1, 2] });
  assert.deepEqual(await limits(answering('{"wide":"x"}'), {}), { wide: "x" });
  for (const body of ['{"wide":9007199254740993}', '{"wide":[1,9007199254740993]}', '{"even":9007199254740994}']) {
    await assert.rejects(limits(answering(body), {}), (err: unknown) => err instanceof DecodeError, body);
  }
});

interface Verdicts {
  valid: string[];
  invalid: string[];
}

interface StringCorpus {
  formats: Record<string, Verdicts>;
  patterns: Record<string, Verdicts & { pattern: string }>;
}

function stringCorpus(): StringCorpus {
  const path = process.env["KITCHEN_STRINGS"];
  if (path === undefined) throw new Error("KITCHEN_STRINGS is not set: run `cargo test -p sdk-gen --test kitchen`");
  return JSON.parse(readFileSync(path, "utf8")) as StringCorpus;
}

/** The verdicts of `verdicts` that client validation does not give to `{field: text}` as `type`. */
function wrongVerdicts(type: string, field: string, verdicts: Verdicts): string[] {
  const cases: [string, boolean][] = [
    ...verdicts.valid.map((text): [string, boolean] => [text, true]),
    ...verdicts.invalid.map((text): [string, boolean] => [text, false]),
  ];
  return cases
    .filter(([text, valid]) => {
      const issues: ValidationIssue[] = [];
      check({ k: "ref", ref: type, e: type }, { [field]: text }, "$input", "in", issues);
      return (issues.length === 0) !== valid;
    })
    .map(([text, valid]) => `${field} ${JSON.stringify(text)} (valid: ${valid})`);
}

test("client validation gives the server's verdict on every format and pattern of the corpus", () => {
  const corpus = stringCorpus();
  const wrong: string[] = [];
  assert.equal(Object.keys(corpus.formats).length, 16);
  for (const [format, verdicts] of Object.entries(corpus.formats)) {
    wrong.push(...wrongVerdicts("Formats", format.replaceAll("-", "_"), verdicts));
  }
  assert.ok(Object.keys(corpus.patterns).length >= 9);
  for (const [field, verdicts] of Object.entries(corpus.patterns)) {
    wrong.push(...wrongVerdicts("Patterns", field, verdicts));
  }
  assert.deepEqual(wrong, []);
});

test("a format or a pattern the runtime cannot read refuses every value", () => {
  for (const schema of [
    { k: "string", format: "phone" },
    { k: "string", pattern: "(?<=a)(" },
  ] as const) {
    const issues: ValidationIssue[] = [];
    check(schema, "anything", "$input", "in", issues);
    assert.equal(issues.length, 1, JSON.stringify(schema));
  }
});

test("simulate draws every format and pattern afresh per call, valid on the first draw", async () => {
  const simulated: IConnection = { host: "http://simulation.invalid", simulate: true };
  const seen = new Map<string, Set<unknown>>();
  const draws = 200;
  for (let round = 0; round < draws; round++) {
    const answers: Record<string, unknown>[] = [
      (await api.functional.kitchen.formats(simulated, {})) as Record<string, unknown>,
      (await api.functional.kitchen.patterns(simulated, {})) as Record<string, unknown>,
    ];
    for (const [index, answer] of answers.entries()) {
      const issues: ValidationIssue[] = [];
      const type = index === 0 ? "Formats" : "Patterns";
      check({ k: "ref", ref: type, e: type }, answer, "$input", "in", issues);
      assert.deepEqual(issues, [], JSON.stringify(answer));
      for (const [field, value] of Object.entries(answer)) {
        const values = seen.get(field) ?? new Set<unknown>();
        values.add(value);
        seen.set(field, values);
      }
    }
  }
  // Every field drawn at least a few times (each is optional, present about
  // half the time), and drawn afresh: far more distinct values than the four
  // samples an SDK used to embed.
  assert.ok(seen.size >= 16 + 9 - 1, [...seen.keys()].join(", "));
  for (const [field, values] of seen) {
    const floor = field === "password" || field === "bounded" ? 1 : 8;
    assert.ok(values.size >= floor, `${field}: ${values.size} distinct values`);
  }
});
