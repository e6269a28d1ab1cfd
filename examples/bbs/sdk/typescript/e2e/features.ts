/**
 * The route functions, found at run time: every `test_api_*` function that
 * a module of `features/` exports, with the route it names (`ROUTE`) and
 * why it is skipped (`SKIP`), if it is. A route added to the app needs only
 * its own new file (`sdk-gen e2e` writes it); nothing lists them.
 *
 * Written once by `sdk-gen e2e`; yours to edit.
 * @module
 */
import { readdirSync } from "node:fs";

import { DecodeError, HttpError, InputError, type IConnection } from "../src/index.js";
import { InvalidAnswer } from "./verify.js";

/** One route's test function. */
export interface Feature {
  /** The function's name: `test_api_bbs_articles_at`. */
  readonly name: string;
  /** The route: `GET /bbs/articles/:section/:id`. */
  readonly route: string;
  /** Why the route is not tested, when it is not. */
  readonly skip: string | undefined;
  /** Calls the route once; answers the status, or throws. */
  readonly run: (connection: IConnection) => Promise<number>;
}

/** Every route function of `features/`, by file name. */
export async function features(): Promise<Feature[]> {
  const here = import.meta.url;
  // `.js` once compiled, `.ts` when run as TypeScript.
  const extension = here.slice(here.lastIndexOf("."));
  const dir = new URL("./features/", here);
  const found: Feature[] = [];
  const files = readdirSync(dir).filter((file) => file.endsWith(extension) && !file.endsWith(`.d${extension}`));
  for (const file of files.sort()) {
    const module = (await import(new URL(file, dir).href)) as Record<string, unknown>;
    for (const [name, run] of Object.entries(module)) {
      if (!name.startsWith("test_api_") || typeof run !== "function") continue;
      const skip = module["SKIP"];
      found.push({
        name,
        route: String(module["ROUTE"] ?? name),
        skip: typeof skip === "string" ? skip : undefined,
        run: run as Feature["run"],
      });
    }
  }
  return found;
}

/**
 * Runs `feature` once; an answer its route does not document throws
 * `InvalidAnswer`: a wrong body, an undocumented status (the SDK's
 * `HttpError`) or a body the SDK cannot read (`DecodeError`). A random
 * input the SDK cannot send as the server would read it (`InputError`: a
 * header value with a comma, a key with `[`) is drawn again, a few times.
 */
export async function attempt(feature: Feature, connection: IConnection): Promise<number> {
  for (let tries = 1; ; tries++) {
    try {
      return await feature.run(connection);
    } catch (err) {
      if (err instanceof HttpError) {
        const body = err.body.length > 200 ? `${err.body.slice(0, 197)}...` : err.body;
        throw new InvalidAnswer(`${feature.route} answered ${err.status}, which it does not document: ${body}`);
      }
      if (err instanceof DecodeError) throw new InvalidAnswer(err.message);
      if (!(err instanceof InputError) || tries >= 10) throw err;
    }
  }
}
