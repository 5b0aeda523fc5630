import {
  buildDemoBatch,
  type DemoInputs,
  type ProbeItem,
  probeIncidents,
  withIdSuffix,
} from "../../../local/index.js";

/** The lanes bench's inputs: interactive items to send one at a time, and a bulk job's JSONL body. */
export interface LanesWorkload {
  /** `count` interactive items named `<sample id>-<tag>-<n>`: new items, each with an outcome of its own. */
  interactive(tag: string, count: number): ProbeItem[];
  /** The demo's batch file at `lines` lines, every item id suffixed `-<tag>` so two jobs share none. */
  bulkBody(tag: string): string;
}

/**
 * Builds the lanes bench's inputs from the demo's samples (`events/`): the incident work items as
 * interactive items, cycled under new ids, and the demo's batch file (`documents.jsonl`) repeated
 * to `lines` lines. The file's lines that are not JSON stay in it: they end as rejected lines.
 *
 * @throws Error when the samples hold no incident or no batch file.
 */
export function buildLanesWorkload(inputs: DemoInputs, lines: number): LanesWorkload {
  const templates = probeIncidents(inputs.messages, 10, "t");
  const object = inputs.objects[0];
  if (templates.length === 0 || object === undefined)
    throw new Error(
      "the samples under events/ hold no incident work item or no batch file for the lanes bench",
    );
  const batch = buildDemoBatch(object, lines).body.split("\n").slice(0, lines);
  return {
    interactive(tag, count) {
      return Array.from({ length: count }, (_, index) => {
        const template = templates[index % templates.length] as ProbeItem;
        const id = `${template.id}-${tag}-${index}`;
        return { policy: template.policy, id, body: JSON.stringify({ ...JSON.parse(template.body), id }) };
      });
    },
    bulkBody(tag) {
      return `${batch.map((line) => withIdSuffix(line, tag)).join("\n")}\n`;
    },
  };
}
