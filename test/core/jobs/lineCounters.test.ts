/** The counter items' keys and updates, as the job ledger sent them before they were named. */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import {
  counterKeyOf,
  lineCountUpdate,
  moveCountUpdate,
  newCounterPuts,
} from "../../../core/jobs/lineCounters.js";

const table = { jobsTable: "jobs", counterShards: 4 };
const at = "2026-12-01T00:00:00.016Z";
/** A line counted once, neither at ingest nor a duplicate. */
const once = { atIngest: false, duplicate: false };

describe("lineCounters", () => {
  it("keys line n to counter (n − 1) mod K, at sort key −1 − counter", () => {
    // act
    const keys = [1, 2, 4, 5, 9].map((line) => counterKeyOf("J", line, 4));
    // assert
    assert.deepEqual(
      keys.map((key) => key.line),
      [-1, -2, -4, -1, -1],
    );
    assert.deepEqual(counterKeyOf("J", 17, 16), { job_id: "J", line: -1 });
  });

  it("creates K counters, all zero, updated when the job starts", () => {
    // act
    const puts = newCounterPuts(table, "J", at);
    // assert
    assert.deepEqual(
      puts.map((put) => put.Put.Item.line),
      [-1, -2, -3, -4],
    );
    assert.deepEqual(puts[2], {
      Put: {
        TableName: "jobs",
        Item: {
          job_id: "J",
          line: -3,
          counts: {
            rejected_at_ingest: 0,
            outcomes: { decided: 0, fallback: 0, overridden: 0, rejected: 0 },
            dead_lettered: 0,
            ended: 0,
            duplicates: 0,
          },
          updated_at: at,
        },
      },
    });
  });

  it("counts a duplicate line under the standing outcome's status, on its counter", () => {
    // act
    const update = lineCountUpdate(table, "J", 2, "rejected", { atIngest: false, duplicate: true }, at);
    // assert
    assert.deepEqual(update, {
      Update: {
        TableName: "jobs",
        Key: { job_id: "J", line: -2 },
        UpdateExpression:
          "SET counts.ended = counts.ended + :one, updated_at = :at, counts.outcomes.#status = if_not_exists(counts.outcomes.#status, :zero) + :one, counts.duplicates = counts.duplicates + :one",
        ConditionExpression: "attribute_exists(job_id) AND (attribute_not_exists(#limit) OR #limit >= :line)",
        ExpressionAttributeNames: { "#status": "rejected", "#limit": "line_limit" },
        ExpressionAttributeValues: { ":one": 1, ":at": at, ":line": 2, ":zero": 0 },
        ReturnValuesOnConditionCheckFailure: "ALL_OLD",
      },
    });
  });

  it("counts a dead letter without #status or :zero (DynamoDB refuses values an expression does not use)", () => {
    // act
    const { Update: update } = lineCountUpdate(table, "J", 9, "dead_lettered", once, at);
    // assert
    assert.deepEqual(update.Key, { job_id: "J", line: -1 });
    assert.equal(
      update.UpdateExpression,
      "SET counts.ended = counts.ended + :one, updated_at = :at, counts.dead_lettered = counts.dead_lettered + :one",
    );
    assert.deepEqual(update.ExpressionAttributeNames, { "#limit": "line_limit" });
    assert.deepEqual(update.ExpressionAttributeValues, { ":one": 1, ":at": at, ":line": 9 });
  });

  it("counts a line rejected at ingest as rejected_at_ingest too", () => {
    // act
    const update = lineCountUpdate(table, "J", 6, "rejected", { atIngest: true, duplicate: false }, at);
    // assert
    assert.equal(
      update.Update.UpdateExpression,
      "SET counts.ended = counts.ended + :one, updated_at = :at, counts.outcomes.#status = if_not_exists(counts.outcomes.#status, :zero) + :one, counts.rejected_at_ingest = counts.rejected_at_ingest + :one",
    );
  });

  it("moves a redriven dead letter's count to the outcome's status on the same counter, ended kept", () => {
    // act
    const { Update: move } = moveCountUpdate(table, "J", 4, "rejected", { duplicate: true }, at);
    const { Update: count } = lineCountUpdate(table, "J", 4, "dead_lettered", once, at);
    // assert
    assert.deepEqual(move.Key, count.Key);
    assert.deepEqual(move.Key, { job_id: "J", line: -4 });
    assert.equal(
      move.UpdateExpression,
      "SET counts.dead_lettered = counts.dead_lettered - :one, counts.outcomes.#status = if_not_exists(counts.outcomes.#status, :zero) + :one, updated_at = :at, counts.duplicates = counts.duplicates + :one",
    );
    assert.equal(move.ConditionExpression, "attribute_exists(job_id) AND counts.dead_lettered >= :one");
    assert.deepEqual(move.ExpressionAttributeNames, { "#status": "rejected" });
    assert.deepEqual(move.ExpressionAttributeValues, { ":one": 1, ":zero": 0, ":at": at });
  });
});
