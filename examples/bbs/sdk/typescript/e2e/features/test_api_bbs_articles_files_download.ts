/**
 * GET /bbs/articles/:section/:id/files/:file
 *
 * Download a file uploaded to an article, streamed from disk with the
 * media type it was uploaded with (`Range` and `If-None-Match` honoured).
 *
 * Calls the route with random valid input and checks the answer: a success
 * against its type, a documented error against the error body. Random
 * input often meets a documented error (an id nobody made is a 404): make
 * it real (create what the route reads first) to test more.
 *
 * Written once by `sdk-gen e2e`; yours to edit.
 * @module
 */
import type { IConnection } from "../../src/index.js";
import { random } from "../../src/runtime.js";
import { download as route } from "../../src/functional/bbs/articles/files/index.js";
import { drawParam } from "../draw.js";
import { verify } from "../verify.js";

/** The route this file tests. */
export const ROUTE = "GET /bbs/articles/:section/:id/files/:file";

export async function test_api_bbs_articles_files_download(connection: IConnection): Promise<number> {
  const answer = await route.propagate(
    connection,
    drawParam(route.METADATA.params[0].schema) as string,
    drawParam(route.METADATA.params[1].schema) as string,
    drawParam(route.METADATA.params[2].schema) as string,
    random(route.METADATA.headers, 0) as route.Headers,
  );
  return verify(route.METADATA, answer);
}
