import { z } from "zod";

/**
 * What the CDK app knows of one policy: its name, its file and the EventBridge events it maps. The
 * policy side writes it (`core/policy/policyCatalogueMain.ts`, after loading every policy as the
 * functions do), the CDK app reads it, so the synth knows the policies without compiling CEL itself.
 */
export const PolicyCatalogueEntrySchema = z.strictObject({
  /** The policy's `name`. */
  name: z.string().min(1),
  /** File name inside the policy folder. */
  file: z.string().min(1),
  /** `source` / `detail-type` pairs of the policy's EventBridge mappings. */
  events: z.array(z.strictObject({ source: z.string().min(1), detailType: z.string().min(1) })),
});

/** Every policy of a folder, sorted by file name. */
export const PolicyCatalogueSchema = z.array(PolicyCatalogueEntrySchema);

/** One policy as the CDK app knows it. */
export type PolicyCatalogueEntry = z.infer<typeof PolicyCatalogueEntrySchema>;
