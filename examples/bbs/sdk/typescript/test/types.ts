// Type tests: each `@ts-expect-error` line must fail to compile (tsc
// refuses an unused one), so these prove the SDK's types are as strict as
// the wire. Compiled by `tsc -p test/tsconfig.json`; never run.
import api, { functional, type ArticleCreate, type AttachmentFile, type IConnection } from "../src/index.js";

const connection: IConnection = { host: "http://127.0.0.1:3000" };
const file: AttachmentFile = { name: null, extension: null, url: "https://example.com/a" };
export const valid: ArticleCreate = {
  writer: "kim",
  title: "hello",
  body: "",
  format: "md",
  files: [file],
  password: "secret",
};

// @ts-expect-error a required property is missing (`password`)
export const missing: ArticleCreate = { writer: "kim", title: "hello", body: "", format: "md", files: [] };

// @ts-expect-error a literal that is not one of the enum's
export const wrongLiteral: ArticleCreate = { ...valid, format: "markdown" };

// @ts-expect-error `undefined` where only `null` is allowed
export const undefinedForNull: AttachmentFile = { name: undefined, extension: null, url: "https://example.com/a" };

// @ts-expect-error `null` is not allowed where the value may only be absent
export const nullForAbsent: functional.bbs.articles.index.Input = { page: null };

// @ts-expect-error an optional property cannot be given as `undefined` (exactOptionalPropertyTypes)
export const undefinedForAbsent: functional.bbs.articles.index.Input = { limit: undefined };

// @ts-expect-error unknown sort key
export const badSort: functional.bbs.articles.index.Input = { sort: ["+nothing"] };

export async function calls(): Promise<void> {
  // @ts-expect-error a path parameter of the wrong type
  await api.functional.bbs.articles.at(connection, 42, "id");

  // @ts-expect-error the body is required
  await api.functional.bbs.articles.create(connection, "general");

  const article = await api.functional.bbs.articles.create(connection, "general", valid);
  const title: string | undefined = article.snapshots[0]?.title;
  void title;
  // @ts-expect-error the answer has no such property
  void article.password;

  const erased: void = await api.functional.bbs.articles.erase(connection, "general", article.id, { password: "x" });
  void erased;

  const answer = await api.functional.bbs.articles.update.propagate(connection, "general", article.id, {
    title: "hello",
    body: "",
    format: "txt",
    files: [],
    password: "secret",
  });
  if (answer.success) {
    const status: 200 = answer.status;
    const id: string = answer.data.id;
    void [status, id];
  } else {
    const code: string = answer.data.code;
    void code;
    // @ts-expect-error 418 is not one of the route's documented statuses
    if (answer.status === 418) void 0;
  }
}
