// The TanStack Query bindings (`@bbs/sdk/query`) against the BBS server,
// with `@tanstack/query-core`'s QueryClient: queries cached and refetched
// after a mutation invalidates them, a listing read page by page, a live
// event updating a cached listing. Run by the cargo test `sdk_typescript`,
// which starts the server and sets BBS_URL.
import assert from "node:assert/strict";
import { test } from "node:test";

import { MutationObserver, QueryClient, type InfiniteData } from "@tanstack/query-core";

import api, { HttpError, type ArticleCreate, type IConnection, type Page_ArticleSummary } from "../src/index.js";
import * as query from "../src/query.js";

const articles = query.bbs.articles;

function env(name: string): string {
  const value = process.env[name];
  if (value === undefined) throw new Error(`${name} is not set: run this through \`cargo test -p bbs sdk_typescript\``);
  return value;
}

/** A connection that counts the requests it sends, as `METHOD /path`. */
function counted(): { connection: IConnection; sent: string[] } {
  const sent: string[] = [];
  const connection: IConnection = {
    host: env("BBS_URL"),
    fetch: (input, init) => {
      const url = new URL(input instanceof Request ? input.url : String(input));
      sent.push(`${init?.method ?? "GET"} ${decodeURIComponent(url.pathname)}`);
      return fetch(input, init);
    },
  };
  return { connection, sent };
}

function article(title: string): ArticleCreate {
  return { writer: "Query", title, body: "body", format: "txt", files: [], password: "correct horse" };
}

/** `promise`, or a failure once `ms` have passed: a broken binding fails, never hangs. */
function within<T>(promise: Promise<T>, what: string, ms = 10_000): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what}: nothing after ${ms} ms`)), ms);
  });
  return Promise.race([promise, late]).finally(() => clearTimeout(timer));
}

function client(): QueryClient {
  return new QueryClient({ defaultOptions: { queries: { staleTime: Infinity, retry: false } } });
}

test("a query is fetched once, served from the cache, and fetched again once a mutation invalidates it", async () => {
  const { connection, sent } = counted();
  const section = "tanstack/cache";
  const queries = client();
  const create = new MutationObserver(queries, {
    ...articles.create.mutationOptions(connection),
    onSuccess: () => queries.invalidateQueries({ queryKey: articles.$key }),
  });
  const first = await create.mutate({ section, input: article("First") });

  const listing = articles.index.queryOptions(connection, section, {});
  assert.deepEqual(listing.queryKey, ["bbs", "articles", "index", { section, input: {} }]);
  const page = await queries.fetchQuery(listing);
  assert.deepEqual(page.data.map((summary) => summary.id), [first.id]);
  const read = await queries.fetchQuery(articles.at.queryOptions(connection, section, first.id));
  assert.deepEqual(read, first);
  assert.deepEqual(sent, ["POST /bbs/articles/tanstack/cache", "PATCH /bbs/articles/tanstack/cache", `GET /bbs/articles/tanstack/cache/${first.id}`]);

  // A cache hit: the same data, nothing sent; the key is typed with its data.
  assert.equal(await queries.fetchQuery(articles.index.queryOptions(connection, section, {})), page);
  const cached: Page_ArticleSummary | undefined = queries.getQueryData(articles.index.queryKey(section, {}));
  assert.equal(cached, page);
  assert.equal(sent.length, 3);

  // A mutation whose `onSuccess` invalidates `bbs.articles`: both queries
  // are stale, and the listing is fetched again with the new article.
  const second = await create.mutate({ section, input: article("Second") });
  assert.equal(queries.getQueryState(articles.index.queryKey(section, {}))?.isInvalidated, true);
  assert.equal(queries.getQueryState(articles.at.queryKey(section, first.id))?.isInvalidated, true);
  const again = await queries.fetchQuery(listing);
  assert.deepEqual(new Set(again.data.map((summary) => summary.id)), new Set([first.id, second.id]));
  assert.deepEqual(sent.slice(3), ["POST /bbs/articles/tanstack/cache", "PATCH /bbs/articles/tanstack/cache"]);

  // Keys match partially: by route and section, not another route's.
  await queries.fetchQuery(articles.at.queryOptions(connection, section, first.id));
  await queries.invalidateQueries({ queryKey: [...articles.index.$key, { section }] });
  assert.equal(queries.getQueryState(articles.index.queryKey(section, {}))?.isInvalidated, true);
  assert.equal(queries.getQueryState(articles.at.queryKey(section, first.id))?.isInvalidated, false);
  queries.clear();
});

test("a paging route reads page by page as an infinite query", async () => {
  const { connection, sent } = counted();
  const section = "tanstack/pages";
  for (const n of [1, 2, 3, 4, 5]) await api.functional.bbs.articles.create(connection, section, article(`Page ${n}`));
  const queries = client();
  const options = articles.index.infiniteQueryOptions(connection, section, { limit: 2, sort: ["+title"] });
  assert.deepEqual(options.queryKey, ["bbs", "articles", "index", { section, input: { limit: 2, sort: ["+title"] } }, "infinite"]);
  // Asked for up to 5 pages, it stops after the last one.
  const listing = await queries.fetchInfiniteQuery({ ...options, pages: 5 });
  assert.deepEqual(listing.pageParams, [1, 2, 3]);
  assert.deepEqual(listing.pages.map((page) => page.data.map((summary) => summary.title)), [["Page 1", "Page 2"], ["Page 3", "Page 4"], ["Page 5"]]);
  assert.equal(sent.filter((request) => request.startsWith("PATCH")).length, 3);
  const [first, , last] = listing.pages;
  assert.ok(first !== undefined && last !== undefined);
  assert.equal(options.getPreviousPageParam(first, listing.pages, 1, listing.pageParams), undefined);
  assert.equal(options.getPreviousPageParam(last, listing.pages, 3, listing.pageParams), 2);
  const cached: InfiniteData<Page_ArticleSummary, number> | undefined = queries.getQueryData(
    articles.index.infiniteQueryKey(section, { limit: 2, sort: ["+title"] }),
  );
  assert.equal(cached, listing);
  // Apart from the plain query of the same inputs, under the same prefix.
  assert.equal(queries.getQueryData(articles.index.queryKey(section, { limit: 2, sort: ["+title"] })), undefined);
  assert.equal(queries.getQueriesData({ queryKey: articles.index.$key }).length, 1);
  queries.clear();
});

test("a live event updates a cached listing", async () => {
  const { connection, sent } = counted();
  const section = "tanstack/live";
  const queries = client();
  const listingKey = articles.index.queryKey(section, {});
  await queries.fetchQuery(articles.index.queryOptions(connection, section, {}));
  assert.deepEqual(queries.getQueryData(listingKey)?.data, []);

  // Open the feed, knowing when it is open: the server then sends each event of the section.
  let opened!: () => void;
  const open = new Promise<void>((resolve) => (opened = resolve));
  let seen!: () => void;
  const updated = new Promise<void>((resolve) => (seen = resolve));
  const feed: IConnection = {
    ...connection,
    fetch: async (input, init) => {
      const response = await connection.fetch!(input, init);
      opened();
      return response;
    },
  };
  const subscription = articles.events.follow.subscribe(queries, feed, section, {}, {
    onEvent: (event, client) => {
      if (event.data.type !== "created") return;
      const summary = event.data.article;
      client.setQueryData(listingKey, (page) => page && { ...page, data: [summary, ...page.data] });
      seen();
    },
  });
  try {
    await within(open, "the feed opening");
    const posted = await api.functional.bbs.articles.create(connection, section, article("Live"));
    await within(updated, "the event");

    // The listing holds the new article without being fetched again.
    assert.deepEqual(queries.getQueryData(listingKey)?.data.map((summary) => summary.id), [posted.id]);
    assert.equal(sent.filter((request) => request.startsWith("PATCH")).length, 1);
    // The event's data is cached under the route's own key.
    const latest = queries.getQueryData(articles.events.follow.queryKey(section, {}));
    assert.ok(latest?.type === "created" && latest.article.id === posted.id);
  } finally {
    subscription.close();
  }
  await within(subscription.closed, "closing");
  queries.clear();
});

test("a subscription ends with the error that ended it", async () => {
  const { connection } = counted();
  const errors: unknown[] = [];
  const subscription = articles.events.follow.subscribe(
    client(),
    { ...connection, headers: { "last-event-id": "seven" } },
    "tanstack/refused",
    {},
    { onError: (error) => errors.push(error) },
  );
  try {
    await assert.rejects(within(subscription.closed, "the refusal"), (error) => error instanceof HttpError && error.status === 400);
  } finally {
    subscription.close();
  }
  assert.equal(errors.length, 1);
});

// Type tests: checked by tsc, never run.
function types(connection: IConnection, queries: QueryClient): void {
  // @ts-expect-error a mutation's variables are the route's inputs by name
  void new MutationObserver(queries, articles.create.mutationOptions(connection)).mutate({ section: "s" });
  // @ts-expect-error an infinite query takes no page
  articles.index.infiniteQueryOptions(connection, "s", { page: 2 });
  // @ts-expect-error a route that does not page has no infinite query
  void articles.at.infiniteQueryOptions;
  // @ts-expect-error an events route has no query options
  void articles.events.follow.queryOptions;
  const pages: InfiniteData<Page_ArticleSummary, number> | undefined = queries.getQueryData(
    articles.index.infiniteQueryKey("s", {}),
  );
  void pages;
  // The forms `sdks.md` shows.
  void queries.fetchInfiniteQuery(articles.index.infiniteQueryOptions(connection, "s", { limit: 20 }));
  void new MutationObserver(queries, {
    ...articles.create.mutationOptions(connection),
    onSuccess: () => queries.invalidateQueries({ queryKey: query.bbs.articles.$key }),
  });
}
void types;
