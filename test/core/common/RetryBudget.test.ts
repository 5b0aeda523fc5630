import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { RetryBudget } from "../../../core/common/RetryBudget.js";

describe("RetryBudget", () => {
  it("starts full with the AWS SDK's standard-mode numbers (500 tokens, 5 a retry, 1 back per clean success)", () => {
    const budget = new RetryBudget();

    assert.equal(budget.available(), 500);
    assert.equal(budget.tryAcquire(), 5);
    assert.equal(budget.available(), 495);
    budget.onSuccess(0);
    assert.equal(budget.available(), 496);
  });

  it("refuses a retry once too few tokens are left, and takes none for it", () => {
    const budget = new RetryBudget({ capacity: 12, retryCost: 5 });

    assert.equal(budget.tryAcquire(), 5);
    assert.equal(budget.tryAcquire(), 5);
    assert.equal(budget.tryAcquire(), undefined);
    assert.equal(budget.available(), 2);
    assert.equal(budget.refused(), 1);
  });

  it("gives a retried success its retry's tokens back, never above the capacity", () => {
    const budget = new RetryBudget({ capacity: 10, retryCost: 5 });
    const taken = budget.tryAcquire() ?? 0;

    budget.onSuccess(taken);
    assert.equal(budget.available(), 10);
    budget.onSuccess(0);
    assert.equal(budget.available(), 10);
  });

  it("refuses settings that make no budget", () => {
    assert.throws(() => new RetryBudget({ retryCost: 0 }), RangeError);
    assert.throws(() => new RetryBudget({ capacity: -1 }), RangeError);
    assert.throws(() => new RetryBudget({ successRefill: Number.NaN }), RangeError);
  });
});
