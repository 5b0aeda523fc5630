/**
 * The shadow step on the dashboard and the alarms: with the candidate endpoint (`shadowModelDataUrl`)
 * a row of widgets over the shadow metrics and the candidate endpoint, and one alarm on the share of
 * shadow records without a result; without it, nothing of either.
 */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import type { Template } from "aws-cdk-lib/assertions";
import { SHADOW_METRICS } from "../../contract/metrics/shadowMetrics.js";
import { synthVariant } from "./synthVariant.js";
import { only, type Resource } from "./templateQueries.js";

const TITLES = [
  "Shadow: candidate vs live by policy (15 minutes)",
  "Shadow: records, failures, timeouts",
  "Shadow: candidate endpoint",
];

function dashboardBody(template: Template): string {
  const [, dashboard] = only(template, "AWS::CloudWatch::Dashboard");
  return JSON.stringify(dashboard.Properties.DashboardBody);
}

function alarms(template: Template): [string, Resource][] {
  return Object.entries(template.findResources("AWS::CloudWatch::Alarm") as Record<string, Resource>);
}

function shadowAlarms(template: Template): [string, Resource][] {
  return alarms(template).filter(([id]) => id.startsWith("ShadowMonitoring"));
}

describe("the shadow step's dashboard row and alarm", () => {
  it("are not there without the candidate endpoint", () => {
    const { template } = synthVariant("cpu");

    const body = dashboardBody(template);
    for (const title of TITLES) assert.ok(!body.includes(title), title);
    for (const name of Object.values(SHADOW_METRICS).filter((name) => name.startsWith("Shadow")))
      assert.ok(!body.includes(name), name);
    assert.deepEqual(shadowAlarms(template), []);
  });

  it("with shadowModelDataUrl: the agreement and status changes per policy, the records' totals and the candidate endpoint's metrics", () => {
    const { template, stack } = synthVariant("shadow");

    const body = dashboardBody(template);
    for (const title of TITLES) assert.ok(body.includes(title), title);
    assert.ok(stack.policies.length > 0);
    for (const { name: policy } of stack.policies) {
      for (const metric of [SHADOW_METRICS.agreement, SHADOW_METRICS.statusChanges])
        assert.match(
          body,
          new RegExp(
            `\\\\"${metric}\\\\",\\\\"policy\\\\",\\\\"${policy}\\\\",\\\\"service\\\\",\\\\"decide\\\\"`,
          ),
          `${metric} of ${policy}`,
        );
    }
    for (const metric of [
      SHADOW_METRICS.records,
      SHADOW_METRICS.failures,
      SHADOW_METRICS.timeouts,
      SHADOW_METRICS.calls,
      SHADOW_METRICS.notWritten,
    ])
      assert.ok(body.includes(`\\"${metric}\\"`), metric);
    // The endpoint widget reads the candidate endpoint's own metrics, by its name.
    const [shadowEndpointId] = Object.keys(template.findResources("AWS::SageMaker::Endpoint")).filter((id) =>
      id.startsWith("ShadowEndpoint"),
    );
    assert.ok(shadowEndpointId !== undefined);
    assert.ok(
      body.includes(`"Fn::GetAtt":["${shadowEndpointId}","EndpointName"]`),
      "the candidate endpoint's metrics",
    );
  });

  it("with shadowModelDataUrl: one alarm when more than half the shadow records of 15 minutes have no result, on the alarm topic", () => {
    const { template, stack } = synthVariant("shadow");

    const found = shadowAlarms(template);
    assert.equal(found.length, 1);
    const [, alarm] = found[0] as [string, Resource];
    const properties = alarm.Properties as {
      Threshold: number;
      ComparisonOperator: string;
      TreatMissingData: string;
      EvaluationPeriods: number;
      Metrics: Array<{
        Id: string;
        Expression?: string;
        MetricStat?: { Metric: { MetricName: string }; Period: number };
      }>;
      AlarmActions: unknown[];
      OKActions: unknown[];
    };
    assert.deepEqual(
      [
        properties.Threshold,
        properties.ComparisonOperator,
        properties.TreatMissingData,
        properties.EvaluationPeriods,
      ],
      [50, "GreaterThanThreshold", "notBreaching", 1],
    );
    const expression = properties.Metrics.find((metric) => metric.Expression !== undefined)?.Expression ?? "";
    assert.match(expression, /^IF\(\(.+\) >= 10, 100 \* \(.+\) \/ \(.+\)\)$/);
    const read = properties.Metrics.filter((metric) => metric.MetricStat !== undefined);
    assert.equal(read.length, 2 * stack.policies.length, "failures and records of each policy");
    assert.deepEqual(
      [...new Set(read.map((metric) => metric.MetricStat?.Metric.MetricName))].sort(),
      [SHADOW_METRICS.failures, SHADOW_METRICS.records].sort(),
    );
    assert.ok(read.every((metric) => metric.MetricStat?.Period === 900));
    const [topicId] = only(template, "AWS::SNS::Topic");
    assert.deepEqual(properties.AlarmActions, [{ Ref: topicId }]);
    assert.deepEqual(properties.OKActions, [{ Ref: topicId }]);
  });
});
