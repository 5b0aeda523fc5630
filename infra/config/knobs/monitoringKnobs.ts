import { DRIFT_MONITOR_SETTINGS, JOBS_MONITOR_SETTINGS } from "../../../contract/index.js";
import { integer, type KnobRule, setsVariable, text } from "./knobParsers.js";

/** Allowed `RetentionInDays` of CloudWatch log groups. */
const LOG_RETENTION_DAYS = [
  1, 3, 5, 7, 14, 30, 60, 90, 120, 150, 180, 365, 400, 545, 731, 1096, 1827, 2192, 2557, 2922, 3288, 3653,
] as const;

/** The alarms' thresholds, the jobs and drift monitors' settings, the alarm e-mail, log retention and the metrics namespace. */
export const MONITORING_KNOBS: readonly KnobRule[] = [
  {
    name: "fallbackRateAlarmPercent",
    defaultValue: 20,
    description: "alarm when more than this percentage of decisions in 15 minutes end as `fallback`",
    parse: integer(1, 100),
  },
  {
    name: "fallbackRateAlarmMinDecisions",
    defaultValue: 20,
    description:
      "the fallback-rate alarm needs at least this many decisions of the policy in the 15 minutes (1 of 2 is 50%)",
    parse: integer(1, 1_000_000),
  },
  {
    name: "endpoint5xxAlarmPercent",
    defaultValue: 5,
    description:
      "alarm when more than this percentage of endpoint invocations in 5 minutes answer 5xx (503s of a busy instance included), in two consecutive periods",
    parse: integer(1, 100),
  },
  {
    name: "endpointAlarmMinInvocations",
    defaultValue: 20,
    description: "the endpoint's error-rate alarms need at least this many invocations in the 5 minutes",
    parse: integer(1, 1_000_000),
  },
  {
    name: "oldestMessageAlarmSeconds",
    defaultValue: 900,
    description: "alarm when the oldest work item of the interactive lane has waited longer than this",
    parse: integer(60, 1_209_600),
  },
  {
    name: "bulkOldestMessageAlarmSeconds",
    defaultValue: 86_400,
    description:
      "alarm when the oldest work item of the bulk lane has waited longer than this (a large batch job waits hours by design; SQS deletes a message older than `queueRetentionDays`, so this must stay below it)",
    parse: integer(60, 1_209_600),
  },
  {
    name: "interactiveLatencyAlarmSeconds",
    defaultValue: 60,
    description:
      "the interactive lane's latency goal: alarm when the p95 of its send → outcome time (metric `SendToOutcome`) is above this in two consecutive 5-minute periods, and the capacity rule buys instances for an interactive backlog the instances in service would not drain within it",
    parse: integer(1, 86_400),
  },
  setsVariable(
    "jobStallMinutes",
    JOBS_MONITOR_SETTINGS.stallMinutes,
    "`JOB_STALL_MINUTES` of the jobs monitor: a batch job not final whose record has not changed for this many minutes is stalled (the StalledJobs alarm)",
  ),
  setsVariable(
    "driftAlarmThreshold",
    DRIFT_MONITOR_SETTINGS.threshold,
    "`DRIFT_THRESHOLD` of the drift monitor: a policy's drift alarm fires when a question's distance (Jensen–Shannon, bits) is above this at an hourly check ([docs/drift.md](../docs/drift.md))",
  ),
  {
    name: "alarmEmail",
    defaultValue: "",
    description: "e-mail address subscribed to the alarm topic; empty for none",
    parse: (value) =>
      value === "" ? undefined : text(/^[^\s@]+@[^\s@]+\.[^\s@]+$/, "an e-mail address or empty")(value),
  },
  {
    name: "logRetentionDays",
    defaultValue: 30,
    description: "retention of the functions' log groups, in days",
    parse: (value) => {
      const days = integer(1, 3653)(value);
      if (!(LOG_RETENTION_DAYS as readonly number[]).includes(days))
        throw new Error(`must be one of ${LOG_RETENTION_DAYS.join(", ")}, got ${days}`);
      return days;
    },
  },
  {
    name: "metricsNamespace",
    defaultValue: "Decisions",
    description: "CloudWatch namespace of the functions' metrics (`POWERTOOLS_METRICS_NAMESPACE`)",
    parse: text(/^[A-Za-z0-9._/#:-]{1,255}$/, "a CloudWatch namespace"),
  },
];
