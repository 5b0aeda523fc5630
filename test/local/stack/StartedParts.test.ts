import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { LocalPartError } from "../../../local/errors.js";
import { StartedParts } from "../../../local/stack/StartedParts.js";

describe("StartedParts", () => {
  it("stops the parts in reverse order of their start, once however often it is asked", async () => {
    const stopped: string[] = [];
    const parts = new StartedParts(() => undefined);
    await parts.timed(
      "first",
      async () => "a",
      async (part) => {
        stopped.push(`first ${part}`);
      },
    );
    parts.add("second", () => {
      stopped.push("second");
    });
    await parts.timed(
      "third",
      async () => 3,
      async (part) => {
        stopped.push(`third ${part}`);
      },
    );

    await Promise.all([parts.stop(), parts.stop()]);
    await parts.stop();

    assert.deepEqual(stopped, ["third 3", "second", "first a"]);
  });

  it("stops every part when one fails to stop, and names that part in the error", async () => {
    const stopped: string[] = [];
    const parts = new StartedParts(() => undefined);
    parts.add("DynamoDB Local", () => {
      stopped.push("DynamoDB Local");
    });
    parts.add("the adapter", () => {
      throw new Error("still running");
    });
    parts.add("the gateway", () => {
      stopped.push("the gateway");
    });

    const failure = await parts.stop().then(
      () => undefined,
      (error: unknown) => error,
    );

    assert.deepEqual(stopped, ["the gateway", "DynamoDB Local"]);
    assert.ok(failure instanceof AggregateError);
    assert.equal(failure.errors.length, 1);
    const [error] = failure.errors;
    assert.ok(error instanceof LocalPartError);
    assert.match(error.message, /the adapter/);
    assert.equal((error.cause as Error).message, "still running");
  });

  it("records and logs how long a part took, and registers nothing when its start fails", async () => {
    const lines: string[] = [];
    const parts = new StartedParts((line) => lines.push(line));
    await parts.timed(
      "fauxqs",
      async () => ({ endpoint: "http://127.0.0.1:4566" }),
      async () => undefined,
      (part) => part.endpoint,
    );

    await assert.rejects(
      parts.timed(
        "the adapter",
        async () => {
          throw new Error("no model");
        },
        async () => {
          assert.fail("a part that did not start is not stopped");
        },
      ),
      /no model/,
    );
    await parts.stop();

    assert.deepEqual(Object.keys(parts.startupMs), ["fauxqs"]);
    assert.ok(Number.isInteger(parts.startupMs.fauxqs));
    assert.equal(lines.length, 1);
    assert.match(lines[0] ?? "", /^fauxqs ready on http:\/\/127\.0\.0\.1:4566 \(\d+\.\d s\)$/);
  });
});
