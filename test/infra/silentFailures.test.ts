/**
 * Failures that would otherwise pass without a sound: an ingest run that times out or is aborted,
 * and a drift monitor that throws (its per-policy alarms read a missing data point as "no drift").
 */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { synthVariant } from "./synthVariant.js";

type Json = Record<string, unknown>;
const { template } = synthVariant("cpu");
const resources = (type: string) =>
  Object.entries(template.findResources(type)) as [string, { Properties: Json }][];

/** The metrics an alarm reads (its own, or each of its math expression's), as `namespace/name` and dimensions. */
function alarmMetrics(alarm: { Properties: Json }): { name: string; dimensions: Json[] }[] {
  const single = alarm.Properties.MetricName as string | undefined;
  if (single !== undefined)
    return [
      {
        name: `${alarm.Properties.Namespace}/${single}`,
        dimensions: (alarm.Properties.Dimensions as Json[]) ?? [],
      },
    ];
  return ((alarm.Properties.Metrics as Json[]) ?? []).flatMap((query) => {
    const stat = query.MetricStat as { Metric: Json } | undefined;
    if (stat === undefined) return [];
    return [
      {
        name: `${stat.Metric.Namespace}/${stat.Metric.MetricName}`,
        dimensions: (stat.Metric.Dimensions as Json[]) ?? [],
      },
    ];
  });
}

const refersTo = (dimensions: Json[], logicalId: string) =>
  JSON.stringify(dimensions).includes(`"${logicalId}"`);

describe("silent failures are alarmed", () => {
  it("alarms when an ingest run fails, times out or is aborted", () => {
    const [machineId] = resources("AWS::StepFunctions::StateMachine")[0] ?? [];
    assert.ok(machineId !== undefined);
    const watched = new Set(
      resources("AWS::CloudWatch::Alarm")
        .flatMap(([, alarm]) => alarmMetrics(alarm))
        .filter((metric) => refersTo(metric.dimensions, machineId))
        .map((metric) => metric.name),
    );

    for (const name of ["ExecutionsFailed", "ExecutionsTimedOut", "ExecutionsAborted"])
      assert.ok(watched.has(`AWS/States/${name}`), `no alarm watches ${name} of the ingest state machine`);
    // Any one run ending short alarms.
    for (const [, alarm] of resources("AWS::CloudWatch::Alarm").filter(([, alarm]) =>
      alarmMetrics(alarm).some((metric) => refersTo(metric.dimensions, machineId)),
    )) {
      assert.equal(alarm.Properties.Threshold, 1);
      assert.equal(alarm.Properties.ComparisonOperator, "GreaterThanOrEqualToThreshold");
    }
  });

  it("alarms when the drift monitor fails a check, notifying the alarm topic", () => {
    const [driftFunctionId] =
      resources("AWS::Lambda::Function").find(([id]) => id.startsWith("DriftMonitorHandler")) ?? [];
    assert.ok(driftFunctionId !== undefined);
    const [topicId] = resources("AWS::SNS::Topic")[0] ?? [];
    const errorsAlarms = resources("AWS::CloudWatch::Alarm").filter(([, alarm]) =>
      alarmMetrics(alarm).some(
        (metric) => metric.name === "AWS/Lambda/Errors" && refersTo(metric.dimensions, driftFunctionId),
      ),
    );

    assert.equal(errorsAlarms.length, 1, "one errors alarm on the drift monitor");
    const [, alarm] = errorsAlarms[0] as [string, { Properties: Json }];
    assert.ok(JSON.stringify(alarm.Properties.AlarmActions).includes(`"${topicId}"`));
  });
});
