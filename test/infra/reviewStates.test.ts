/**
 * The whole states of items sent to review in the synthesized stack: the decide function is told
 * the bucket and prefix, may only put objects under that prefix, and the bucket expires them.
 */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { Match } from "aws-cdk-lib/assertions";
import { REVIEW_STATES_PREFIX, REVIEW_STATES_RETENTION_DAYS } from "../../infra/constructs/IngestBucket.js";
import { synthVariant } from "./synthVariant.js";

describe("review states in the CDK app", () => {
  // cdk.json as it is: the synth the other infra tests of this process share.
  const { template } = synthVariant("cpu");

  it("expires the states under their prefix of the ingest bucket", () => {
    assert.equal(REVIEW_STATES_PREFIX, "review-states/");
    template.hasResourceProperties("AWS::S3::Bucket", {
      LifecycleConfiguration: {
        Rules: Match.arrayWith([
          Match.objectLike({
            Id: "ReviewStates",
            Prefix: REVIEW_STATES_PREFIX,
            ExpirationInDays: REVIEW_STATES_RETENTION_DAYS,
            Status: "Enabled",
          }),
        ]),
      },
    });
  });

  it("gives each lane's decide function the bucket and prefix, and s3:PutObject under the prefix only", () => {
    const functions = template.findResources("AWS::Lambda::Function", {
      Properties: {
        Environment: { Variables: Match.objectLike({ STATE_ARCHIVE_PREFIX: REVIEW_STATES_PREFIX }) },
      },
    });
    assert.equal(Object.keys(functions).length, 2, "each lane's decide function keeps review states");
    for (const fn of Object.values(functions)) {
      const variables = fn.Properties.Environment.Variables;
      assert.ok(variables.STATE_ARCHIVE_BUCKET?.Ref, "the bucket is the stack's own (a Ref)");
    }
    const policies = template.findResources("AWS::IAM::Policy");
    const puts = Object.values(policies)
      .flatMap(
        (policy) => policy.Properties.PolicyDocument.Statement as { Action: unknown; Resource: unknown }[],
      )
      .filter((statement) => statement.Action === "s3:PutObject");
    assert.equal(puts.length, 2, "one statement per lane's decide function");
    for (const put of puts) assert.match(JSON.stringify(put.Resource), /\/review-states\/\*/);
  });
});
