/**
 * The end-to-end tests of BBS: one node test per route of
 * `features/`, each calling its route through the SDK with random valid
 * input and checking the answer (`verify.ts`). Run them against a server:
 *
 * ```sh
 * E2E_HOST=http://127.0.0.1:3000 node --test e2e.test.js
 * ```
 *
 * A route that needs a credential `connection.ts` does not have is
 * skipped, saying which; so are the routes whose file says why (`SKIP`).
 *
 * Written once by `sdk-gen e2e`; yours to edit.
 * @module
 */
import { test } from "node:test";

import { CredentialError } from "../src/index.js";
import { connection } from "./connection.js";
import { attempt, features } from "./features.js";

for (const feature of await features()) {
  const name = `${feature.route} (${feature.name})`;
  if (feature.skip !== undefined) {
    test(name, { skip: feature.skip }, () => undefined);
    continue;
  }
  test(name, async (t) => {
    try {
      await attempt(feature, connection());
    } catch (err) {
      if (!(err instanceof CredentialError)) throw err;
      t.skip(`${err.message} (see connection.ts)`);
    }
  });
}
