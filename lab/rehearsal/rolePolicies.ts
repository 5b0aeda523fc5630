import type { TemplateResolver } from "../../local/iam/TemplateResolver.js";
import type { PolicyDocument } from "./authorizeCalls.js";

/** One identity policy of a role, resolved. */
export interface RolePolicy {
  name: string;
  document: PolicyDocument;
}

/** The role's inline policies and every AWS::IAM::Policy attached to it, resolved. */
export function policiesOf(resolver: TemplateResolver, roleId: string): RolePolicy[] {
  const inline = ((resolver.resource(roleId).Properties?.Policies as unknown[]) ?? []).map(
    (policy, index) => {
      const { PolicyName, PolicyDocument: document } = policy as {
        PolicyName?: unknown;
        PolicyDocument: unknown;
      };
      return {
        name: String(PolicyName ?? `${roleId}-inline-${index}`),
        document: resolver.resolve(document) as PolicyDocument,
      };
    },
  );
  const attached = resolver
    .logicalIdsOf("AWS::IAM::Policy")
    .filter((id) => {
      const roles = (resolver.resource(id).Properties?.Roles as { Ref?: string }[]) ?? [];
      return roles.some((role) => role.Ref === roleId);
    })
    .map((id) => ({
      name: id,
      document: resolver.resolve(resolver.resource(id).Properties?.PolicyDocument) as PolicyDocument,
    }));
  return [...inline, ...attached];
}
