import { z } from "zod";

/**
 * What the CDK app knows of one policy: its name, its file, the EventBridge events it maps and
 * where its outcomes are delivered. The
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
  /** The targets of its `deliver` section (docs/deliveries.md); absent or empty when it has none. */
  deliver: z
    .array(
      z.strictObject({
        name: z.string().min(1),
        url: z.string().optional(),
        /** The secret as written (`env:NAME` or a literal). */
        secret: z.string().optional(),
        bus: z.string().optional(),
        on: z.array(z.string().min(1)).min(1),
      }),
    )
    .optional(),
});

/** Every policy of a folder, sorted by file name. */
export const PolicyCatalogueSchema = z.array(PolicyCatalogueEntrySchema);

/** One policy as the CDK app knows it. */
export type PolicyCatalogueEntry = z.infer<typeof PolicyCatalogueEntrySchema>;
