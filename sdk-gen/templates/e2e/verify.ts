/**
 * Checking an answer against what its route documents: a success against
 * the answer's type, a documented error against the error body. Anything
 * else (an undocumented status, a body of the wrong shape) throws
 * `InvalidAnswer`, naming every problem with its path.
 *
 * Written once by `sdk-gen e2e`; yours to edit.
 * @module
 */
import {
  EventStream,
  check,
  type AnswerMetadata,
  type RouteMetadata,
  type RuntimeSchema,
  type ValidationIssue,
} from "{{ sdk }}/runtime.js";

/** An answer that is not what its route documents. */
export class InvalidAnswer extends Error {
  /** Every problem found, with its path in the answer. */
  readonly issues: readonly ValidationIssue[];

  constructor(message: string, issues: readonly ValidationIssue[] = []) {
    const details = issues.map((issue) => `\n  ${issue.path}: expected ${issue.expected}, got ${show(issue.value)}`);
    super(message + details.join(""));
    this.name = "InvalidAnswer";
    this.issues = issues;
  }
}

/** An answer as a route's `propagate` gives it. */
export interface Answer {
  readonly success: boolean;
  readonly status: number;
  readonly data: unknown;
}

/**
 * Checks `answer` against `route`'s documentation and answers its status;
 * throws `InvalidAnswer` when it is not documented or not of its type.
 */
export function verify(route: RouteMetadata, answer: Answer): number {
  const what = `${route.method} ${route.path} answered ${answer.status}`;
  const issues: ValidationIssue[] = [];
  if (answer.success) {
    const documented = successes(route).find((candidate) => candidate.status === answer.status);
    if (documented === undefined) throw new InvalidAnswer(`${what}, which is not one of its success statuses`);
    checkSuccess(documented, answer.data, issues);
  } else if (!route.errors.includes(answer.status)) {
    throw new InvalidAnswer(`${what}, which is not one of its documented errors`);
  } else if (route.error !== undefined) {
    check(route.error, answer.data, "$error", "out", issues);
  } else {
    checkProblem(answer.status, answer.data, issues);
  }
  if (issues.length > 0) throw new InvalidAnswer(`${what} with a body that is not of its type:`, issues);
  return answer.status;
}

/** The route's success answers. */
function successes(route: RouteMetadata): readonly AnswerMetadata[] {
  if (route.answers !== undefined) return route.answers;
  if (route.response === null) return [{ status: route.status, kind: "empty" }];
  return [{ status: route.status, kind: "json", schema: route.response }];
}

function checkSuccess(answer: AnswerMetadata, data: unknown, issues: ValidationIssue[]): void {
  let body = data;
  if (answer.location === true) {
    const created = data as { location?: unknown; body?: unknown };
    if (typeof created.location !== "string" || created.location === "") {
      issues.push({ path: "$headers.location", expected: "the location of what was made", value: created.location });
    }
    body = created.body;
  }
  switch (answer.kind) {
    case "json":
      if (answer.schema !== undefined) check(answer.schema, body, "$output", "out", issues);
      return;
    case "text":
      expect(typeof body === "string", "string", body, issues);
      return;
    case "bytes":
      expect(body instanceof Uint8Array, "bytes", body, issues);
      return;
    case "events":
      expect(body instanceof EventStream, "an event stream", body, issues);
      return;
    case "redirect": {
      const location = (body as { location?: unknown }).location;
      expect(typeof location === "string" && location !== "", "a Location header", location, issues, "$headers.location");
      return;
    }
    default:
      expect(body === undefined, "no body", body, issues);
  }
}

/** The problem document (RFC 9457) of an error answer. */
const PROBLEM: Record<string, RuntimeSchema> = {
  type: { k: "string", e: "string" },
  title: { k: "string", e: "string" },
  status: { k: "integer", e: "number" },
  code: { k: "string", e: "string" },
  detail: { k: "string", e: "string" },
};

function checkProblem(status: number, data: unknown, issues: ValidationIssue[]): void {
  if (typeof data !== "object" || data === null || Array.isArray(data)) {
    issues.push({ path: "$error", expected: "Problem", value: data });
    return;
  }
  const problem = data as Record<string, unknown>;
  for (const [name, schema] of Object.entries(PROBLEM)) {
    check(schema, problem[name], `$error.${name}`, "out", issues);
  }
  if (problem["status"] !== status) {
    issues.push({ path: "$error.status", expected: `${status}, the answer's status`, value: problem["status"] });
  }
  const errors = problem["errors"];
  if (errors === undefined) return;
  if (!Array.isArray(errors)) {
    issues.push({ path: "$error.errors", expected: "Array<ValidationIssue>", value: errors });
    return;
  }
  errors.forEach((issue: unknown, index) => {
    const { path, expected } = (issue ?? {}) as { path?: unknown; expected?: unknown };
    if (typeof path !== "string" || typeof expected !== "string") {
      issues.push({ path: `$error.errors[${index}]`, expected: "ValidationIssue", value: issue });
    }
  });
}

function expect(
  ok: boolean,
  expected: string,
  value: unknown,
  issues: ValidationIssue[],
  path = "$output",
): void {
  if (!ok) issues.push({ path, expected, value });
}

function show(value: unknown): string {
  if (value === undefined) return "nothing";
  if (value instanceof Uint8Array) return `${value.length} bytes`;
  const text = JSON.stringify(value) ?? String(value);
  return text.length > 120 ? `${text.slice(0, 117)}...` : text;
}
