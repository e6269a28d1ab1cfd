/**
 * The load test of {{ title }}: the route functions of `features/` (the
 * end-to-end tests' own), called by `concurrency` workers for `duration`
 * seconds, round robin, each at least once. Prints each route's count,
 * throughput and latency percentiles, its statuses and the answers that
 * failed validation; exits with 1 when any answer failed validation or any
 * call failed.
 *
 * ```sh
 * node bench.js --host http://127.0.0.1:3000 --concurrency 8 --duration 10
 * ```
 *
 * The options default to `E2E_HOST` (else `connection.ts`'s host),
 * `E2E_CONCURRENCY` (4) and `E2E_DURATION` (5 seconds). A route that needs
 * a credential `connection.ts` does not have is left out, as are those
 * whose file says why (`SKIP`).
 *
 * Written once by `sdk-gen e2e`; yours to edit.
 * @module
 */
import { performance } from "node:perf_hooks";

import { CredentialError, type IConnection } from "{{ sdk }}/index.js";
import { connection } from "./connection.js";
import { attempt, features, type Feature } from "./features.js";
import { InvalidAnswer } from "./verify.js";

/** What one route did. */
interface Tally {
  readonly feature: Feature;
  /** Each call's latency, in ms. */
  readonly latencies: number[];
  /** Calls by status. */
  readonly statuses: Map<number, number>;
  /** Answers that are not what the route documents. */
  invalid: number;
  /** Calls that failed otherwise (the connection, a thrown error). */
  failed: number;
  /** The first few messages of both. */
  readonly messages: string[];
}

/** `--name value` or `--name=value`, else the environment variable. */
function option(name: string, variable: string): string | undefined {
  const args = process.argv.slice(2);
  for (const [index, arg] of args.entries()) {
    if (arg === `--${name}`) return args[index + 1];
    if (arg.startsWith(`--${name}=`)) return arg.slice(name.length + 3);
  }
  return process.env[variable];
}

function positive(name: string, text: string | undefined, fallback: number): number {
  if (text === undefined) return fallback;
  const value = Number(text);
  if (!Number.isFinite(value) || value <= 0) throw new Error(`--${name} must be a positive number, not ${text}`);
  return value;
}

/** The `q` quantile of sorted `values` (nearest rank). */
function quantile(values: readonly number[], q: number): number {
  if (values.length === 0) return 0;
  return values[Math.min(values.length - 1, Math.max(0, Math.ceil(q * values.length) - 1))] ?? 0;
}

const base = connection();
const host = option("host", "E2E_HOST") ?? base.host;
const concurrency = Math.floor(positive("concurrency", option("concurrency", "E2E_CONCURRENCY"), 4));
const duration = positive("duration", option("duration", "E2E_DURATION"), 5);
const target: IConnection = { ...base, host };

const all = await features();
const skipped = all.filter((feature) => feature.skip !== undefined).map((feature) => `${feature.route}: ${feature.skip}`);
const tallies: Tally[] = all
  .filter((feature) => feature.skip === undefined)
  .map((feature) => ({ feature, latencies: [], statuses: new Map(), invalid: 0, failed: 0, messages: [] }));
/** The routes still called: those left out for a missing credential are removed. */
const active = [...tallies];
let next = 0;

const started = performance.now();
const deadline = started + duration * 1000;

async function worker(): Promise<void> {
  // Every route is called at least once, however short the duration.
  while ((performance.now() < deadline || next < tallies.length) && active.length > 0) {
    const tally = active[next++ % active.length];
    if (tally === undefined) continue;
    const before = performance.now();
    try {
      const status = await attempt(tally.feature, target);
      tally.latencies.push(performance.now() - before);
      tally.statuses.set(status, (tally.statuses.get(status) ?? 0) + 1);
    } catch (err) {
      if (err instanceof CredentialError) {
        const index = active.indexOf(tally);
        if (index >= 0) {
          active.splice(index, 1);
          skipped.push(`${tally.feature.route}: ${err.message}`);
        }
        continue;
      }
      tally.latencies.push(performance.now() - before);
      if (err instanceof InvalidAnswer) tally.invalid++;
      else tally.failed++;
      const message = err instanceof Error ? err.message : String(err);
      // An `InvalidAnswer` names its route already.
      if (tally.messages.length < 3) {
        tally.messages.push(err instanceof InvalidAnswer ? message : `${tally.feature.route}: ${message}`);
      }
    }
  }
}

await Promise.all(Array.from({ length: concurrency }, () => worker()));
const seconds = (performance.now() - started) / 1000;

const rows = [["route", "count", "req/s", "p50 ms", "p90 ms", "p99 ms", "invalid", "failed", "statuses"]];
for (const tally of tallies.filter((tally) => tally.latencies.length > 0)) {
  const sorted = [...tally.latencies].sort((a, b) => a - b);
  const statuses = [...tally.statuses.entries()].sort(([a], [b]) => a - b).map(([status, count]) => `${status}x${count}`);
  rows.push([
    tally.feature.route,
    String(sorted.length),
    (sorted.length / seconds).toFixed(1),
    quantile(sorted, 0.5).toFixed(2),
    quantile(sorted, 0.9).toFixed(2),
    quantile(sorted, 0.99).toFixed(2),
    String(tally.invalid),
    String(tally.failed),
    statuses.join(" "),
  ]);
}
const widths = rows[0]?.map((_, column) => Math.max(...rows.map((row) => row[column]?.length ?? 0))) ?? [];
console.log(`load test of ${host}: ${concurrency} workers for ${seconds.toFixed(1)} s`);
for (const row of rows) {
  console.log(row.map((cell, column) => (column === 0 || column === 8 ? cell.padEnd(widths[column] ?? 0) : cell.padStart(widths[column] ?? 0))).join("  ").trimEnd());
}
const total = tallies.reduce((sum, tally) => sum + tally.latencies.length, 0);
const invalid = tallies.reduce((sum, tally) => sum + tally.invalid, 0);
const failed = tallies.reduce((sum, tally) => sum + tally.failed, 0);
console.log(`total: ${total} calls, ${(total / seconds).toFixed(1)} req/s`);
for (const line of skipped) console.log(`skipped ${line}`);
for (const tally of tallies) {
  for (const message of tally.messages) console.log(message);
}
console.log(`validation failures: ${invalid}`);
console.log(`failed calls: ${failed}`);
if (invalid > 0 || failed > 0) process.exitCode = 1;
