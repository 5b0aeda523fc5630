/** The hints `decisions outcomes` and `decisions jobs` add to a table error, and the error's name. */

import assert from "node:assert/strict";
import { createServer } from "node:net";
import { describe, it } from "node:test";
import { errorNameOf, tableErrorHint } from "../../../core/common/index.js";
import { JobsReader, JobsTableError } from "../../../core/jobs/index.js";
import { OutcomesTableError } from "../../../core/outcomes/index.js";
import { createOutcomesClient } from "../../../operations/outcomes/index.js";

/** A loopback port nothing listens on: bound, then closed. */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const address = server.address();
  await new Promise<void>((resolve) => server.close(() => resolve()));
  assert.ok(address !== null && typeof address === "object");
  return address.port;
}

describe("tableErrorHint", () => {
  it("says which flag fixes a missing table, an endpoint nothing answers at, and missing credentials", () => {
    assert.match(
      tableErrorHint("ResourceNotFoundException", "jobs_table") ?? "",
      /--table .*jobs_table.*--endpoint-url/,
    );
    assert.match(tableErrorHint("ResourceNotFoundException", "table") ?? "", /prints it as table\)/);
    for (const code of ["ECONNREFUSED", "ENOTFOUND", "ETIMEDOUT"])
      assert.match(tableErrorHint(code, "table") ?? "", /decisions up. still running\? --endpoint-url/, code);
    assert.match(tableErrorHint("CredentialsProviderError", "table") ?? "", /credentials/);
    assert.match(tableErrorHint("AccessDeniedException", "table") ?? "", /dynamodb:Query/);
    assert.equal(tableErrorHint("ProvisionedThroughputExceededException", "table"), undefined);
  });

  it("names a socket error by its code and an SDK error by its name", () => {
    assert.equal(
      errorNameOf(Object.assign(new Error("connect ECONNREFUSED"), { code: "ECONNREFUSED" })),
      "ECONNREFUSED",
    );
    const sdk = Object.assign(new Error("Requested resource not found"), {
      name: "ResourceNotFoundException",
    });
    assert.equal(errorNameOf(sdk), "ResourceNotFoundException");
    assert.equal(errorNameOf("a string"), "Error");
    assert.equal(errorNameOf(undefined), "Error");
  });

  it("reaches the message of a real SDK read at a port nothing listens on (jobs and outcomes)", async () => {
    const endpointUrl = `http://127.0.0.1:${await closedPort()}`;
    const client = createOutcomesClient({ region: "us-east-1", endpointUrl });
    try {
      await assert.rejects(
        new JobsReader({ client, tableName: "jobs" }).newest(1),
        (error: unknown) =>
          error instanceof JobsTableError &&
          error.errorName === "ECONNREFUSED" &&
          /nothing answers at that DynamoDB endpoint/.test(error.message),
      );
      assert.match(
        new OutcomesTableError("outcomes", "ECONNREFUSED").message,
        /^the outcomes table outcomes: nothing answers/,
      );
    } finally {
      client.destroy();
    }
  });
});
