import { INGEST_SETTINGS } from "../../../contract/index.js";
import { type KnobRule, oneOf, setsVariable, text } from "./knobParsers.js";

/** Where work comes from and outcomes go: the ingest bucket's keys, the incident rule, the outcomes bus and table. */
export const INTAKE_KNOBS: readonly KnobRule[] = [
  {
    name: "ingestPrefix",
    defaultValue: "incoming/",
    description: "key prefix of the ingest bucket whose new objects are ingested",
    parse: text(/^[^*?\s]*$/, "an S3 key prefix without wildcards"),
  },
  {
    name: "ingestSuffix",
    defaultValue: ".jsonl",
    description: "key suffix of ingested objects",
    parse: text(/^[^*?\s]*$/, "an S3 key suffix without wildcards"),
  },
  setsVariable(
    "ingestMaxLinesPerInvocation",
    INGEST_SETTINGS.maxLinesPerInvocation,
    "`MAX_LINES_PER_INVOCATION` of the ingest function: lines read before it checkpoints and continues",
    10_000,
  ),
  {
    name: "incidentEventBus",
    defaultValue: "default",
    description: "EventBridge bus whose incident events are turned into work items",
    parse: text(/^[A-Za-z0-9._\-/]{1,256}$/, "an event bus name"),
  },
  {
    name: "incidentSource",
    defaultValue: "acme.monitoring",
    description: "`source` of the incident events the rule matches (as in `policies/incident-priority.yaml`)",
    parse: text(/^\S{1,256}$/, "an event source"),
  },
  {
    name: "incidentDetailType",
    defaultValue: "Incident Opened",
    description: "`detail-type` of the incident events the rule matches",
    parse: text(/^.{1,128}$/, "a detail-type"),
  },
  {
    name: "outcomesBusName",
    defaultValue: "decisions-outcomes",
    description: "EventBridge bus the outcomes table's stream is published to (through a Pipe)",
    parse: text(/^[A-Za-z0-9._-]{1,256}$/, "an event bus name"),
  },
  {
    name: "outcomesRemovalPolicy",
    defaultValue: "retain",
    description: "what `cdk destroy` does with the outcomes table: `retain` it or `destroy` it",
    parse: oneOf("retain", "destroy"),
  },
];
