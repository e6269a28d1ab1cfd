// The BBS's MCP endpoint through the official MCP TypeScript SDK client
// (Streamable HTTP): the tools it lists, an article created and read, a
// refused input's issue list, a guarded tool with and without the
// moderators' token. Run by the cargo test `mcp` (examples/bbs/tests/it/
// mcp.rs), which starts the server and sets BBS_MCP_URL and
// BBS_MODERATOR_TOKEN.
import assert from "node:assert/strict";
import { test } from "node:test";

import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";

function env(name) {
  const value = process.env[name];
  if (value === undefined) throw new Error(`${name} is not set: run this through \`cargo test -p bbs mcp\``);
  return value;
}

async function connect(headers = {}) {
  const client = new Client({ name: "bbs-mcp-test", version: "1.0.0" });
  const transport = new StreamableHTTPClientTransport(new URL(env("BBS_MCP_URL")), {
    requestInit: { headers },
  });
  await client.connect(transport);
  return client;
}

/** The JSON a tool error's text carries. */
function detail(result) {
  assert.equal(result.isError, true, JSON.stringify(result));
  return JSON.parse(result.content[0].text);
}

const section = "mcp talk/ünï?";

test("the server introduces itself and lists its routes as tools", async () => {
  const client = await connect();
  try {
    assert.equal(client.getServerVersion()?.name, "BBS");
    assert.match(client.getInstructions() ?? "", /bbs\.articles\.create/);
    const { tools } = await client.listTools();
    const names = tools.map((tool) => tool.name);
    for (const name of ["bbs.articles.create", "bbs.articles.at", "bbs.articles.index", "bbs.articles.update"]) {
      assert.ok(names.includes(name), `${name} in ${names}`);
    }
    // Streams, uploads and downloads are left out, not listed broken.
    assert.ok(!names.some((name) => name.includes("follow")), names.join());
    const create = tools.find((tool) => tool.name === "bbs.articles.create");
    assert.equal(create.title, "Post a new article.");
    assert.deepEqual(create.inputSchema.required, ["path", "body"]);
    assert.deepEqual(create.inputSchema.properties.path.required, ["section"]);
    assert.equal(create.inputSchema.properties.body.$ref, "#/$defs/ArticleCreate");
    assert.equal(create.inputSchema.$defs.ArticleCreate.properties.title.maxLength, 50);
    assert.equal(create.outputSchema.$ref, "#/$defs/BbsArticle");
    assert.equal(create.annotations.readOnlyHint, false);
    const at = tools.find((tool) => tool.name === "bbs.articles.at");
    assert.equal(at.annotations.readOnlyHint, true);
  } finally {
    await client.close();
  }
});

test("an article is created and read through tools, its answers checked against their output schemas", async () => {
  const client = await connect();
  try {
    const created = await client.callTool({
      name: "bbs.articles.create",
      arguments: {
        path: { section },
        body: {
          writer: "Claude «model» 鈴木",
          title: "Written by a model",
          body: "Hello from MCP 👋",
          format: "md",
          files: [],
          password: "model password",
        },
      },
    });
    assert.notEqual(created.isError, true, JSON.stringify(created));
    // The client validated structuredContent against the outputSchema.
    const article = created.structuredContent;
    assert.equal(article.section, section);
    assert.equal(article.snapshots[0].title, "Written by a model");
    assert.deepEqual(JSON.parse(created.content[0].text), article);

    const read = await client.callTool({
      name: "bbs.articles.at",
      arguments: { path: { section, id: article.id } },
    });
    assert.notEqual(read.isError, true, JSON.stringify(read));
    assert.equal(read.structuredContent.id, article.id);
    assert.equal(read.structuredContent.snapshots[0].body, "Hello from MCP 👋");

    const listed = await client.callTool({
      name: "bbs.articles.index",
      arguments: { path: { section }, body: { limit: 10 } },
    });
    assert.notEqual(listed.isError, true, JSON.stringify(listed));
    assert.ok(listed.structuredContent.data.some((summary) => summary.id === article.id));

    const missing = detail(
      await client.callTool({
        name: "bbs.articles.at",
        arguments: { path: { section, id: "00000000-0000-4000-8000-000000000000" } },
      }),
    );
    assert.equal(missing.status, 404);
  } finally {
    await client.close();
  }
});

test("a refused input lists every problem with its path in the arguments", async () => {
  const client = await connect();
  try {
    const refused = detail(
      await client.callTool({
        name: "bbs.articles.create",
        arguments: {
          path: { section },
          body: { writer: "", title: "x".repeat(51), body: "b", format: "doc", files: [{ url: "not a url" }] },
        },
      }),
    );
    assert.equal(refused.status, 400);
    assert.equal(refused.code, "invalid_body");
    const paths = refused.errors.map((issue) => issue.path).sort();
    for (const path of [
      "$arguments.body.writer",
      "$arguments.body.title",
      "$arguments.body.format",
      "$arguments.body.password",
      "$arguments.body.files[0].url",
    ]) {
      assert.ok(paths.includes(path), `${path} in ${paths}`);
    }
    const title = refused.errors.find((issue) => issue.path === "$arguments.body.title");
    assert.match(title.expected, /MaxLength<50>/);

    const wrongPath = detail(
      await client.callTool({ name: "bbs.articles.at", arguments: { path: { section, id: "seven" } } }),
    );
    assert.deepEqual(
      wrongPath.errors.map((issue) => issue.path),
      ["$arguments.path.id"],
    );

    const noArguments = detail(await client.callTool({ name: "bbs.articles.at", arguments: {} }));
    assert.equal(noArguments.code, "invalid_arguments");
    assert.deepEqual(
      noArguments.errors.map((issue) => issue.path),
      ["$arguments.path.section", "$arguments.path.id"],
    );

    await assert.rejects(
      client.callTool({ name: "bbs.articles.nothing", arguments: {} }),
      /Unknown tool/,
    );
  } finally {
    await client.close();
  }
});

test("a guarded tool needs the moderators' token in the request's Authorization", async () => {
  const anonymous = await connect();
  const moderator = await connect({ Authorization: `Bearer ${env("BBS_MODERATOR_TOKEN")}` });
  try {
    const { tools } = await anonymous.listTools();
    const guarded = tools.find((tool) => tool.name.startsWith("bbs.moderation."));
    assert.ok(guarded, tools.map((tool) => tool.name).join());
    const created = await anonymous.callTool({
      name: "bbs.articles.create",
      arguments: {
        path: { section },
        body: { writer: "w", title: "to moderate", body: "b", format: "txt", files: [], password: "pw" },
      },
    });
    const id = created.structuredContent.id;
    const call = (client) =>
      client.callTool({ name: guarded.name, arguments: guardedArguments(guarded, id) });

    const refused = detail(await call(anonymous));
    assert.equal(refused.status, 401, JSON.stringify(refused));

    const allowed = await call(moderator);
    assert.notEqual(allowed.isError, true, JSON.stringify(allowed));
  } finally {
    await anonymous.close();
    await moderator.close();
  }
});

/** Arguments for the first moderation tool, from its input schema. */
function guardedArguments(tool, id) {
  const properties = tool.inputSchema.properties;
  const args = {};
  if (properties.path) {
    args.path = {};
    for (const name of Object.keys(properties.path.properties)) {
      args.path[name] = name === "id" ? id : section;
    }
  }
  if (properties.body) args.body = { reason: "spam" };
  return args;
}
